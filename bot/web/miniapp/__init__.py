"""The judge's live game: a Telegram Mini App on the bot's web application.

`/app/game/{id}` is the page (HTML, script and style, no data: the page reads the launch data
Telegram puts in its address and calls the API with it). `/app/api/games/{id}` is the API:
GET the game, POST `/actions` (one action on the version the device saw, with the moment
it was tapped), `/undo` and
`/confirm`. Every API request is authenticated by Telegram's `initData` (`auth.caller`); the
people who may use it are those of the protocol (the table's judge or a chief judge).

Telegram opens Mini Apps over HTTPS only: `WEB_BASE_URL` is the public HTTPS address of this
web application (behind a TLS proxy); tests and the simulation use plain HTTP.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from aiohttp import web

from bot.config import Settings
from bot.i18n import normalize_locale
from bot.web.miniapp.auth import Caller, caller
from bot.web.miniapp.views import game_view, say
from domain.actor import Actor
from domain.game_log import Action, GameLogRefused, action_from_dict
from domain.permissions import Forbidden
from domain.services import live_games
from domain.services.access import NotFound
from domain.services.catalog import Services
from domain.services.ports import Clock
from domain.services.protocols import NotYourTable
from domain.validation import ROW_ID_MAX, Invalid, whole_number

STATIC = Path(__file__).parent / "static"
PAGE = "/app/game/{game_id}"


def page_path(game_id: int) -> str:
    """The Mini App's page of a game, relative to the web application's base address."""
    return PAGE.format(game_id=game_id)


def live_game_url(settings: Settings, game_id: int) -> str | None:
    """The address a "Run the game" button opens, or None where there is none to offer: no
    WEB_BASE_URL, or a plain-HTTP one while talking to the real Telegram (which opens Mini
    Apps over HTTPS only; a local Bot API server, such as the fake one, takes HTTP)."""
    base = settings.web_base_url
    if base is None or (base.startswith("http://") and settings.telegram_api_base is None):
        return None
    return base.rstrip("/") + page_path(game_id)


class _Deps:
    def __init__(
        self,
        token: str,
        services: Services,
        clock: Clock,
        admin_ids: Collection[int],
    ) -> None:
        self.token = token
        self.services = services
        self.clock = clock
        self.admin_ids = admin_ids


DEPS = web.AppKey("miniapp", _Deps)


def install(
    web_app: web.Application,
    token: str,
    services: Services,
    clock: Clock,
    admin_ids: Collection[int],
) -> None:
    """Add the Mini App's page and API to the bot's web application; the bot's admins
    (`ADMIN_IDS`) have the rights they have in the chat."""
    web_app[DEPS] = _Deps(token, services, clock, admin_ids)
    web_app.router.add_get(PAGE, _page)
    web_app.router.add_static("/app/static", STATIC, append_version=True)
    web_app.router.add_get("/app/sw.js", _service_worker)
    web_app.router.add_get("/app/api/games/{game_id}", _get)
    web_app.router.add_post("/app/api/games/{game_id}/actions", _act)
    web_app.router.add_post("/app/api/games/{game_id}/undo", _undo)
    web_app.router.add_post("/app/api/games/{game_id}/confirm", _confirm)


async def _page(_request: web.Request) -> web.Response:
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    return web.Response(
        text=html,
        content_type="text/html",
        headers={
            "Cache-Control": "no-store",
            "Content-Security-Policy": "default-src 'self'; img-src 'self' data:",
        },
    )


async def _service_worker(_request: web.Request) -> web.Response:
    """The service worker that opens the page without a connection (static/sw.js); served
    from /app/ so that its scope covers the game's pages."""
    return web.Response(
        text=(STATIC / "sw.js").read_text(encoding="utf-8"),
        content_type="text/javascript",
        headers={"Cache-Control": "no-cache"},
    )


_Use = Callable[[_Deps, int, Actor, dict[str, Any]], Awaitable[live_games.LiveView]]


