"""Where the tournament's public page is linked: its path by visibility, and the channel's
live table ending with the link (within one message)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from bot.rendering.standings_posts import live_post
from domain.outgoing import TEXT_LIMIT
from domain.regulation import load_preset
from domain.standings import PlayerEntry
from domain.standings_board import standings_board
from domain.tournament import Tournament, TournamentState, WebVisibility

NOW = datetime(2026, 12, 1, tzinfo=UTC)


def _tournament(**changes: object) -> Tournament:
    base = Tournament(
        id=7,
        title="Кубок",
        regulation_id="black-raven-cup",
        state=TournamentState.RUNNING,
        timezone="Europe/Moscow",
        created_by=1,
        created_at=NOW,
    )
    return replace(base, **changes)  # type: ignore[arg-type]


def test_the_page_path_follows_the_visibility() -> None:
    assert _tournament().public_page_path == "/t/7"
    unlisted = _tournament(web_visibility=WebVisibility.UNLISTED, web_token="abc")
    assert unlisted.public_page_path == "/t/7?k=abc"
    assert _tournament(web_visibility=WebVisibility.OFF).public_page_path is None
    assert _tournament(state=TournamentState.DRAFT).public_page_path == "/t/7"


def test_the_live_table_ends_with_the_link_and_still_fits_one_message() -> None:
    players = [PlayerEntry(str(n), f"Игрок с длинным ником {n}") for n in range(1, 401)]
    board = standings_board(
        "Кубок", load_preset("black-raven-cup"), players, [], [], None, "qualifying", NOW
    )
    linked = live_post(replace(board, page_path="/t/7"), "ru", "https://bot.example.org")
    assert linked.endswith("https://bot.example.org/t/7")
    assert len(linked) <= TEXT_LIMIT
    assert "https://" not in live_post(board, "ru", "https://bot.example.org")
    assert "https://" not in live_post(replace(board, page_path="/t/7"), "ru", None)


def test_the_channel_links_only_a_public_page() -> None:
    assert _tournament().channel_page_path == "/t/7"
    unlisted = _tournament(web_visibility=WebVisibility.UNLISTED, web_token="abc")
    assert unlisted.channel_page_path is None
    assert _tournament(web_visibility=WebVisibility.OFF).channel_page_path is None
