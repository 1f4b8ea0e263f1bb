"""The channel's standings posts in a language: the live table, the post closing a round or
a stage and the results of a finished tournament, written from a board (the outbox worker
draws them when it sends them)."""

from __future__ import annotations

from html import escape

from bot.i18n import format_points, translator
from bot.rendering.phrases import render_phrase
from bot.rendering.standings_table import text
from bot.rendering.standings_text import live_standings_text, standings_pages
from bot.rendering.text import telegram_length
from domain.outgoing import TEXT_LIMIT
from domain.standings import StandingRow
from domain.standings_board import Closing, StandingsBoard, closing_heading, podium


def live_post(board: StandingsBoard, locale: str, web_base_url: str | None = None) -> str:
    """The pinned live table, within one message (an edit cannot be split), ending with the
    link to the tournament's web page when it has one and the bot knows its address."""
    if web_base_url is None or board.page_path is None:
        return live_standings_text(board, locale)
    link = "\n\n" + text(locale, "standings-web-link", url=escape(web_base_url + board.page_path))
    table = live_standings_text(board, locale, limit=TEXT_LIMIT - telegram_length(link))
    return table + link


def closing_pages(board: StandingsBoard, closing: Closing, locale: str) -> list[str]:
    """The whole table closing a round or a stage as messages cut between rows, the closing's
    heading (the pictures' caption too) on the first."""
    heading = render_phrase(translator(), locale, closing_heading(board, closing), markup=True)
    return standings_pages(board, locale, heading=heading)


MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}


def podium_lines(
    board: StandingsBoard, locale: str, medals: bool = True
) -> list[tuple[str, list[str]]]:
    """The podium as plain text: each group's title and its lines ("🥇 Name — 12,5", or
    "1. Name — 12,5" without `medals`, for a screen that may lack an emoji font), teams first
    in a team tournament, whose players' podium is the individual standings."""
    stands = podium(board)
    groups: list[tuple[str, tuple[StandingRow, ...]]] = []
    if stands.teams:
        groups.append((text(locale, "standings-podium-teams"), stands.teams))
        groups.append((text(locale, "standings-podium-individual"), stands.players))
    else:
        groups.append((text(locale, "standings-podium-players"), stands.players))
    return [*_podium_groups(groups, locale, medals), *award_lines(board, locale)]


def award_lines(board: StandingsBoard, locale: str) -> list[tuple[str, list[str]]]:
    """The regulation's nominations as a group of lines ("Лучший шериф: Ник05 — 6,5"), none
    before they are decided or when nobody earned one."""
    names = {row.id: row.name for row in board.standings.players}
    lines = [
        text(
            locale,
            "standings-award-row",
            role=award.role.value,
            names=", ".join(names.get(player, player) for player in award.players),
            count=len(award.players),
            points=format_points(award.figures.points, locale),
            games=award.figures.games,
        )
        for award in board.awards
        if award.players
    ]
    return [(text(locale, "standings-awards"), lines)] if lines else []


def _podium_groups(
    groups: list[tuple[str, tuple[StandingRow, ...]]], locale: str, medals: bool
) -> list[tuple[str, list[str]]]:
    return [
        (
            title,
            [
                text(
                    locale,
                    "standings-podium-row",
                    medal=MEDALS[row.place] if medals else f"{row.place}.",
                    name=row.name,
                    points=format_points(row.points, locale),
                )
                for row in rows
            ],
        )
        for title, rows in groups
        if rows
    ]


def results_pages(board: StandingsBoard, locale: str) -> list[str]:
    """The post announcing a finished tournament: the winner and the podium, then the final
    table as messages cut between rows."""
    stands = podium(board)
    winners = [row for row in (stands.teams or stands.players) if row.place == 1]
    lines = [text(locale, "standings-results-heading", tournament=escape(board.title))]
    if winners:
        names = ", ".join(escape(row.name) for row in winners)
        key = "standings-results-team-winner" if stands.teams else "standings-results-winner"
        lines.append(text(locale, key, names=names, count=len(winners)))
    for title, rows in podium_lines(board, locale):
        lines.append(f"\n<b>{escape(title)}</b>")
        lines.extend(escape(row) for row in rows)
    heading = text(locale, "standings-results-table", tournament=escape(board.title))
    return ["\n".join(lines), *standings_pages(board, locale, heading=heading)]
