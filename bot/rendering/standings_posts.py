"""The channel's standings posts in a language: the live table and the post closing a round or
a stage, written from a board (the outbox worker draws them when it sends them)."""

from __future__ import annotations

from bot.delivery.render import render_phrase
from bot.i18n import translator
from bot.rendering.standings_text import live_standings_text, standings_pages
from domain.standings_board import Closing, StandingsBoard, closing_heading


def live_post(board: StandingsBoard, locale: str) -> str:
    """The pinned live table, within one message (an edit cannot be split)."""
    return live_standings_text(board, locale)


def closing_pages(board: StandingsBoard, closing: Closing, locale: str) -> list[str]:
    """The whole table closing a round or a stage as messages cut between rows, the closing's
    heading (the pictures' caption too) on the first."""
    heading = render_phrase(translator(), locale, closing_heading(board, closing), markup=True)
    return standings_pages(board, locale, heading=heading)
