"""The night: the shot or a miss, the don's and the sheriff's checks, the first victim's best
move and his last word; then the morning."""

from __future__ import annotations

from dataclasses import replace

from domain.cards import Role
from domain.game_end import GameEnd
from domain.game_log.actions import Action, Check, GameLogRefused, NameBestMove, Shoot
from domain.game_log.day import start_day
from domain.game_log.draft import draft
from domain.game_log.end import offer_end
from domain.game_log.state import (
    CheckRecord,
    Exit,
    LiveGame,
    Phase,
    alive_seat,
    refused,
    seat_in_range,
    with_seat,
)
from domain.protocol import check_draft
from domain.regulation import Regulation


def shoot(game: LiveGame, action: Action, regulation: Regulation) -> LiveGame:
    assert isinstance(action, Shoot)
    nights = regulation.game.special_end_nights
    if action.target is None:
        quiet = game.four_players_quiet_nights + 1 if len(game.in_play) == 4 else 0
        game = replace(
            game, shot=None, misses_in_row=game.misses_in_row + 1, four_players_quiet_nights=quiet
        )
    else:
        alive_seat(game, action.target)
        game = replace(
            game,
            shot=action.target,
            misses_in_row=0,
            four_players_quiet_nights=0,
            exits=with_seat(game.exits, action.target, Exit.KILLED),
        )
        if game.first_killed is None:
            game = replace(game, first_killed=action.target, first_killed_night=game.night)
    ends = regulation.special_ends
    if GameEnd.MISSED_NIGHTS in ends and game.misses_in_row >= nights:
        return replace(game, phase=Phase.END_DETECTED, detected=GameEnd.MISSED_NIGHTS)
    if GameEnd.FOUR_PLAYERS_THREE_NIGHTS in ends and game.four_players_quiet_nights >= nights:
        return replace(game, phase=Phase.END_DETECTED, detected=GameEnd.FOUR_PLAYERS_THREE_NIGHTS)
    return _to_check(game, Phase.DON_CHECK, regulation)


def _role_in_play(game: LiveGame, role: Role) -> bool:
    """Whether the role may still check: unknown roles are offered, a known one if alive
    (the victim of this night still checks: the checks come before the morning)."""
    if not game.roles_dealt:
        return True
    seat = game.roles.index(role) + 1
    return game.alive(seat) or seat == game.shot


def _to_check(game: LiveGame, phase: Phase, regulation: Regulation) -> LiveGame:
    if phase is Phase.DON_CHECK and not _role_in_play(game, Role.DON):
        phase = Phase.SHERIFF_CHECK
    if phase is Phase.SHERIFF_CHECK and not _role_in_play(game, Role.SHERIFF):
        return _morning(game, regulation)
    return replace(game, phase=phase)


def check(game: LiveGame, action: Action, regulation: Regulation) -> LiveGame:
    assert isinstance(action, Check)
    seat_in_range(action.seat)
    by = Role.DON if game.phase is Phase.DON_CHECK else Role.SHERIFF
    if game.checks and any(c.night == game.night and c.by is by for c in game.checks):
        raise GameLogRefused("game-log-checked-already")
    game = replace(game, checks=(*game.checks, CheckRecord(game.night, by, action.seat)))
    return _after_check(game, regulation)


def skip_check(game: LiveGame, _action: Action, regulation: Regulation) -> LiveGame:
    return _after_check(game, regulation)


def _after_check(game: LiveGame, regulation: Regulation) -> LiveGame:
    if game.phase is Phase.DON_CHECK:
        return _to_check(game, Phase.SHERIFF_CHECK, regulation)
    return _morning(game, regulation)


def _morning(game: LiveGame, regulation: Regulation) -> LiveGame:
    """The night's victim leaves. The first victim, if he may make one, names his best move
    first (it counts even when his death ends the game); then the end may come, or his last
    word and the day."""
    victim = game.shot
    if victim is not None and victim == game.first_killed and _may_make_best_move(game, regulation):
        return replace(game, phase=Phase.BEST_MOVE, leaving=(victim,))
    return _last_word_or_day(game, regulation)


def _last_word_or_day(game: LiveGame, regulation: Regulation) -> LiveGame:
    game = offer_end(game)
    if game.detected is not None:
        return game
    if game.shot is None:
        return start_day(game, regulation)
    return replace(game, phase=Phase.MORNING_LAST_WORD, leaving=(game.shot,))


def _may_make_best_move(game: LiveGame, regulation: Regulation) -> bool:
    if regulation.best_move.first_night_only and game.first_killed_night != 1:
        return False
    assert game.first_killed is not None
    role = game.roles[game.first_killed - 1]
    return role is None or role in regulation.best_move.eligible_roles


def name_best_move(game: LiveGame, action: Action, regulation: Regulation) -> LiveGame:
    assert isinstance(action, NameBestMove)
    changed = replace(game, best_move=action.seats)
    errors = [
        error
        for error in check_draft(draft(changed, None), regulation)
        if error.code.startswith("protocol-best-move")
    ]
    if errors:
        raise refused(errors[0])
    return _last_word_or_day(changed, regulation)


def skip_best_move(game: LiveGame, _action: Action, regulation: Regulation) -> LiveGame:
    return _last_word_or_day(replace(game, best_move=()), regulation)
