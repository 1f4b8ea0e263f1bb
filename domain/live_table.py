"""What the live game's pages show: the table as the judge's log makes it, for spectators
(roles secret until the game ends) or for a stream (roles shown, optionally delayed).

`live_table` replays the log as of a moment (`now` minus the stream's delay: the entries
recorded by then, by their timestamps) and keeps only what the viewer may see. While the game
runs, the public view never holds a role, nor anything that tells one: no check (its target
and result name the don and the sheriff, and a skipped check tells one is out), and the night
stays "night" until the morning (the shot, the checks and which of them were skipped show at
once in the morning, as the judge announces it at the table). Once the game ends the roles,
checks and the winner are shown to everyone.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from functools import cached_property

from domain.cards import Role, Side
from domain.game_end import GameEnd
from domain.game_log import (
    Action,
    Entry,
    Exit,
    GameLogRefused,
    LiveGame,
    Nomination,
    Phase,
    Shoot,
    VoteRecord,
    apply,
    timer_seconds,
)
from domain.regulation import Regulation


class Stage(StrEnum):
    """Where the game is, as a spectator may know it (fewer words than the judge's phases)."""

    NOT_STARTED = "not_started"
    INTRODUCTION = "introduction"
    SPEECHES = "speeches"
    VOTING = "voting"
    SPLIT_SPEECHES = "split_speeches"
    LAST_WORDS = "last_words"
    NIGHT = "night"
    BEST_MOVE = "best_move"
    MORNING = "morning"
    ENDING = "ending"
    FINISHED = "finished"
    # A step this page does not name yet (shown on a stream only: see `_PUBLIC`).
    PLAYING = "playing"


_STAGES = {
    Phase.INTRODUCTION: Stage.INTRODUCTION,
    Phase.SPEECHES: Stage.SPEECHES,
    Phase.VOTING: Stage.VOTING,
    Phase.REVOTE: Stage.VOTING,
    Phase.ALL_OR_NOBODY: Stage.VOTING,
    Phase.SPLIT_SPEECHES: Stage.SPLIT_SPEECHES,
    Phase.LAST_WORDS: Stage.LAST_WORDS,
    Phase.SHOT: Stage.NIGHT,
    Phase.DON_CHECK: Stage.NIGHT,
    Phase.SHERIFF_CHECK: Stage.NIGHT,
    Phase.BEST_MOVE: Stage.BEST_MOVE,
    Phase.MORNING_LAST_WORD: Stage.MORNING,
    Phase.END_DETECTED: Stage.ENDING,
    Phase.FINISHED: Stage.FINISHED,
}
# What spectators may see the game in: everything but the night's checks, which only the don
# or the sheriff see (and any step added later, until it is known to be open to all).
_PUBLIC = frozenset(_STAGES) - {Phase.DON_CHECK, Phase.SHERIFF_CHECK}


@dataclass(frozen=True)
class LiveSeat:
    """One seat: the player, his role (None while secret), fouls, how he left, what he does."""

    seat: int
    nickname: str
    role: Role | None
    fouls: int
    exit: Exit | None
    speaking: bool
    candidate: bool


@dataclass(frozen=True)
class NightResult:
    """A night's shot: the seat killed, or None for a miss."""

    night: int
    shot: int | None


@dataclass(frozen=True)
class LiveCheck:
    """A check with its result: the don found the sheriff, the sheriff found a black player
    (None: the roles are not entered)."""

    night: int
    by: Role
    seat: int
    found: bool | None


@dataclass(frozen=True)
class Timer:
    """The current step's time: `seconds` allotted, started at `started_at`."""

    seconds: int
    started_at: datetime

    def left(self, moment: datetime) -> int:
        """Whole seconds left at `moment` (never below zero)."""
        spent = (moment - self.started_at).total_seconds()
        return max(0, int(self.seconds - max(0.0, spent) + 0.999))


@dataclass(frozen=True)
class LiveTable:
    """The live game as a viewer sees it (see `live_table`)."""

    stage: Stage
    day: int
    night: int
    seats: tuple[LiveSeat, ...]
    nominations: tuple[Nomination, ...]
    votes: tuple[VoteRecord, ...]
    nights: tuple[NightResult, ...]
    checks: tuple[LiveCheck, ...]
    speaker: int | None
    timer: Timer | None
    first_killed: int | None
    best_move: tuple[int, ...] | None
    winner: Side | None
    end: GameEnd | None
    roles_shown: bool

    @cached_property
    def digest(self) -> str:
        """A short fingerprint: equal tables have equal ones (a stream sends only changes)."""
        return hashlib.sha256(repr(self).encode()).hexdigest()[:16]

    @property
    def in_play(self) -> int:
        """How many players are still at the table."""
        return sum(1 for seat in self.seats if seat.exit is None)


def as_of(entries: Sequence[Entry], moment: datetime) -> tuple[Entry, ...]:
    """The log as it stood at `moment`: the entries recorded by then."""
    return tuple(entry for entry in entries if entry.at <= moment)


def next_change(entries: Sequence[Entry], moment: datetime) -> datetime | None:
    """When the first entry recorded after `moment` was recorded (None: there is none): a
    delayed stream shows it `delay` later."""
    later = [entry.at for entry in entries if entry.at > moment]
    return min(later) if later else None


def live_table(
    entries: Sequence[Entry],
    regulation: Regulation,
    nicknames: Sequence[str],
    *,
    now: datetime,
    delay: timedelta = timedelta(0),
    reveal: bool = False,
    ended: bool = False,
) -> LiveTable:
    """The table as the log stands (with a `delay`: as it stood `delay` before `now`, the
    entries recorded by then). `reveal`: the roles and checks are shown (a stream's view);
    otherwise only once the game is over (the log says so, or `ended`: its protocol is
    confirmed)."""
    # Without a delay every stored action shows, whatever moment it carries (a phone's clock
    # may run ahead of the server's).
    shown_entries = as_of(entries, now - delay) if delay else tuple(entries)
    states, started, actions = _replay(shown_entries, regulation)
    shown = reveal or ended or states[-1].phase is Phase.FINISHED
    index = len(states) - 1
    if not shown:
        # The night's secret steps: the table stays at nightfall until the morning.
        while index > 0 and states[index].phase not in _PUBLIC:
            index -= 1
    game = states[index]
    stage = Stage.NOT_STARTED if index == 0 else _STAGES.get(game.phase, Stage.PLAYING)
    return LiveTable(
        stage=stage,
        day=game.day,
        night=game.night,
        seats=_seats(game, nicknames, shown),
        nominations=game.nominations if stage is not Stage.NOT_STARTED else (),
        votes=tuple(vote for vote in game.votes if vote.day == game.day),
        nights=_nights(states, actions[:index]),
        checks=_checks(game) if shown else (),
        speaker=game.speaker,
        timer=_timer(game, regulation, started[index]) if index else None,
        first_killed=game.first_killed,
        best_move=game.best_move,
        winner=game.winner if shown else None,
        end=game.end if shown else None,
        roles_shown=shown,
    )


def _replay(
    entries: Sequence[Entry], regulation: Regulation
) -> tuple[list[LiveGame], list[datetime | None], list[Action]]:
    """The game after each entry (the first: before any), when each state's step began, and
    the actions applied."""
    states = [LiveGame()]
    started: list[datetime | None] = [None]
    actions: list[Action] = []
    for entry in entries:
        try:
            game = apply(states[-1], entry.action, regulation)
        except GameLogRefused:
            # A log the rules no longer take (a regulation changed): shown as far as it goes.
            break
        same_step = _step(game) == _step(states[-1])
        started.append(started[-1] if same_step and started[-1] else entry.at)
        states.append(game)
        actions.append(entry.action)
    return states, started, actions


def _step(game: LiveGame) -> tuple[object, ...]:
    speaker = game.speaker
    return (game.phase, game.day, game.night, game.position, speaker)


def _seats(game: LiveGame, nicknames: Sequence[str], shown: bool) -> tuple[LiveSeat, ...]:
    speaker = game.speaker
    return tuple(
        LiveSeat(
            seat=seat,
            nickname=nicknames[seat - 1] if seat <= len(nicknames) else str(seat),
            role=game.roles[seat - 1] if shown else None,
            fouls=game.fouls[seat - 1],
            exit=game.exits[seat - 1],
            speaking=seat == speaker,
            candidate=seat in game.candidates,
        )
        for seat in range(1, 11)
    )


def _nights(states: Sequence[LiveGame], actions: Sequence[Action]) -> tuple[NightResult, ...]:
    """Each night's shot or miss, in the order of the nights."""
    results = [
        NightResult(states[index].night, action.target)
        for index, action in enumerate(actions)
        if isinstance(action, Shoot)
    ]
    return tuple(results)


def _checks(game: LiveGame) -> tuple[LiveCheck, ...]:
    return tuple(
        LiveCheck(check.night, check.by, check.seat, _found(game, check.by, check.seat))
        for check in game.checks
    )


def _found(game: LiveGame, by: Role, seat: int) -> bool | None:
    role = game.roles[seat - 1]
    if role is None:
        return None
    return role is Role.SHERIFF if by is Role.DON else role.side is Side.BLACK


def _timer(game: LiveGame, regulation: Regulation, started: datetime | None) -> Timer | None:
    seconds = timer_seconds(game, regulation)
    if seconds is None or started is None:
        return None
    return Timer(seconds, started)


# A stream shows the game a minute late by default: the players at the table cannot learn
# the roles from it during the game.
DEFAULT_DELAY_SECONDS = 60
# The delays the organizer picks from, in seconds.
DELAY_CHOICES = (0, 30, 60, 120, 300)
MAX_DELAY_SECONDS = 3600


@dataclass(frozen=True)
class StreamLink:
    """A game's stream view: its link's token, its delay, whether it is revoked."""

    game_id: int
    token: str
    delay_seconds: int = DEFAULT_DELAY_SECONDS
    revoked: bool = False

    def opens(self, token: str) -> bool:
        """Whether a link carrying `token` opens the stream view."""
        return not self.revoked and hmac.compare_digest(token.encode(), self.token.encode())

    @property
    def delay(self) -> timedelta:
        """How late the stream shows the game."""
        return timedelta(seconds=self.delay_seconds)


__all__ = [
    "DEFAULT_DELAY_SECONDS",
    "DELAY_CHOICES",
    "MAX_DELAY_SECONDS",
    "LiveCheck",
    "LiveSeat",
    "LiveTable",
    "NightResult",
    "Stage",
    "StreamLink",
    "Timer",
    "as_of",
    "live_table",
    "next_change",
]
