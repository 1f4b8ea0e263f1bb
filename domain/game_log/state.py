"""The state of a live game that the log makes (`LiveGame`), with the records it keeps (the
nominations, checks, fouls and votes), and the speech timer of its current step."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from typing import Any

from domain.cards import Role, Side
from domain.game_end import GameEnd
from domain.game_log.actions import Ballot, GameLogRefused
from domain.protocol import SEATS, ProtocolError
from domain.regulation import Regulation


class Phase(StrEnum):
    """Where the game is: what the judge's next tap means."""

    INTRODUCTION = "introduction"
    SPEECHES = "speeches"
    VOTING = "voting"
    SPLIT_SPEECHES = "split_speeches"
    REVOTE = "revote"
    ALL_OR_NOBODY = "all_or_nobody"
    LAST_WORDS = "last_words"
    SHOT = "shot"
    DON_CHECK = "don_check"
    SHERIFF_CHECK = "sheriff_check"
    BEST_MOVE = "best_move"
    MORNING_LAST_WORD = "morning_last_word"
    # The end was detected from the record: the judge confirms it or ends the game otherwise.
    END_DETECTED = "end_detected"
    FINISHED = "finished"


class Exit(StrEnum):
    """How a player left the table."""

    VOTED = "voted"
    KILLED = "killed"
    FOULS = "fouls"
    DISQUALIFIED = "disqualified"


@dataclass(frozen=True)
class Nomination:
    """Who put whom to the vote."""

    by: int
    target: int


@dataclass(frozen=True)
class CheckRecord:
    """A night's check: by the don (looking for the sheriff) or by the sheriff."""

    night: int
    by: Role
    seat: int


@dataclass(frozen=True)
class FoulRecord:
    """A foul with the phase it was given in."""

    seat: int
    day: int
    phase: Phase
    disqualifying: bool = False


@dataclass(frozen=True)
class VoteRecord:
    """One vote of a day: the candidates and their counts (or the all-or-nobody vote)."""

    day: int
    candidates: tuple[int, ...]
    counts: tuple[int, ...]
    all_or_nobody: bool = False
    # Who voted for whom, where the regulation records it (`game.record_ballots`).
    ballots: tuple[Ballot, ...] | None = None


@dataclass(frozen=True)
class LiveGame:
    """The game as the log makes it (see `replay`)."""

    roles: tuple[Role | None, ...] = (None,) * 10
    fouls: tuple[int, ...] = (0,) * 10
    # Technical fouls, counted apart: they neither silence nor remove.
    technical: tuple[int, ...] = (0,) * 10
    exits: tuple[Exit | None, ...] = (None,) * 10
    phase: Phase = Phase.INTRODUCTION
    # Day n is followed by night n; the introduction night is night 0.
    day: int = 0
    night: int = 0
    first_speaker: int = 0
    # Today's speakers in order and who speaks now (an index into it).
    order: tuple[int, ...] = ()
    position: int = 0
    # The current speaker lost this speech to his fouls (he may still nominate).
    silent: bool = False
    silenced: frozenset[int] = frozenset()
    nominations: tuple[Nomination, ...] = ()
    no_vote: bool = False
    # The candidates of the current vote (all nominees, then the tied ones).
    candidates: tuple[int, ...] = ()
    # Who leaves after the vote or the night and gives a last word now.
    leaving: tuple[int, ...] = ()
    shot: int | None = None
    misses_in_row: int = 0
    four_players_quiet_nights: int = 0
    first_killed: int | None = None
    first_killed_night: int | None = None
    best_move: tuple[int, ...] | None = None
    checks: tuple[CheckRecord, ...] = ()
    foul_log: tuple[FoulRecord, ...] = ()
    votes: tuple[VoteRecord, ...] = ()
    detected: GameEnd | None = None
    winner: Side | None = None
    end: GameEnd | None = None
    end_comment: str = ""
    extra: tuple[Decimal, ...] = (Decimal(0),) * 10

    def alive(self, seat: int) -> bool:
        """Whether the seat is still in the game."""
        return self.exits[seat - 1] is None

    @property
    def in_play(self) -> tuple[int, ...]:
        """The seats still in the game."""
        return tuple(seat for seat in SEATS if self.alive(seat))

    @property
    def speaker(self) -> int | None:
        """Who speaks now (a day's or a split speech, or a last word)."""
        if self.phase in (Phase.SPEECHES, Phase.SPLIT_SPEECHES) and self.position < len(self.order):
            return self.order[self.position]
        if self.phase in (Phase.LAST_WORDS, Phase.MORNING_LAST_WORD) and self.leaving:
            return self.leaving[0]
        return None

    @property
    def nominees(self) -> tuple[int, ...]:
        """Today's candidates in the order they were nominated."""
        return tuple(n.target for n in self.nominations)

    @property
    def roles_dealt(self) -> bool:
        """Whether every seat's role is entered."""
        return all(role is not None for role in self.roles)


def timer_seconds(game: LiveGame, regulation: Regulation) -> int | None:
    """The current step's time on the speech timer (None: untimed, 0: the speech is lost)."""
    flow = regulation.game
    if game.phase is Phase.INTRODUCTION:
        return flow.introduction_seconds
    if game.phase is Phase.SPEECHES:
        return 0 if game.silent else flow.speech_seconds
    if game.phase is Phase.SPLIT_SPEECHES:
        return flow.split_speech_seconds
    if game.phase is Phase.LAST_WORDS:
        return flow.split_last_word_seconds if len(game.leaving) > 1 else flow.last_word_seconds
    if game.phase is Phase.MORNING_LAST_WORD:
        return flow.last_word_seconds
    if game.phase in (Phase.DON_CHECK, Phase.SHERIFF_CHECK):
        return flow.check_seconds
    return None


def seat_in_range(seat: int) -> None:
    if seat not in SEATS:
        raise GameLogRefused("game-log-bad-seat", seat=seat)


def alive_seat(game: LiveGame, seat: int) -> None:
    seat_in_range(seat)
    if not game.alive(seat):
        raise GameLogRefused("game-log-seat-out", seat=seat)


def refused(error: ProtocolError) -> GameLogRefused:
    args = dict(error.args)
    if error.seat is not None:
        args["seat"] = error.seat
    return GameLogRefused(error.code, **args)


def with_seat(values: tuple[Any, ...], seat: int, value: Any) -> tuple[Any, ...]:
    return (*values[: seat - 1], value, *values[seat:])
