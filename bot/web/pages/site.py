"""What every public page shares: the application's keys, the security headers, the page's
language, the links between the pages, and the tournament's view a request opens."""

from __future__ import annotations

from aiohttp import web

from bot.i18n import LOCALES
from bot.web.pages.live import PageCache
from domain.public_view import PublicTournament

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


def locale_of(request: web.Request, view: PublicTournament | None) -> str:
    asked = request.query.get("lang")
    if asked in LOCALES:
        return str(asked)
    return view.header.locale if view is not None else LOCALES[0]


class Links:
    """The addresses a page links to, each keeping the language and an unlisted token."""

    def __init__(self, view: PublicTournament, locale: str, base_url: str, here: str = "") -> None:
        self._root = f"/t/{view.header.id}"
        # The page's own path under the tournament's: its language links stay on it.
        self._here = here
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

    def live_game(self, game_id: int, path: str = "") -> str:
        """The live page of a game (or its events: `path` "/events")."""
        return self.to(f"/games/{game_id}/live{path}")

    def language(self, locale: str) -> str:
        return self._with(self._here, [f"lang={locale}", *([self._token] if self._token else [])])

    def public(self) -> str:
        """The page's full address (the QR code's), with the token of an unlisted page."""
        return self._base + self._root + (f"?{self._token}" if self._token else "")


async def open_view(request: web.Request) -> PublicTournament:
    tournament_id = int(request.match_info["tournament"])
    view = await request.app[CACHE].view(tournament_id)
    if view is None or not view.opens(request.query.get("k")):
        raise web.HTTPNotFound()
    return view


def base_url(request: web.Request) -> str:
    return request.app[BASE_URL] or f"{request.scheme}://{request.host}"
