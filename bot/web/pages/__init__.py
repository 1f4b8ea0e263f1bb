"""The tournaments' public web pages, served by the bot's own aiohttp application.

    /t/{id}            standings: stages, cut lines, players' and teams' tables
    /t/{id}/rounds     the published rounds' seatings
    /t/{id}/games      the confirmed games, each player's parts
    /t/{id}/p/{player} one player: his seats, games, roles and points by part
    /t/{id}/hall       the hall screen: large type, scrolling standings, the page's QR code
    /t/{id}/events     Server-Sent Events: "change" whenever the tournament's view changes
    /t/{id}/qr.svg     the QR code of the tournament's page
    /t/{id}/games/{game}/live, /t/{id}/games/{game}/stream/{token}: the live game's page and
                       the stream's overlay (`bot.web.pages.games`)

Every page takes `lang` (ru, en; the tournament's language by default) and, for an unlisted
tournament, `k` (its token). Reads go through `domain.services.public` and the text through
`bot.rendering.web_pages`; the pages are cached per tournament (`live.PageCache`) until the
after-change step marks the tournament changed. Pages are readable without JavaScript; the
scripts (no inline ones: the Content-Security-Policy forbids them) only add live updates and
the hall screen's scrolling.
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING

import aiohttp_jinja2
import jinja2
import segno
from aiohttp import web
from aiohttp_sse import EventSourceResponse

from bot.i18n import LOCALES
from bot.rendering.web_pages import Words, legend_lines, results, stages, standings_tables
from bot.web.pages import games
from bot.web.pages.live import PageCache, Reader
from bot.web.pages.site import (
    BASE_URL,
    CACHE,
    EVENTS_CHECK_SECONDS,
    SECURITY_HEADERS,
    Links,
    base_url,
    locale_of,
    open_view,
)
from domain.public_view import PublicTournament
from domain.services.catalog import Services

if TYPE_CHECKING:
    from bot.config import Settings
    from domain.services.catalog import Services
    from domain.services.ports import Clock

HERE = Path(__file__).parent


def install(
    web_app: web.Application,
    services: Services,
    clock: Clock,
    settings: Settings,
    add_change_listener: Callable[[Callable[[frozenset[int]], None]], None],
    reader: Reader | None = None,
    add_game_listener: Callable[[Callable[[frozenset[int]], None]], None] | None = None,
) -> PageCache:
    """Add the public pages to the bot's web application; their cache hears of every
    committed change through `add_change_listener`. `reader` replaces the database read (the
    benchmark serves a tournament built in memory). The live games' pages hear of every stored
    action through `add_game_listener`."""

    async def read(tournament_id: int) -> PublicTournament | None:
        return await services.public.public_tournament(tournament_id, clock.now())

    cache = PageCache(reader or read)
    add_change_listener(cache.changed)
    web_app[CACHE] = cache
    web_app[BASE_URL] = settings.web_base_url or ""
    environment = aiohttp_jinja2.setup(
        web_app,
        loader=jinja2.FileSystemLoader(HERE / "templates"),
        autoescape=jinja2.select_autoescape(default=True, default_for_string=True),
        undefined=jinja2.StrictUndefined,
    )
    web_app.on_response_prepare.append(_security_headers)
    web_app.on_shutdown.append(_close_streams)
    web_app.middlewares.append(_not_found_page)
    tournament = r"/t/{tournament:[0-9]{1,9}}"
    web_app.router.add_get(tournament, standings_page)
    web_app.router.add_get(tournament + "/rounds", rounds_page)
    web_app.router.add_get(tournament + "/games", games_page)
    web_app.router.add_get(tournament + r"/p/{player:[0-9]{1,9}}", player_page)
    web_app.router.add_get(tournament + "/hall", hall_page)
    web_app.router.add_get(tournament + "/events", events)
    web_app.router.add_get(tournament + "/qr.svg", qr_code)
    web_app.router.add_get("/favicon.ico", favicon)
    games.install(web_app, services, clock, add_game_listener)
    static = web_app.router.add_static("/static/", HERE / "static", append_version=True)
    # Each file's address carries its hash: a new release's script is never a cached old one.
    environment.globals["static"] = lambda name: str(static.url_for(filename=name))
    return cache


async def _close_streams(web_app: web.Application) -> None:
    web_app[CACHE].close()


async def _security_headers(request: web.Request, response: web.StreamResponse) -> None:
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)


def _not_found(request: web.Request) -> web.Response:
    locale = locale_of(request, None)
    words = Words(locale)
    body = aiohttp_jinja2.render_string(
        "not_found.html", request, {"t": words, "locale": locale, "links": None}
    )
    return web.Response(text=body, status=404, content_type="text/html")


@web.middleware
async def _not_found_page(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    """Unknown tournaments, players and paths answer with a page saying so (404)."""
    try:
        return await handler(request)
    except web.HTTPNotFound:
        if request.method != "GET":
            raise
        return _not_found(request)


async def _page(
    request: web.Request,
    template: str,
    kind: str,
    extra: Callable[[PublicTournament, Words], dict[str, object]] | None = None,
    key: tuple[str, ...] = (),
) -> web.Response:
    view = await open_view(request)
    locale = locale_of(request, view)
    base = base_url(request)

    def draw(view: PublicTournament) -> str:
        words = Words(locale)
        context: dict[str, object] = {
            "view": view,
            "t": words,
            "locale": locale,
            "locales": LOCALES,
            "links": Links(view, locale, base),
            "kind": kind,
        }
        if extra is not None:
            context.update(extra(view, words))
        return aiohttp_jinja2.render_string(template, request, context)

    cache = request.app[CACHE]
    body = await cache.page(view.header.id, (kind, locale, base, *key), draw)
    if body is None:
        raise web.HTTPNotFound()
    return web.Response(text=body, content_type="text/html")


def _standings(view: PublicTournament, words: Words) -> dict[str, object]:
    return {
        "tables": standings_tables(view, words.locale),
        "stages": stages(view, words.locale),
        "legend": legend_lines(view, words.locale),
        "podium": results(view, words.locale),
    }


async def standings_page(request: web.Request) -> web.Response:
    return await _page(request, "standings.html", "standings", _standings)


async def hall_page(request: web.Request) -> web.Response:
    return await _page(request, "hall.html", "hall", _standings)


async def rounds_page(request: web.Request) -> web.Response:
    return await _page(request, "rounds.html", "rounds")


async def games_page(request: web.Request) -> web.Response:
    return await _page(request, "games.html", "games")


async def player_page(request: web.Request) -> web.Response:
    player = str(int(request.match_info["player"]))
    view = await open_view(request)
    row = next((r for r in view.board.standings.players if r.id == player), None)
    if row is None:
        raise web.HTTPNotFound()

    def extra(view: PublicTournament, words: Words) -> dict[str, object]:
        teams = {team.id: team.name for team in view.board.standings.teams}
        return {
            "row": row,
            "team": teams.get(row.team) if row.team is not None else None,
            "games": view.games_of(player),
            "seats": view.seats_of(player),
        }

    return await _page(request, "player.html", "player", extra, (player,))


async def events(request: web.Request) -> web.StreamResponse:
    """The tournament's change stream: one "change" event each time its view changes."""
    view = await open_view(request)
    signal = request.app[CACHE].signal(view.header.id)
    seen = signal.version
    cache = request.app[CACHE]
    stream = EventSourceResponse(headers=SECURITY_HEADERS)
    # A closed or left page is the stream's usual end, not an error: its next write finds
    # the transport closing, and the stream ends there without a word in the log.
    with contextlib.suppress(ConnectionResetError):
        await stream.prepare(request)
        async with stream:
            await stream.send("ready", event="ready", retry=3000)
            while stream.is_connected() and not cache.closing:
                version = await signal.wait(seen, EVENTS_CHECK_SECONDS)
                if version != seen and not cache.closing:
                    seen = version
                    await stream.send(str(version), event="change")
    return stream


async def qr_code(request: web.Request) -> web.Response:
    view = await open_view(request)
    links = Links(view, view.header.locale, base_url(request))
    buffer = io.BytesIO()
    segno.make(links.public(), error="m").save(
        buffer, kind="svg", scale=8, border=2, xmldecl=False, svgns=True, title=view.header.title
    )
    return web.Response(body=buffer.getvalue(), content_type="image/svg+xml")


FAVICON = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16">'
    '<circle cx="8" cy="8" r="7" fill="#b3261e"/></svg>'
)


async def favicon(_request: web.Request) -> web.Response:
    return web.Response(text=FAVICON, content_type="image/svg+xml")
