"""The log replayed: each action applied to the game where it stands, or refused. Fouls, a
disqualification, extra points and the end come at any moment; the day's and the night's
actions only in their phase."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any, TypeAlias

from domain.cards import ROLE_COUNTS, Role, Side
from domain.game_end import GameEnd
from domain.game_log.actions import (
    Action,
    AllOrNobody,
    CastVotes,
    Check,
    DealRoles,
    Disqualify,
    Extra,
    Finish,
    Foul,
    GameLogRefused,
    NameBestMove,
    Nominate,
    Proceed,
    Shoot,
    TechnicalFoul,
    Withdraw,
)
from domain.game_log.day import (
    all_or_nobody,
    cast_votes,
    next_speaker,
    nominate,
    proceed_introduction,
    proceed_last_word,
    proceed_speech,
    to_night,
    withdraw,
)
from domain.game_log.draft import draft
from domain.game_log.end import detect_end, offer_end
from domain.game_log.night import check, name_best_move, shoot, skip_best_move, skip_check
from domain.game_log.state import (
    Exit,
    FoulRecord,
    LiveGame,
    Phase,
    alive_seat,
    refused,
    seat_in_range,
    with_seat,
)
from domain.protocol import SEATS, check_draft
from domain.regulation import Regulation


def replay(actions: Iterable[Action], regulation: Regulation) -> LiveGame:
    """The game a log makes; GameLogRefused if an action breaks the rules where it stands."""
    game = LiveGame()
    for action in actions:
        game = apply(game, action, regulation)
    return game


def apply(game: LiveGame, action: Action, regulation: Regulation) -> LiveGame:
    """The game after one more action; GameLogRefused (nothing changed) if it is not allowed."""
    if isinstance(action, DealRoles):
        return _deal(game, action.roles)
    if isinstance(action, Foul):
        return _after_removal(game, _foul(game, action.seat, regulation), regulation)
    if isinstance(action, TechnicalFoul):
        _in_game(game, action.seat)
        count = game.technical[action.seat - 1] + 1
        return replace(game, technical=with_seat(game.technical, action.seat, count))
    if isinstance(action, Disqualify):
        return _after_removal(game, _disqualify(game, action.seat), regulation)
    if isinstance(action, Extra):
        return _extra(game, action, regulation)
    if isinstance(action, Finish):
        return _finish(game, action, regulation)
    if game.phase in (Phase.END_DETECTED, Phase.FINISHED):
        raise GameLogRefused("game-log-game-over")
    handler = _PHASE_ACTIONS.get((game.phase, type(action)))
    if handler is None:
        raise GameLogRefused("game-log-not-now", phase=game.phase.value)
    return handler(game, action, regulation)


def _deal(game: LiveGame, roles: tuple[Role | None, ...]) -> LiveGame:
    if len(roles) != len(SEATS):
        raise GameLogRefused("game-log-bad-action")
    for role, expected in ROLE_COUNTS.items():
        count = roles.count(role)
        if count > expected:
            raise GameLogRefused(
                "protocol-role-count", role=role.value, count=count, expected=expected
            )
    return offer_end(replace(game, roles=roles))


def _foul(game: LiveGame, seat: int, regulation: Regulation) -> LiveGame:
    _in_game(game, seat)
    fouls = game.fouls[seat - 1] + 1
    record = FoulRecord(seat, game.day, game.phase)
    game = replace(
        game, fouls=with_seat(game.fouls, seat, fouls), foul_log=(*game.foul_log, record)
    )
    if fouls >= regulation.penalties.fouls_for_removal:
        return _remove(game, seat, Exit.FOULS)
    if regulation.game.fouls_for_silence is not None and fouls == regulation.game.fouls_for_silence:
        return replace(game, silenced=game.silenced | {seat})
    return game


def _disqualify(game: LiveGame, seat: int) -> LiveGame:
    _in_game(game, seat)
    record = FoulRecord(seat, game.day, game.phase, disqualifying=True)
    game = replace(game, foul_log=(*game.foul_log, record))
    return _remove(game, seat, Exit.DISQUALIFIED)


def _in_game(game: LiveGame, seat: int) -> None:
    """Fouls go to players at the table (the protocol knows no removal after leaving)."""
    if game.phase is Phase.FINISHED:
        raise GameLogRefused("game-log-game-over")
    alive_seat(game, seat)


def _remove(game: LiveGame, seat: int, how: Exit) -> LiveGame:
    """A removal: no last word; during the day, no vote that day (10.1)."""
    day_phases = (
        Phase.SPEECHES,
        Phase.VOTING,
        Phase.SPLIT_SPEECHES,
        Phase.REVOTE,
        Phase.ALL_OR_NOBODY,
    )
    game = replace(
        game,
        exits=with_seat(game.exits, seat, how),
        silenced=game.silenced - {seat},
        leaving=tuple(s for s in game.leaving if s != seat),
    )
    if game.phase in day_phases:
        game = replace(game, no_vote=True)
    return game


def _after_removal(game: LiveGame, changed: LiveGame, regulation: Regulation) -> LiveGame:
    """Where the game goes when a foul or a disqualification removed a player."""
    removed = [s for s in SEATS if game.alive(s) and not changed.alive(s)]
    if not removed:
        return changed
    seat = removed[0]
    if changed.phase in (Phase.END_DETECTED, Phase.FINISHED):
        return changed
    after = offer_end(changed)
    if after.detected is not None:
        return after
    phase = after.phase
    if phase in (Phase.VOTING, Phase.REVOTE, Phase.ALL_OR_NOBODY, Phase.SPLIT_SPEECHES) or (
        phase is Phase.SPEECHES and regulation.game.removal_ends_day
    ):
        return to_night(after, regulation)
    if phase is Phase.SPEECHES:
        # The day goes on without the removed player (and without a vote).
        order = after.order
        index = order.index(seat) if seat in order else None
        if index is None:
            return after
        position = after.position - (1 if index < after.position else 0)
        speaking = index == after.position
        after = replace(after, order=order[:index] + order[index + 1 :], position=position)
        if speaking:
            return next_speaker(after, regulation, started=False)
    return after


def _extra(game: LiveGame, action: Extra, regulation: Regulation) -> LiveGame:
    seat_in_range(action.seat)
    if game.phase is not Phase.FINISHED:
        raise GameLogRefused("game-log-extra-at-end")
    extra = with_seat(game.extra, action.seat, action.points)
    changed = replace(game, extra=extra)
    errors = [
        error for error in check_draft(draft(changed, None), regulation) if "extra" in error.code
    ]
    if errors:
        raise refused(errors[0])
    return changed


def _finish(game: LiveGame, action: Finish, regulation: Regulation) -> LiveGame:
    if game.phase is Phase.FINISHED:
        raise GameLogRefused("game-log-game-over")
    detected = game.detected or detect_end(game)
    confirmed = (
        detected is not None and action.end is detected and action.winner is _winner(detected)
    )
    if not confirmed and not action.comment.strip():
        # Ending otherwise than the record shows takes the judge's reason.
        raise GameLogRefused("game-log-finish-needs-comment")
    # A game ended before the first victim named anyone: he named nobody.
    best_move = game.best_move if game.best_move is not None or not game.first_killed else ()
    finished = replace(
        game,
        best_move=best_move,
        phase=Phase.FINISHED,
        winner=action.winner,
        end=action.end,
        end_comment=action.comment.strip(),
    )
    errors = [e for e in check_draft(draft(finished, None), regulation) if "end" in e.code]
    if errors:
        raise refused(errors[0])
    return finished


def _winner(end: GameEnd) -> Side | None:
    return end.winner


# Each handler takes the one action type it is registered for.
_Handler: TypeAlias = Callable[[LiveGame, Any, Regulation], LiveGame]
_PHASE_ACTIONS: Mapping[tuple[Phase, type[Action]], _Handler] = {
    (Phase.INTRODUCTION, Proceed): proceed_introduction,
    (Phase.SPEECHES, Proceed): proceed_speech,
    (Phase.SPEECHES, Nominate): nominate,
    (Phase.SPEECHES, Withdraw): withdraw,
    (Phase.SPLIT_SPEECHES, Proceed): proceed_speech,
    (Phase.VOTING, CastVotes): cast_votes,
    (Phase.REVOTE, CastVotes): cast_votes,
    (Phase.ALL_OR_NOBODY, AllOrNobody): all_or_nobody,
    (Phase.LAST_WORDS, Proceed): proceed_last_word,
    (Phase.MORNING_LAST_WORD, Proceed): proceed_last_word,
    (Phase.SHOT, Shoot): shoot,
    (Phase.DON_CHECK, Check): check,
    (Phase.DON_CHECK, Proceed): skip_check,
    (Phase.SHERIFF_CHECK, Check): check,
    (Phase.SHERIFF_CHECK, Proceed): skip_check,
    (Phase.BEST_MOVE, NameBestMove): name_best_move,
    (Phase.BEST_MOVE, Proceed): skip_best_move,
}
