"""The channel's standings posts in a language: the live table and the post closing a round or
a stage, written from a board (the outbox worker draws them when it sends them)."""

from __future__ import annotations

from html import escape

from bot.i18n import translator
from bot.rendering.phrases import render_phrase
from bot.rendering.standings_table import text
from bot.rendering.standings_text import live_standings_text, standings_pages
from bot.rendering.text import telegram_length
from domain.outgoing import TEXT_LIMIT
from domain.standings_board import Closing, StandingsBoard, closing_heading


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
