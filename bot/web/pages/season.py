"""The season's public web pages, beside the tournaments' (bot/web/pages):

    /series/{id}    a series: its calendar (upcoming with registration links, running,
                    finished) and its players' and clubs' rating tables
    /players/{id}   a player's profile: rating, tournaments, roles, the rating's history as an
                    SVG chart drawn here (no JavaScript needed)
    /clubs/{slug}   a club: its rating, other spellings and players

Every page takes `lang` (ru, en; a series' own language, else Russian). The privacy rules are
the tournament pages': no Telegram id is read, a hidden profile shows only its nickname (in
tables and on its page). Unknown or malformed ids answer with the 404 page (the pages'
middleware). The reads are `domain.services.season`'s use cases, the text
`bot.rendering.season_web`'s.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import aiohttp_jinja2
from aiogram import Bot
from aiohttp import web
from markupsafe import Markup

from bot.i18n import LOCALES
from bot.rendering.season_web import SeasonLinks, SeasonWords, player_chart
from domain.season.views import SeriesEvent
from domain.services.access import NotFound

if TYPE_CHECKING:
    from domain.services.catalog import Services

SERVICES = web.AppKey("season_services", object)
BOT = web.AppKey("season_bot", object)
# A club's address: its canonical name URL-quoted (season-core's slug), bounded.
CLUB_SLUG = r"{club:[^/]{1,200}}"


def install(web_app: web.Application, services: Services, bot: Bot | None) -> None:
    """Add the season's pages to the web application (after `bot.web.pages.install`, whose
    templates, headers and 404 page they share); `bot` names the registration links."""
    web_app[SERVICES] = services
    web_app[BOT] = bot
    web_app.router.add_get(r"/series/{series:[0-9]{1,9}}", series_page)
    web_app.router.add_get(r"/players/{person:[0-9]{1,9}}", player_page)
    web_app.router.add_get("/clubs/" + CLUB_SLUG, club_page)


def _services(request: web.Request) -> Services:
    return request.app[SERVICES]  # type: ignore[return-value]


def _locale(request: web.Request, default: str | None = None) -> str:
    asked = request.query.get("lang")
    if asked in LOCALES:
        return str(asked)
    return default if default is not None and default in LOCALES else LOCALES[0]


def _render(
    request: web.Request, template: str, locale: str, path: str, context: dict[str, object]
) -> web.Response:
    words = SeasonWords(locale)
    body = aiohttp_jinja2.render_string(
        template,
        request,
        {
            "t": words,
            "locale": locale,
            "locales": LOCALES,
            "links": SeasonLinks(locale, path),
            **context,
        },
    )
    return web.Response(text=body, content_type="text/html")


async def series_page(request: web.Request) -> web.Response:
    series_id = int(request.match_info["series"])
    try:
        view = await _services(request).series.series_view(series_id)
    except NotFound:
        raise web.HTTPNotFound() from None
    locale = _locale(request, view.locale)
    context = {"view": view, "registration": await _registration_links(request, view.upcoming)}
    return _render(request, "season_series.html", locale, f"/series/{series_id}", context)


async def _registration_links(
    request: web.Request, upcoming: tuple[SeriesEvent, ...]
) -> Callable[[SeriesEvent], str | None]:
    """The t.me registration link of each upcoming tournament whose registration is open."""
    bot = request.app[BOT]
    opened = [event.tournament_id for event in upcoming if event.registration_open]
    links: dict[int, str] = {}
    if opened and isinstance(bot, Bot):
        username = (await bot.me()).username
        payloads = await _services(request).season_screens.registration_payloads(opened)
        links = {tid: f"https://t.me/{username}?start={p}" for tid, p in payloads.items()}
    return lambda event: links.get(event.tournament_id)


async def player_page(request: web.Request) -> web.Response:
    person_id = int(request.match_info["person"])
    try:
        shown = await _services(request).profiles.profile(person_id)
    except NotFound:
        raise web.HTTPNotFound() from None
    locale = _locale(request)
    chart = player_chart(shown, SeasonWords(locale))
    context: dict[str, object] = {
        "person": shown,
        "chart": Markup(chart) if chart is not None else None,
    }
    return _render(request, "season_player.html", locale, f"/players/{person_id}", context)


async def club_page(request: web.Request) -> web.Response:
    club = request.match_info["club"].strip()
    if not club:
        raise web.HTTPNotFound()
    try:
        shown = await _services(request).clubs.club_profile(club)
    except NotFound:
        raise web.HTTPNotFound() from None
    locale = _locale(request)
    path = SeasonLinks(locale, "").club(shown.club).split("?")[0]
    return _render(request, "season_club.html", locale, path, {"club": shown})
