"""The tournaments' public web pages, served by the bot's own aiohttp application.

    /t/{id}            standings: stages, cut lines, players' and teams' tables
    /t/{id}/rounds     the published rounds' seatings
    /t/{id}/games      the confirmed games, each player's parts
    /t/{id}/p/{player} one player: his seats, games, roles and points by part
    /t/{id}/hall       the hall screen: large type, scrolling standings, the page's QR code
    /t/{id}/events     Server-Sent Events: "change" whenever the tournament's view changes
    /t/{id}/qr.svg     the QR code of the tournament's page

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
from bot.web.pages.live import PageCache, Reader
from domain.public_view import PublicTournament
from domain.services.public import public_tournament

if TYPE_CHECKING:
    from bot.config import Settings
    from domain.services.ports import Clock, UnitOfWorkFactory

HERE = Path(__file__).parent
CACHE = web.AppKey("page_cache", PageCache)
BASE_URL = web.AppKey("web_base_url", str)
# How long an events stream waits before checking its client is still there.
EVENTS_CHECK_SECONDS = 15.0
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
        "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    # An unlisted page's token is in its address: it never leaves in a Referer.
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}


def install(
    web_app: web.Application,
    uow_factory: UnitOfWorkFactory,
    clock: Clock,
    settings: Settings,
    add_change_listener: Callable[[Callable[[frozenset[int]], None]], None],
    reader: Reader | None = None,
) -> PageCache:
    """Add the public pages to the bot's web application; their cache hears of every
    committed change through `add_change_listener`. `reader` replaces the database read (the
    benchmark serves a tournament built in memory)."""

    async def read(tournament_id: int) -> PublicTournament | None:
        return await public_tournament(uow_factory, tournament_id, clock.now())

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
    locale = _locale(request, None)
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


def _locale(request: web.Request, view: PublicTournament | None) -> str:
    asked = request.query.get("lang")
    if asked in LOCALES:
        return str(asked)
    return view.header.locale if view is not None else LOCALES[0]


class Links:
    """The addresses a page links to, each keeping the language and an unlisted token."""

    def __init__(self, view: PublicTournament, locale: str, base_url: str) -> None:
        self._root = f"/t/{view.header.id}"
        self._query = [f"lang={locale}"]
        if view.token_query:
            self._query.append(view.token_query)
        self._token = view.token_query
        self._base = base_url.rstrip("/")
        self.locale = locale
        season = view.season
        self._persons = season.persons if season is not None else {}
        self._series = season.series_id if season is not None else None

    def _with(self, path: str, query: list[str]) -> str:
        return f"{self._root}{path}?{'&'.join(query)}"

    def to(self, path: str = "") -> str:
        return self._with(path, self._query)

    def player(self, player: str) -> str:
        return self.to(f"/p/{player}")

    def profile(self, player: str) -> str | None:
        """The player's profile across tournaments (the season's page), when the tournament
        is in a series or rated; None otherwise."""
        person = self._persons.get(player)
        return f"/players/{person}?lang={self.locale}" if person is not None else None

    def named(self, player: str) -> str:
        """Where a player's name in the standings leads: his profile, else his page here."""
        return self.profile(player) or self.player(player)

    def series(self) -> str | None:
        """The tournament's series' page, if it is in one."""
        if self._series is None:
            return None
        return f"/series/{self._series}?lang={self.locale}"

    def language(self, locale: str) -> str:
        return self._with("", [f"lang={locale}", *([self._token] if self._token else [])])

    def public(self) -> str:
        """The page's full address (the QR code's), with the token of an unlisted page."""
        return self._base + self._root + (f"?{self._token}" if self._token else "")


async def _view(request: web.Request) -> PublicTournament:
    tournament_id = int(request.match_info["tournament"])
    view = await request.app[CACHE].view(tournament_id)
    if view is None or not view.opens(request.query.get("k")):
        raise web.HTTPNotFound()
    return view


def _base_url(request: web.Request) -> str:
    return request.app[BASE_URL] or f"{request.scheme}://{request.host}"


async def _page(
    request: web.Request,
    template: str,
    kind: str,
    extra: Callable[[PublicTournament, Words], dict[str, object]] | None = None,
    key: tuple[str, ...] = (),
) -> web.Response:
    view = await _view(request)
    locale = _locale(request, view)
    base = _base_url(request)

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
    view = await _view(request)
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
    view = await _view(request)
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
    view = await _view(request)
    links = Links(view, view.header.locale, _base_url(request))
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
