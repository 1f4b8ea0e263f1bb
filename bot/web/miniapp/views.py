"""The live game as the Mini App's page reads it: pydantic models of the API's answers.

Each model is built from the use case's `LiveView` in the caller's language; `model_dump`
gives the JSON body. The page (static/app.js) reads these names.
"""

from __future__ import annotations

import functools
from decimal import Decimal
from typing import Any

from pydantic import BaseModel

from bot.i18n import format_points, translator
from domain.cards import Role
from domain.game_log import Phase, entry_to_dict, timer_seconds
from domain.regulation import Regulation
from domain.rounds import TABLE_SEATS
from domain.scoring import SeatScore
from domain.services import live_games


class SeatView(BaseModel):
    seat: int
    nickname: str
    role: str | None
    fouls: int
    technical: int
    out: str | None
    silenced: bool
    extra: str


class NominationView(BaseModel):
    by: int
    target: int


class CheckView(BaseModel):
    night: int
    by: str
    seat: int
    # "sheriff"/"not-sheriff" for the don's check, "black"/"red" for the sheriff's.
    result: str | None


class EndView(BaseModel):
    end: str
    text: str


class DetectedEnd(EndView):
    winner: str | None


class ScoreView(BaseModel):
    seat: int
    nickname: str
    total: str
    won: bool
    win: str
    best_move: str
    extra: str
    penalty: str


class GameView(BaseModel):
    """Everything the page shows of a game."""

    game: int
    title: str
    version: int
    confirmed: bool
    phase: str
    phase_text: str
    day: int
    night: int
    speaker: int | None
    silent: bool
    order: list[int]
    position: int
    nominations: list[NominationView]
    candidates: list[int]
    leaving: list[int]
    no_vote: bool
    voters: int
    seats: list[SeatView]
    timer: int | None
    warning: int
    withdraw_nomination: bool
    checks: list[CheckView]
    first_killed: int | None
    best_move: list[int] | None
    detected: DetectedEnd | None
    ends: list[EndView]
    winner: str | None
    end: str | None
    extra_values: list[str]
    missing: list[str]
    ready: bool
    scores: list[ScoreView] | None
    log: list[dict[str, Any]]
    # The regulation's rules the page's own copy of the game's rules (static/rules.js) needs.
    rules: dict[str, Any]
    stale: bool
    refused: str | None
    notice: str | None
    texts: dict[str, str]


def game_view(view: live_games.LiveView, locale: str) -> GameView:
    """The game's view in the caller's language."""
    state, regulation, t = view.state, view.regulation, translator()
    detected = state.detected
    return GameView(
        game=view.game.game.id,
        title=t.get(
            locale, "miniapp-title", game=view.game.round_number, table=view.game.game.table
        ),
        version=view.version,
        confirmed=view.confirmed,
        phase=state.phase.value,
        phase_text=_phase_text(view, locale),
        day=state.day,
        night=state.night,
        speaker=state.speaker,
        silent=state.silent,
        order=list(state.order),
        position=state.position,
        nominations=[NominationView(by=n.by, target=n.target) for n in state.nominations],
        candidates=list(state.candidates),
        leaving=list(state.leaving),
        no_vote=state.no_vote,
        voters=len(state.in_play),
        seats=_seats(view),
        timer=timer_seconds(state, regulation),
        warning=regulation.game.warning_seconds,
        withdraw_nomination=regulation.game.withdraw_nomination,
        checks=[
            CheckView(
                night=c.night, by=c.by.value, seat=c.seat, result=_check_result(view, c.by, c.seat)
            )
            for c in state.checks
        ],
        first_killed=state.first_killed,
        best_move=list(state.best_move) if state.best_move is not None else None,
        detected=DetectedEnd(
            end=detected.value,
            winner=detected.winner.value if detected.winner else None,
            text=t.get(locale, f"miniapp-end-{detected.value}"),
        )
        if detected
        else None,
        ends=[
            EndView(end=end.value, text=t.get(locale, f"miniapp-end-{end.value}"))
            for end in regulation.special_ends
        ],
        winner=state.winner.value if state.winner else None,
        end=state.end.value if state.end else None,
        extra_values=_extra_values(view),
        missing=[t.get(locale, code) for code in view.missing],
        ready=view.scores is not None and view.draft.winner is not None,
        scores=[_score(view, score, locale) for score in view.scores] if view.scores else None,
        log=[entry_to_dict(entry) for entry in view.entries],
        rules=rules_of(view.regulation),
        stale=view.stale,
        refused=say(locale, view.refused.code, view.refused.args) if view.refused else None,
        notice=t.get(locale, view.notice) if view.notice else None,
        texts=_texts(locale),
    )


def _seats(view: live_games.LiveView) -> list[SeatView]:
    state = view.state
    return [
        SeatView(
            seat=seat,
            nickname=view.nicknames[seat - 1],
            role=role.value if (role := state.roles[seat - 1]) else None,
            fouls=state.fouls[seat - 1],
            technical=state.technical[seat - 1],
            out=exit_.value if (exit_ := state.exits[seat - 1]) else None,
            silenced=seat in state.silenced,
            extra=format_points(state.extra[seat - 1]),
        )
        for seat in range(1, TABLE_SEATS + 1)
    ]


def rules_of(regulation: Regulation) -> dict[str, Any]:
    """The regulation's settings the page's copy of the game's rules reads (static/rules.js)."""
    return {
        **regulation.game.model_dump(mode="json"),
        "fouls_for_removal": regulation.penalties.fouls_for_removal,
        "special_ends": [end.value for end in regulation.special_ends],
        "best_move_first_night_only": regulation.best_move.first_night_only,
        "best_move_roles": [role.value for role in regulation.best_move.eligible_roles],
    }


def _score(view: live_games.LiveView, score: SeatScore, locale: str) -> ScoreView:
    return ScoreView(
        seat=score.seat,
        nickname=view.nicknames[score.seat - 1],
        total=format_points(score.total, locale),
        won=score.won,
        win=format_points(score.win, locale),
        best_move=format_points(score.best_move, locale),
        extra=format_points(score.extra, locale),
        penalty=format_points(score.penalty, locale),
    )


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


def say(locale: str, code: str, args: dict[str, object]) -> str:
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
    for name in (
        *("seat", "day", "night", "seconds", "voters", "game", "table", "seats", "points"),
        *("count", "reason", "total", "phase", "by", "target", "fouls", "role", "expected"),
    )
}


@functools.cache
def _texts(locale: str) -> dict[str, str]:
    """The page's own words (buttons, hints), with {seat}-style holes the page fills; made
    once per language (the texts ship with the code: every request used to format them all)."""
    t = translator()
    # The page's words, and the rules' refusals its own copy of the rules gives offline.
    keys = sorted(key for key in t.keys(locale) if key.startswith(("miniapp-", "game-log-")))
    keys.append("protocol-role-count")
    texts: dict[str, str] = {}
    for key in keys:
        try:
            texts[key.removeprefix("miniapp-")] = t.get(locale, key, **_TEXT_ARGS)
        except ValueError:
            continue
    return texts
