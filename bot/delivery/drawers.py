"""What the outbox worker draws when it sends a message (see `domain.outgoing.Drawing`): the
standings as they stand at that moment, read through the standings service and written by the
rendering layer in the recipient's language."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from bot.delivery.writer import Drawer
from bot.rendering.pictures import StandingsPainter
from bot.rendering.standings_posts import closing_pages, live_post, results_pages
from bot.rendering.text import PAGE_BREAK
from domain.services.standings import StandingsService
from domain.services.standings_posts import (
    CLOSING_STANDINGS,
    LIVE_STANDINGS,
    RESULTS_STANDINGS,
    STANDINGS_ALBUM,
    closing_of,
)


class StandingsAlbum:
    """Draws the `standings-album` attachments: the tournament's current standings, every
    picture of them, drawn by `painter` outside the event loop's process so the bot stays
    responsive."""

    def __init__(self, standings: StandingsService, painter: StandingsPainter) -> None:
        self._standings = standings
        self._painter = painter

    async def __call__(
        self, args: Mapping[str, str | int], locale: str, now: datetime
    ) -> tuple[bytes, ...]:
        board = await self._standings.board_of_tournament(int(args["tournament"]), now)
        return tuple(await self._painter.draw_all(board, locale))


class LiveStandingsText:
    """Draws the live table of a `standings-live` edit: the standings as they stand when it
    is sent, provisional as of the moment it was recorded or scheduled for."""

    def __init__(self, standings: StandingsService, web_base_url: str | None = None) -> None:
        self._standings = standings
        self._web_base_url = web_base_url

    async def __call__(self, args: Mapping[str, str | int], locale: str, now: datetime) -> str:
        moment = datetime.fromisoformat(str(args["at"]))
        board = await self._standings.board_of_tournament(int(args["tournament"]), moment)
        return live_post(board, locale, self._web_base_url)


class ClosingStandingsText:
    """Draws the table of a `standings-closing` post: its pages, each sent as a message."""

    def __init__(self, standings: StandingsService) -> None:
        self._standings = standings

    async def __call__(self, args: Mapping[str, str | int], locale: str, now: datetime) -> str:
        moment = datetime.fromisoformat(str(args["at"]))
        board = await self._standings.board_of_tournament(int(args["tournament"]), moment)
        return PAGE_BREAK.join(closing_pages(board, closing_of(args), locale))


class ResultsText:
    """Draws the post announcing a finished tournament: the podium, then the final table."""

    def __init__(self, standings: StandingsService) -> None:
        self._standings = standings

    async def __call__(self, args: Mapping[str, str | int], locale: str, now: datetime) -> str:
        moment = datetime.fromisoformat(str(args["at"]))
        board = await self._standings.board_of_tournament(int(args["tournament"]), moment)
        return PAGE_BREAK.join(results_pages(board, locale))


def standings_drawers(
    standings: StandingsService, painter: StandingsPainter, web_base_url: str | None = None
) -> dict[str, Drawer]:
    """Every drawer of the standings, by the name their drawings give (the live table links
    to the tournament's web page under `web_base_url`)."""
    return {
        STANDINGS_ALBUM: StandingsAlbum(standings, painter),
        LIVE_STANDINGS: LiveStandingsText(standings, web_base_url),
        CLOSING_STANDINGS: ClosingStandingsText(standings),
        RESULTS_STANDINGS: ResultsText(standings),
    }
