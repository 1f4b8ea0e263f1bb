"""The channel's standings posts in one language: the live table and the closing posts."""

from __future__ import annotations

from html import escape

from bot.rendering.standings_png import standings_png
from bot.rendering.standings_table import stage_name, text
from bot.rendering.standings_text import live_standings_text, standings_pages
from domain.services.standings import (
    Closing,
    ClosingPost,
    RoundClosed,
    StandingsBoard,
)


class ChannelStandings:
    """The `StandingsPresenter` of `domain/services/standings.py`, in the channel's language."""

    def __init__(self, locale: str) -> None:
        self.locale = locale

    def live(self, board: StandingsBoard) -> str:
        """The pinned live table, within one message."""
        return live_standings_text(board, self.locale)

    def closing(self, board: StandingsBoard, closing: Closing) -> ClosingPost:
        """The picture with a heading caption, then the whole table as text pages."""
        tournament = escape(board.title)
        stage = escape(stage_name(board, self.locale, closing.stage) or closing.stage)
        if isinstance(closing, RoundClosed):
            heading = text(
                self.locale,
                "standings-closing-round",
                tournament=tournament,
                round=closing.round,
                stage=stage,
            )
        else:
            heading = text(
                self.locale, "standings-closing-stage", tournament=tournament, stage=stage
            )
        return ClosingPost(
            picture=standings_png(board, self.locale),
            caption=heading,
            pages=tuple(standings_pages(board, self.locale, heading=heading)),
        )
