"""The judge's live game: a Telegram Mini App on the bot's web application.

`/app/game/{id}` is the page (HTML, script and style, no data: the page reads the launch data
Telegram puts in its address and calls the API with it). `/app/api/games/{id}` is the API:
GET the game, POST `/actions` (one action on the version the device saw), `/undo` and
`/confirm`. Every API request is authenticated by Telegram's `initData` (`auth.caller`); the
people who may use it are those of the protocol (the table's judge or a chief judge).

Telegram opens Mini Apps over HTTPS only: `WEB_BASE_URL` is the public HTTPS address of this
web application (behind a TLS proxy); tests and the simulation use plain HTTP.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

from aiohttp import web

from bot.config import Settings
from bot.i18n import format_points, normalize_locale, translator
from bot.web.miniapp.auth import Caller, caller
from domain.actor import Actor
from domain.cards import Role
from domain.game_log import (
    Action,
    GameLogRefused,
    Phase,
    action_from_dict,
    entry_to_dict,
    timer_seconds,
)
from domain.services import live_games
from domain.services.access import NotFound
from domain.services.ports import Clock, UnitOfWorkFactory
from domain.services.protocols import NotYourTable
from domain.validation import ROW_ID_MAX, whole_number

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
        uow_factory: UnitOfWorkFactory,
        clock: Clock,
    ) -> None:
        self.token = token
        self.uow_factory = uow_factory
        self.clock = clock


DEPS = web.AppKey("miniapp", _Deps)


def install(
    web_app: web.Application,
    token: str,
    uow_factory: UnitOfWorkFactory,
    clock: Clock,
) -> None:
    """Add the Mini App's page and API to the bot's web application."""
    web_app[DEPS] = _Deps(token, uow_factory, clock)
    web_app.router.add_get(PAGE, _page)
    web_app.router.add_static("/app/static", STATIC, append_version=True)
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
        # The judge acts at the moment his request came (the injected clock's).
        view = await use(deps, game_id, Actor(who.user_id, now), body)
    except NotYourTable:
        return _error(403, "miniapp-not-yours", locale)
    except NotFound:
        return _error(404, "refused-not-found", locale)
    except GameLogRefused as refusal:
        return _error(400, refusal.code, locale, refusal.args_)
    status = 409 if view.stale else 422 if view.refused else 200
    return web.json_response(view_json(view, locale), status=status)


async def _locale(deps: _Deps, who: Caller) -> str:
    async with deps.uow_factory() as uow:
        user = await uow.users.get(who.user_id)
    return user.locale if user is not None else normalize_locale(who.language_code)


def _error(
    status: int, code: str, locale: str, args: dict[str, object] | None = None
) -> web.Response:
    return web.json_response(
        {"error": code, "message": _say(locale, code, args or {})}, status=status
    )


def _version(body: dict[str, Any]) -> int:
    version = body.get("version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise GameLogRefused("game-log-bad-action")
    return version


async def _get(request: web.Request) -> web.Response:
    async def use(deps: _Deps, game_id: int, actor: Actor, _body: dict[str, Any]):
        return await live_games.open_live(deps.uow_factory, actor, game_id)

    return await _handle(request, use)


async def _act(request: web.Request) -> web.Response:
    async def use(deps: _Deps, game_id: int, actor: Actor, body: dict[str, Any]):
        data = body.get("action")
        action: Action = action_from_dict(data if isinstance(data, dict) else {})
        return await live_games.record(deps.uow_factory, actor, game_id, action, _version(body))

    return await _handle(request, use)


async def _undo(request: web.Request) -> web.Response:
    async def use(deps: _Deps, game_id: int, actor: Actor, body: dict[str, Any]):
        return await live_games.undo(deps.uow_factory, actor, game_id, _version(body))

    return await _handle(request, use)


async def _confirm(request: web.Request) -> web.Response:
    async def use(deps: _Deps, game_id: int, actor: Actor, _body: dict[str, Any]):
        return await live_games.confirm(deps.uow_factory, actor, game_id)

    return await _handle(request, use)


# --- the game as the page reads it ---------------------------------------------------------


def _points(value: Decimal, locale: str) -> str:
    return format_points(value, locale)


def _check_result(view: live_games.LiveView, by: Role, seat: int) -> str | None:
    role = view.state.roles[seat - 1]
    if role is None:
        return None
    if by is Role.DON:
        return "sheriff" if role is Role.SHERIFF else "not-sheriff"
    return "black" if role.side.value == "black" else "red"


def _extra_values(view: live_games.LiveView) -> list[str]:
    limits = view.regulation.extra_points
    values, value = ["0"], limits.per_player_min
    while value <= limits.per_player_max:
        values.append(format_points(value))
        value += limits.step
    return values


def _phase_text(view: live_games.LiveView, locale: str) -> str:
    state = view.state
    key = (
        "miniapp-phase-silent"
        if state.phase is Phase.SPEECHES and state.silent
        else (f"miniapp-phase-{state.phase.value}")
    )
    seat = state.speaker or (state.leaving[0] if state.leaving else "")
    return translator().get(locale, key, day=state.day, night=state.night, seat=seat)


def view_json(view: live_games.LiveView, locale: str) -> dict[str, Any]:
    """Everything the page shows, in the caller's language."""
    state = view.state
    t = translator()
    regulation = view.regulation
    seats = []
    for seat in range(1, 11):
        index = seat - 1
        exit_, role = state.exits[index], state.roles[index]
        seats.append(
            {
                "seat": seat,
                "nickname": view.nicknames[index],
                "role": role.value if role else None,
                "fouls": state.fouls[index],
                "out": exit_.value if exit_ else None,
                "silenced": seat in state.silenced,
                "extra": format_points(state.extra[index]),
            }
        )
    scores = view.scores
    draft = view.draft
    refused = None
    if view.refused is not None:
        refused = _say(locale, view.refused.code, view.refused.args)
    return {
        "game": view.game.game.id,
        "title": t.get(
            locale, "miniapp-title", game=view.game.round_number, table=view.game.game.table
        ),
        "version": view.version,
        "confirmed": view.confirmed,
        "phase": state.phase.value,
        "phase_text": _phase_text(view, locale),
        "day": state.day,
        "night": state.night,
        "speaker": state.speaker,
        "silent": state.silent,
        "order": list(state.order),
        "position": state.position,
        "nominations": [{"by": n.by, "target": n.target} for n in state.nominations],
        "candidates": list(state.candidates),
        "leaving": list(state.leaving),
        "no_vote": state.no_vote,
        "voters": len(state.in_play),
        "seats": seats,
        "timer": timer_seconds(state, regulation),
        "warning": regulation.game.warning_seconds,
        "withdraw_nomination": regulation.game.withdraw_nomination,
        "checks": [
            {
                "night": check.night,
                "by": check.by.value,
                "seat": check.seat,
                "result": _check_result(view, check.by, check.seat),
            }
            for check in state.checks
        ],
        "first_killed": state.first_killed,
        "best_move": list(state.best_move) if state.best_move is not None else None,
        "detected": (
            {
                "end": state.detected.value,
                "winner": state.detected.winner.value if state.detected.winner else None,
                "text": t.get(locale, f"miniapp-end-{state.detected.value}"),
            }
            if state.detected
            else None
        ),
        "ends": [
            {"end": end.value, "text": t.get(locale, f"miniapp-end-{end.value}")}
            for end in regulation.special_ends
        ],
        "winner": state.winner.value if state.winner else None,
        "end": state.end.value if state.end else None,
        "extra_values": _extra_values(view),
        "missing": [t.get(locale, code) for code in view.missing],
        "ready": scores is not None and draft.winner is not None,
        "scores": (
            [
                {
                    "seat": score.seat,
                    "nickname": view.nicknames[score.seat - 1],
                    "total": _points(score.total, locale),
                    "won": score.won,
                    "win": _points(score.win, locale),
                    "best_move": _points(score.best_move, locale),
                    "extra": _points(score.extra, locale),
                    "penalty": _points(score.penalty, locale),
                }
                for score in scores
            ]
            if scores
            else None
        ),
        "log": [entry_to_dict(entry) for entry in view.entries],
        "stale": view.stale,
        "refused": refused,
        "notice": t.get(locale, view.notice) if view.notice else None,
        "texts": _texts(locale),
    }


def _say(locale: str, code: str, args: dict[str, object]) -> str:
    """A refusal's text; a rules message naming a seat gets an empty one when none is given."""
    shown = {
        name: format_points(value, locale) if isinstance(value, Decimal) else value
        for name, value in args.items()
    }
    try:
        return translator().get(locale, code, **shown)
    except ValueError:
        return translator().get(locale, code, **{"seat": "", **shown})


_TEXT_ARGS = {
    name: f"{{{name}}}"
    for name in ("seat", "day", "night", "seconds", "voters", "game", "table", "seats", "points")
}


@functools.cache
def _texts(locale: str) -> dict[str, str]:
    """The page's own words (buttons, hints), with {seat}-style holes the page fills; made
    once per language (the texts ship with the code: every request used to format them all)."""
    t = translator()
    keys = sorted(key for key in t.keys(locale) if key.startswith("miniapp-"))
    texts: dict[str, str] = {}
    for key in keys:
        try:
            texts[key.removeprefix("miniapp-")] = t.get(locale, key, **_TEXT_ARGS)
        except ValueError:
            continue
    return texts


__all__ = ["install", "live_game_url", "page_path", "view_json"]
