"""The live game's pages: the public page of a game being played and the stream's overlay.

    /t/{id}/games/{game}/live                   the table as spectators see it (roles secret
                                                until the game ends); takes `k` when unlisted
    /t/{id}/games/{game}/live/events            Server-Sent Events: "change" when it changes
    /t/{id}/games/{game}/stream/{token}         the stream's overlay (1920×1080, transparent,
                                                roles shown, `delay` seconds late)
    /t/{id}/games/{game}/stream/{token}/events  its changes, as the delayed view changes

The judge's log is read once per change for every viewer (`GameWatch`, told by the unit of
work's `changed_games` after each stored action); what each viewer sees is drawn from it by
`domain.live_table.live_table` at the request's moment. A stream sends "change" only when
what its viewer sees changed, so the public one never tells when the night's secret steps
happen.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

import aiohttp_jinja2
from aiohttp import web
from aiohttp_sse import EventSourceResponse

from bot.i18n import LOCALES
from bot.rendering.web_pages import Words
from bot.web.pages.live import Signal
from bot.web.pages.site import (
    CACHE,
    SECURITY_HEADERS,
    Links,
    base_url,
    locale_of,
    open_view,
)
from domain.game_log import Entry, VoteRecord
from domain.live_table import LiveTable, StreamLink, live_table, next_change
from domain.public_view import PublicRound, PublicTable, PublicTournament
from domain.services.catalog import Services
from domain.services.ports import Clock
from domain.tournament import TournamentState
from domain.validation import ROW_ID_MAX, Invalid, whole_number

# A game's log is read again after this many seconds even untold: another replica of the bot
# may have stored the judge's action (its commit tells only its own process's pages).
MAX_AGE_SECONDS = 5.0


class _Read:
    """A game's log and stream link as read after its last change, with the spectators'
    table drawn from it once for all of them (it depends on the log and the tournament's
    view only: the moment changes only its timer's figure, drawn by the template)."""

    def __init__(self, entries: tuple[Entry, ...], stream: StreamLink | None) -> None:
        self.entries = entries
        self.stream = stream
        self.read_at = time.monotonic()
        self._public: tuple[PublicTournament, bool, LiveTable] | None = None

    def public(self, view: PublicTournament, table: PublicTable, now: datetime) -> LiveTable:
        memo = self._public
        if memo is not None and memo[0] is view and memo[1] == table.confirmed:
            return memo[2]
        drawn = live_table(
            self.entries,
            view.header.regulation,
            tuple(seat.nickname for seat in table.seats),
            now=now,
            ended=table.confirmed,
        )
        self._public = (view, table.confirmed, drawn)
        return drawn


class GameWatch:
    """Each game's log and stream link, read once per change, and its change signal."""

    def __init__(self, services: Services, clock: Clock, *, caching: bool) -> None:
        self._services = services
        self.clock = clock
        # Only a watch told of every change may keep what it read.
        self._caching = caching
        self._reads: dict[int, _Read] = {}
        self._reading: dict[int, asyncio.Task[_Read]] = {}
        self._signals: dict[int, Signal] = {}
        self.closing = False

    async def read(self, game_id: int) -> _Read:
        read = self._reads.get(game_id)
        if read is not None and time.monotonic() - read.read_at < MAX_AGE_SECONDS:
            return read
        # Every spectator's stream asks at once after a change: one read serves them all.
        task = self._reading.get(game_id)
        if task is None:
            task = asyncio.ensure_future(self._read(game_id))
            self._reading[game_id] = task
            task.add_done_callback(lambda done: self._forget(game_id, done))
        return await asyncio.shield(task)

    def _forget(self, game_id: int, task: asyncio.Task[_Read]) -> None:
        if self._reading.get(game_id) is task:
            del self._reading[game_id]

    async def _read(self, game_id: int) -> _Read:
        version = self.signal(game_id).version
        read = _Read(*await self._services.live_tables.game_feed(game_id))
        # A change committed while reading: this read may predate it, so it is not kept.
        if self._caching and self.signal(game_id).version == version:
            self._reads[game_id] = read
        return read

    def signal(self, game_id: int) -> Signal:
        signal = self._signals.get(game_id)
        if signal is None:
            signal = self._signals[game_id] = Signal()
        return signal

    def changed(self, game_ids: Iterable[int]) -> None:
        """The games' logs (or stream links) changed: read again, open pages told."""
        for game_id in game_ids:
            self._reads.pop(game_id, None)
            # A read begun before the change may miss it: whoever asks now reads again.
            self._reading.pop(game_id, None)
            self.signal(game_id).bump()

    def close(self) -> None:
        self.closing = True
        for signal in self._signals.values():
            signal.bump()


WATCH = web.AppKey("game_watch", GameWatch)


def install(
    web_app: web.Application,
    services: Services,
    clock: Clock,
    add_game_listener: Callable[[Callable[[frozenset[int]], None]], None] | None,
) -> GameWatch:
    """Add the live game's pages; they hear of every stored action through the listener
    (without one, they read the log at each load)."""
    watch = GameWatch(services, clock, caching=add_game_listener is not None)
    if add_game_listener is not None:
        add_game_listener(watch.changed)
    web_app[WATCH] = watch
    web_app.on_shutdown.append(_close)
    game = r"/t/{tournament:[0-9]{1,9}}/games/{game:[0-9]{1,9}}"
    stream = game + r"/stream/{token:[A-Za-z0-9_-]{1,64}}"
    web_app.router.add_get(game + "/live", live_page)
    web_app.router.add_get(game + "/live/events", live_events)
    web_app.router.add_get(stream, stream_page)
    web_app.router.add_get(stream + "/events", stream_events)
    return watch


async def _close(web_app: web.Application) -> None:
    web_app[WATCH].close()


@dataclass(frozen=True)
class _Sight:
    """What one request sees: the tournament, the game's place, and how to draw its table."""

    view: PublicTournament
    round: PublicRound
    table: PublicTable
    game_id: int
    stream: StreamLink | None

    def table_at(self, read: _Read, now: datetime) -> LiveTable:
        if self.stream is None:
            return read.public(self.view, self.table, now)
        return live_table(
            read.entries,
            self.view.header.regulation,
            tuple(seat.nickname for seat in self.table.seats),
            now=now,
            delay=self.stream.delay,
            reveal=True,
            ended=self.table.confirmed,
        )


def _game_id(request: web.Request) -> int:
    try:
        return whole_number(request.match_info["game"], 1, ROW_ID_MAX)
    except Invalid:
        raise web.HTTPNotFound() from None


async def _place(request: web.Request, view: PublicTournament) -> tuple[PublicRound, PublicTable]:
    place = view.table_of_game(_game_id(request))
    if place is None:
        raise web.HTTPNotFound()
    return place


async def _public(request: web.Request) -> _Sight:
    view = await open_view(request)
    round_, table = await _place(request, view)
    return _Sight(view, round_, table, table.game_id, None)


async def _streamed(request: web.Request) -> _Sight:
    """The stream's sight: its own token opens it, whatever the page's visibility."""
    tournament_id = int(request.match_info["tournament"])
    view = await request.app[CACHE].view(tournament_id)
    if view is None or view.header.state is TournamentState.DRAFT:
        raise web.HTTPNotFound()
    round_, table = await _place(request, view)
    read = await request.app[WATCH].read(table.game_id)
    link = read.stream
    if link is None or not link.opens(request.match_info["token"]):
        raise web.HTTPNotFound()
    return _Sight(view, round_, table, table.game_id, link)


def _render(request: web.Request, sight: _Sight, read: _Read, template: str) -> web.Response:
    now = request.app[WATCH].clock.now()
    locale = locale_of(request, sight.view)
    words = Words(locale)
    here = request.path
    links = Links(
        sight.view, locale, base_url(request), here.removeprefix(f"/t/{sight.view.header.id}")
    )
    context: dict[str, object] = {
        "view": sight.view,
        "t": words,
        "locale": locale,
        "locales": LOCALES,
        "links": links,
        "kind": "live",
        "round": sight.round,
        "place": sight.table,
        "game": sight.table_at(read, now),
        # The moment the table is shown as of (a delayed stream's past): its timer's.
        "moment": now - (sight.stream.delay if sight.stream is not None else timedelta(0)),
        "events": f"{here}/events?lang={locale}"
        + (f"&{sight.view.token_query}" if sight.stream is None and sight.view.token_query else ""),
        "stream": sight.stream,
        "vote_line": _vote_line,
    }
    body = aiohttp_jinja2.render_string(template, request, context)
    return web.Response(text=body, content_type="text/html", headers={"Cache-Control": "no-store"})


def _vote_line(vote: VoteRecord) -> str:
    """A vote's counts, candidate by candidate ("3: 5, 7: 4")."""
    return ", ".join(
        f"{seat}: {count}" for seat, count in zip(vote.candidates, vote.counts, strict=False)
    )


async def live_page(request: web.Request) -> web.Response:
    sight = await _public(request)
    return _render(request, sight, await request.app[WATCH].read(sight.game_id), "live_game.html")


async def stream_page(request: web.Request) -> web.Response:
    sight = await _streamed(request)
    return _render(request, sight, await request.app[WATCH].read(sight.game_id), "stream.html")


async def live_events(request: web.Request) -> web.StreamResponse:
    return await _events(request, _public)


async def stream_events(request: web.Request) -> web.StreamResponse:
    return await _events(request, _streamed)


async def _events(
    request: web.Request, sight_of: Callable[[web.Request], Awaitable[_Sight]]
) -> web.StreamResponse:
    """One "change" each time what the viewer sees changes: after an action, and for a
    delayed stream when an action's moment plus the delay comes."""
    sight = await sight_of(request)
    watch = request.app[WATCH]
    signal = watch.signal(sight.game_id)
    seen = signal.version
    shown = sight.table_at(await watch.read(sight.game_id), watch.clock.now()).digest
    stream = EventSourceResponse(headers=SECURITY_HEADERS)
    with contextlib.suppress(ConnectionResetError):
        await stream.prepare(request)
        async with stream:
            await stream.send("ready", event="ready", retry=3000)
            while stream.is_connected() and not watch.closing:
                read = await watch.read(sight.game_id)
                seen = await signal.wait(seen, _wait_seconds(sight, read, watch.clock.now()))
                if watch.closing:
                    break
                try:
                    sight = await sight_of(request)
                except web.HTTPNotFound:
                    # Revoked, or the game left the published rounds: the page reads its end.
                    await stream.send("gone", event="change")
                    break
                digest = sight.table_at(await watch.read(sight.game_id), watch.clock.now()).digest
                if digest != shown:
                    shown = digest
                    await stream.send(digest, event="change")
    return stream


def _wait_seconds(sight: _Sight, read: _Read, now: datetime) -> float:
    """How long to wait for a change: a delayed stream wakes when its next action is due;
    every stream looks again after `MAX_AGE_SECONDS` (another replica's action)."""
    if sight.stream is None or not sight.stream.delay_seconds:
        return MAX_AGE_SECONDS
    due = next_change(read.entries, now - sight.stream.delay)
    if due is None:
        return MAX_AGE_SECONDS
    return min(MAX_AGE_SECONDS, max(0.05, (due + sight.stream.delay - now).total_seconds()))


__all__ = ["GameWatch", "install"]
