"""The channel's standings posts in one language: the live table and the closing posts."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from html import escape

from bot.rendering.pictures import StandingsPainter
from bot.rendering.standings_png import picture_count
from bot.rendering.standings_table import stage_name, text
from bot.rendering.standings_text import live_standings_text, standings_pages
from domain.services.ports import UnitOfWorkFactory
from domain.services.standings import (
    Closing,
    ClosingPost,
    RoundClosed,
    StandingsBoard,
    board_of_tournament,
)


class ChannelStandings:
    """The `StandingsPresenter` of `domain/services/standings.py`, in the channel's language:
    the tournament's (the board's) unless a `locale` is given."""

    def __init__(self, locale: str | None = None) -> None:
        self._locale = locale

    def _of(self, board: StandingsBoard) -> str:
        return self._locale or board.locale

    def live(self, board: StandingsBoard) -> str:
        """The pinned live table, within one message."""
        return live_standings_text(board, self._of(board))

    def closing(self, board: StandingsBoard, closing: Closing) -> ClosingPost:
        """The picture with a heading caption, then the whole table as text pages."""
        locale = self._of(board)
        tournament = escape(board.title)
        stage = escape(stage_name(board, locale, closing.stage) or closing.stage)
        if isinstance(closing, RoundClosed):
            heading = text(
                locale,
                "standings-closing-round",
                tournament=tournament,
                round=closing.round,
                stage=stage,
            )
        else:
            heading = text(locale, "standings-closing-stage", tournament=tournament, stage=stage)
        return ClosingPost(
            caption=heading,
            pages=tuple(standings_pages(board, locale, heading=heading)),
            pictures=picture_count(board),
        )


class StandingsPictures:
    """Draws the `standings-picture` attachments of the outbox when they are sent: the
    tournament's current standings, drawn by `painter` outside the event loop's process so
    the bot stays responsive."""

    def __init__(self, uow_factory: UnitOfWorkFactory, painter: StandingsPainter) -> None:
        self._uow_factory = uow_factory
        self._painter = painter

    async def __call__(self, args: Mapping[str, str | int], locale: str, now: datetime) -> bytes:
        board = await board_of_tournament(self._uow_factory, int(args["tournament"]), now)
        page = int(args.get("page", 1))
        return await self._painter.draw(board, locale, page)


class LiveStandingsText:
    """Draws the live table of a scheduled `standings-live` edit when it is sent: the
    standings as they stand then, provisional as of the moment it was scheduled for."""

    def __init__(self, uow_factory: UnitOfWorkFactory) -> None:
        self._uow_factory = uow_factory

    async def __call__(self, args: Mapping[str, str | int], locale: str, now: datetime) -> str:
        moment = datetime.fromisoformat(str(args["at"]))
        board = await board_of_tournament(self._uow_factory, int(args["tournament"]), moment)
        return ChannelStandings(locale).live(board)