async def _handle(request: web.Request, use: _Use) -> web.Response:
    deps = request.app[DEPS]
    now = deps.clock.now()
    who = caller(request, deps.token, now)
    locale = await _locale(deps, who)
    try:
        # Ids beyond the database's range (or in other digits) are refused before it.
        game_id = whole_number(request.match_info["game_id"], 1, ROW_ID_MAX)
        body: dict[str, Any] = {}
        if request.method == "POST":
            body = await request.json()
            if not isinstance(body, dict):
                raise ValueError(body)
    except (ValueError, TypeError):
        return _error(400, "game-log-bad-action", locale)
    try:
        # The judge acts at the moment his request came (the injected clock's), with the
        # rights the chat's updates give him (`handlers.middlewares.KnownUserMiddleware`).
        view = await use(deps, game_id, Actor.of(who.user_id, now, deps.admin_ids), body)
    except REFUSALS as refusal:
        return _refused(refusal, locale)
    status = 409 if view.stale else 422 if view.refused else 200
    return web.json_response(game_view(view, locale).model_dump(mode="json"), status=status)


# What a use case or a rule raises to refuse a request, with the status the page gets; the
# chat answers the same refusals in `handlers.errors`.
REFUSALS = (NotYourTable, Forbidden, NotFound, Invalid, GameLogRefused)


def _refused(refusal: Exception, locale: str) -> web.Response:
    """A refusal as the page reads it: an HTTP error with its reason in the caller's words."""
    if isinstance(refusal, NotYourTable):
        return _error(403, "miniapp-not-yours", locale)
    if isinstance(refusal, Forbidden):
        return _error(403, "refused-forbidden", locale)
    if isinstance(refusal, (Invalid, GameLogRefused)):
        return _error(400, refusal.code, locale, refusal.args_)
    return _error(404, "refused-not-found", locale)


async def _locale(deps: _Deps, who: Caller) -> str:
    chosen = await deps.services.live_games.judge_locale(who.user_id)
    return chosen if chosen is not None else normalize_locale(who.language_code)


def _error(
    status: int, code: str, locale: str, args: dict[str, object] | None = None
) -> web.Response:
    return web.json_response(
        {"error": code, "message": say(locale, code, args or {})}, status=status
    )


def _version(body: dict[str, Any]) -> int:
    version = body.get("version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise GameLogRefused("game-log-bad-action")
    return version


def _tapped_at(body: dict[str, Any]) -> datetime | None:
    """When the judge tapped, as his phone says (ISO 8601 with its offset); None: now."""
    value = body.get("at")
    if value is None:
        return None
    try:
        moment = datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        moment = None
    if moment is None or moment.tzinfo is None:
        raise GameLogRefused("game-log-bad-action")
    return moment.astimezone(UTC)


async def _get(request: web.Request) -> web.Response:
    async def use(deps: _Deps, game_id: int, actor: Actor, _body: dict[str, Any]):
        return await deps.services.live_games.open_live(actor, game_id)

    return await _handle(request, use)


async def _act(request: web.Request) -> web.Response:
    async def use(deps: _Deps, game_id: int, actor: Actor, body: dict[str, Any]):
        data = body.get("action")
        action: Action = action_from_dict(data if isinstance(data, dict) else {})
        return await deps.services.live_games.record(
            actor, game_id, action, _version(body), _tapped_at(body)
        )

    return await _handle(request, use)


async def _undo(request: web.Request) -> web.Response:
    async def use(deps: _Deps, game_id: int, actor: Actor, body: dict[str, Any]):
        return await deps.services.live_games.undo(actor, game_id, _version(body))

    return await _handle(request, use)


async def _confirm(request: web.Request) -> web.Response:
    async def use(deps: _Deps, game_id: int, actor: Actor, _body: dict[str, Any]):
        return await deps.services.live_games.confirm(actor, game_id)

    return await _handle(request, use)


__all__ = ["install", "live_game_url", "page_path"]
