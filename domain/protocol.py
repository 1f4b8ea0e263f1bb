"""A game's protocol, as the table judge keeps it, and its validation against the regulation.

The same rules check a finished `Protocol` (`validate_protocol`) and a `ProtocolDraft` the judge
is still filling in with buttons (`check_draft` refuses an impossible press at once,
`missing_items` says what is left). Every failure is a `ProtocolError` whose `code` is a Fluent
message id in `bot/locales/*/rules.ftl`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from decimal import Decimal
from enum import StrEnum

from domain.cards import ROLE_COUNTS, Role, Side
from domain.game_end import GameEnd
from domain.player_keys import PlayerKey
from domain.regulation import Regulation

SEATS = range(1, 11)
# The first victim names at most three players he believes are black.
BEST_MOVE_NAMES = 3


class Removal(StrEnum):
    """Why a player left the table before the end: the 4th foul or a disqualifying foul."""

    FOULS = "fouls"
    DISQUALIFIED = "disqualified"


@dataclass(frozen=True)
class SeatRecord:
    """One seat of a finished protocol."""

    player: PlayerKey
    role: Role
    fouls: int = 0
    removed: Removal | None = None
    extra: Decimal = Decimal(0)
    # Technical fouls, counted apart from the fouls (the live game records them).
    technical: int = 0


@dataclass(frozen=True)
class Protocol:
    """A finished game: seats 1 to 10 in order, the winner, the first kill and its best move."""

    seats: tuple[SeatRecord, ...]
    winner: Side
    first_killed: int | None = None
    first_killed_night: int = 1
    best_move: tuple[int, ...] = ()
    # The end of the game: when the judge entered the winner (None in imported protocols).
    ended_at: datetime | None = None
    # How the game ended (None: protocols kept before the bot recorded it).
    end: GameEnd | None = None

    def seat(self, number: int) -> SeatRecord:
        """The record of seat `number` (1 to 10)."""
        return self.seats[number - 1]

    @property
    def first_night_victim(self) -> int | None:
        """The seat killed on night 1, if the mafia did not miss that night."""
        return self.first_killed if self.first_killed_night == 1 else None


_ENGLISH: Mapping[str, str] = {
    "protocol-seat-count": "a table has 10 seats, this protocol has {count}",
    "protocol-player-missing": "no player",
    "protocol-player-repeated": "player {player} also sits at seat {other_seat}",
    "protocol-role-count": "{count} × {role}, the table has exactly {expected}",
    "protocol-fouls-range": "{fouls} fouls, allowed 0 to {max}",
    "protocol-removal-needs-fouls": "removed for fouls with {fouls} fouls, removal takes {max}",
    "protocol-fouls-need-removal": "{max} fouls remove the player for fouls",
    "protocol-first-killed-seat": "the first victim's seat {first_killed} is not 1 to 10",
    "protocol-first-killed-night": "the first kill on night {night}: nights start at 1",
    "protocol-first-killed-removed": "the player was removed ({removal}): a removed player "
    "cannot be shot",
    "protocol-best-move-without-victim": "a best move, but nobody was killed",
    "protocol-best-move-not-victim": "only the first victim makes the best move",
    "protocol-best-move-not-first-night": "the first kill was on night {night}, "
    "only a first-night victim makes the best move",
    "protocol-best-move-role": "a {role} may not make the best move",
    "protocol-best-move-size": "the best move names {count} seats, at most {max}",
    "protocol-best-move-seat": "the best move names seat {named}, not 1 to 10",
    "protocol-best-move-self": "the best move names the victim's own seat",
    "protocol-best-move-repeated": "the best move names seat {named} twice",
    "protocol-extra-negative": "extra points {extra} below zero",
    "protocol-extra-below-min": "extra points {extra}, at least {min} to anyone who gets them",
    "protocol-extra-above-max": "extra points {extra}, at most {max} per player",
    "protocol-extra-step": "extra points {extra} are not in steps of {step}",
    "protocol-extra-first-killed": "the first victim gets no extra points",
    "protocol-extra-total": "extra points {total} in the game, at most {max}",
    "protocol-extra-recipients": "extra points to {count} players, at most {max}",
    "protocol-end-not-allowed": "the regulation has no game end {end}",
    "protocol-end-winner": "a game ended by {end} is won by {expected}, not {winner}",
    "protocol-end-time-before-end": "the game has not ended yet: enter the winner first",
    "protocol-end-time-future": "the end of the game cannot be later than now",
    "protocol-end-time-early": "the game cannot have ended before its round was published"
    " ({earliest})",
}


@dataclass(frozen=True)
class ProtocolError:
    """One broken rule: a Fluent message `code`, the seat it concerns (or None) and its args."""

    code: str
    seat: int | None = None
    args: Mapping[str, object] = field(default_factory=dict, hash=False)

    def __str__(self) -> str:
        text = _ENGLISH[self.code].format(**self.args)
        return text if self.seat is None else f"seat {self.seat}: {text}"


@dataclass(frozen=True)
class SeatDraft:
    """A seat as the judge fills it in: player and role may still be unknown."""

    player: PlayerKey | None = None
    role: Role | None = None
    fouls: int = 0
    removed: Removal | None = None
    extra: Decimal = Decimal(0)
    technical: int = 0


@dataclass(frozen=True)
class FirstKill:
    """The judge's entry for the first kill: the seat (None: nobody was killed) and the night."""

    seat: int | None
    night: int = 1


def _empty_seats() -> tuple[SeatDraft, ...]:
    return tuple(SeatDraft() for _ in SEATS)


@dataclass(frozen=True)
class ProtocolDraft:
    """A protocol being filled in; None means "not entered yet"."""

    seats: tuple[SeatDraft, ...] = field(default_factory=_empty_seats)
    winner: Side | None = None
    first_kill: FirstKill | None = None
    # The seat the judge credits with the best move; it must be the first victim.
    best_move_by: int | None = None
    best_move: tuple[int, ...] | None = None
    # When the winner was first entered: the end of the game, where a protest window may start.
    ended_at: datetime | None = None
    # How the game ended (the protocol screen enters it with the winner).
    end: GameEnd | None = None

    @classmethod
    def from_protocol(cls, protocol: Protocol) -> ProtocolDraft:
        """A finished protocol as a draft, e.g. to correct it after a protest."""
        seats = tuple(
            SeatDraft(seat.player, seat.role, seat.fouls, seat.removed, seat.extra, seat.technical)
            for seat in protocol.seats
        )
        return cls(
            seats=seats,
            winner=protocol.winner,
            first_kill=FirstKill(protocol.first_killed, protocol.first_killed_night),
            best_move_by=protocol.first_killed if protocol.best_move else None,
            best_move=protocol.best_move,
            ended_at=protocol.ended_at,
            end=protocol.end,
        )

    def with_seat(self, number: int, **changes: object) -> ProtocolDraft:
        """The draft with seat `number` changed (a button press)."""
        seats = list(self.seats)
        seats[number - 1] = replace(seats[number - 1], **changes)  # type: ignore[arg-type]
        return replace(self, seats=tuple(seats))

    def complete(self, regulation: Regulation) -> Protocol:
        """The finished protocol; raises `ProtocolNotReady` if anything is missing or wrong."""
        missing = missing_items(self, regulation)
        if missing:
            raise ProtocolNotReady(missing, [])
        assert self.winner is not None and self.first_kill is not None
        protocol = Protocol(
            seats=tuple(_finished_seat(seat) for seat in self.seats),
            winner=self.winner,
            first_killed=self.first_kill.seat,
            first_killed_night=self.first_kill.night,
            best_move=self.best_move or (),
            ended_at=self.ended_at,
            end=self.end,
        )
        errors = validate_protocol(protocol, regulation)
        if errors:
            raise ProtocolNotReady([], errors)
        return protocol


def _finished_seat(seat: SeatDraft) -> SeatRecord:
    assert seat.player is not None and seat.role is not None
    return SeatRecord(seat.player, seat.role, seat.fouls, seat.removed, seat.extra, seat.technical)


class ProtocolNotReady(ValueError):
    """A draft that cannot become a protocol yet: what is `missing` and what is wrong."""

    def __init__(self, missing: list[str], errors: list[ProtocolError]) -> None:
        self.missing = missing
        self.errors = errors
        super().__init__("; ".join([*missing, *map(str, errors)]))


def validate_protocol(protocol: Protocol, regulation: Regulation) -> list[ProtocolError]:
    """Every rule a finished protocol breaks (empty when it may be scored)."""
    errors: list[ProtocolError] = []
    if len(protocol.seats) != len(SEATS):
        errors.append(ProtocolError("protocol-seat-count", None, {"count": len(protocol.seats)}))
    draft = ProtocolDraft.from_protocol(protocol)
    errors.extend(_check(draft, regulation, finished=True))
    return errors


def check_draft(draft: ProtocolDraft, regulation: Regulation) -> list[ProtocolError]:
    """What is already impossible in a draft (a second don, a best move from the wrong seat...).

    Something merely not entered yet is no error here: see `missing_items`.
    """
    return list(_check(draft, regulation, finished=False))


def missing_items(draft: ProtocolDraft, regulation: Regulation) -> list[str]:
    """Message ids of what the judge still has to enter before the protocol is complete."""
    missing: list[str] = []
    if any(seat.player is None for seat in draft.seats):
        missing.append("protocol-missing-players")
    if any(seat.role is None for seat in draft.seats):
        missing.append("protocol-missing-roles")
    if draft.winner is None:
        missing.append("protocol-missing-winner")
    if draft.first_kill is None:
        missing.append("protocol-missing-first-killed")
    elif draft.best_move is None and may_make_best_move(draft, regulation):
        missing.append("protocol-missing-best-move")
    return missing


def _check(
    draft: ProtocolDraft, regulation: Regulation, *, finished: bool
) -> Iterator[ProtocolError]:
    yield from _player_errors(draft)
    yield from _role_errors(draft, finished=finished)
    yield from _foul_errors(draft, regulation, finished=finished)
    yield from _first_kill_errors(draft)
    yield from _best_move_errors(draft, regulation)
    yield from _extra_errors(draft, regulation)
    yield from _end_errors(draft, regulation)


def _end_errors(draft: ProtocolDraft, regulation: Regulation) -> Iterator[ProtocolError]:
    end = draft.end
    if end is None:
        return
    if end.special and end not in regulation.special_ends:
        yield ProtocolError("protocol-end-not-allowed", None, {"end": end.value})
    expected = end.winner
    if expected is not None and draft.winner is not None and draft.winner is not expected:
        args = {"end": end.value, "expected": expected.value, "winner": draft.winner.value}
        yield ProtocolError("protocol-end-winner", None, args)


def end_time_errors(
    draft: ProtocolDraft, now: datetime, earliest: datetime | None = None
) -> list[ProtocolError]:
    """What is wrong with the recorded end of the game at the moment `now`: it is not in the
    past, or it is before `earliest` (when the round's seating was published: the game
    cannot have ended before it was seated)."""
    if draft.ended_at is None:
        return []
    if draft.ended_at > now:
        return [ProtocolError("protocol-end-time-future")]
    if earliest is not None and draft.ended_at < earliest:
        return [ProtocolError("protocol-end-time-early", None, {"earliest": earliest})]
    return []


def _player_errors(draft: ProtocolDraft) -> Iterator[ProtocolError]:
    first_seat: dict[str, int] = {}
    for number, seat in enumerate(draft.seats, start=1):
        if seat.player is None:
            continue
        if not seat.player.strip():
            yield ProtocolError("protocol-player-missing", number)
        elif seat.player in first_seat:
            args = {"player": seat.player, "other_seat": first_seat[seat.player]}
            yield ProtocolError("protocol-player-repeated", number, args)
        else:
            first_seat[seat.player] = number


def _role_errors(draft: ProtocolDraft, *, finished: bool) -> Iterator[ProtocolError]:
    counts = Counter(seat.role for seat in draft.seats if seat.role is not None)
    for role, expected in ROLE_COUNTS.items():
        count = counts[role]
        if count > expected or (finished and count != expected):
            args = {"role": role.value, "count": count, "expected": expected}
            yield ProtocolError("protocol-role-count", None, args)


def _foul_errors(
    draft: ProtocolDraft, regulation: Regulation, *, finished: bool
) -> Iterator[ProtocolError]:
    limit = regulation.penalties.fouls_for_removal
    for number, seat in enumerate(draft.seats, start=1):
        if not 0 <= seat.fouls <= limit:
            yield ProtocolError("protocol-fouls-range", number, {"fouls": seat.fouls, "max": limit})
        elif seat.removed is Removal.FOULS and seat.fouls != limit:
            args = {"fouls": seat.fouls, "max": limit}
            yield ProtocolError("protocol-removal-needs-fouls", number, args)
        # While the judge is still pressing buttons the removal may simply not be entered yet.
        elif (
            seat.fouls == limit
            and seat.removed is not Removal.FOULS
            and (finished or seat.removed is not None)
        ):
            yield ProtocolError("protocol-fouls-need-removal", number, {"max": limit})


def _first_kill_errors(draft: ProtocolDraft) -> Iterator[ProtocolError]:
    kill = draft.first_kill
    if kill is None:
        return
    if kill.seat is not None and kill.seat not in SEATS:
        yield ProtocolError("protocol-first-killed-seat", None, {"first_killed": kill.seat})
    if kill.night < 1:
        yield ProtocolError("protocol-first-killed-night", None, {"night": kill.night})
    if kill.seat is not None and kill.seat in SEATS and kill.seat <= len(draft.seats):
        removed = draft.seats[kill.seat - 1].removed
        # A player removed (4th foul, disqualification) has left the table: nobody shoots him.
        if removed is not None:
            args = {"removal": removed.value}
            yield ProtocolError("protocol-first-killed-removed", kill.seat, args)


def _victim_role(draft: ProtocolDraft) -> Role | None:
    kill = draft.first_kill
    if kill is None or kill.seat is None or kill.seat not in range(1, len(draft.seats) + 1):
        return None
    return draft.seats[kill.seat - 1].role


def may_make_best_move(draft: ProtocolDraft, regulation: Regulation) -> bool:
    """Whether the first victim of this draft earns the right to name three players."""
    kill = draft.first_kill
    if kill is None or kill.seat is None:
        return False
    if regulation.best_move.first_night_only and kill.night != 1:
        return False
    role = _victim_role(draft)
    return role is None or role in regulation.best_move.eligible_roles


def _best_move_errors(draft: ProtocolDraft, regulation: Regulation) -> Iterator[ProtocolError]:
    kill = draft.first_kill
    if draft.best_move_by is not None and kill is not None and kill.seat != draft.best_move_by:
        yield ProtocolError("protocol-best-move-not-victim", draft.best_move_by)
    if not draft.best_move:
        return
    victim = kill.seat if kill is not None else draft.best_move_by
    if kill is not None and kill.seat is None:
        yield ProtocolError("protocol-best-move-without-victim")
    elif kill is not None and regulation.best_move.first_night_only and kill.night != 1:
        yield ProtocolError("protocol-best-move-not-first-night", victim, {"night": kill.night})
    role = _victim_role(draft)
    if role is not None and role not in regulation.best_move.eligible_roles:
        yield ProtocolError("protocol-best-move-role", victim, {"role": role.value})
    yield from _named_seat_errors(draft.best_move, victim)


def _named_seat_errors(named: tuple[int, ...], victim: int | None) -> Iterator[ProtocolError]:
    if len(named) > BEST_MOVE_NAMES:
        args = {"count": len(named), "max": BEST_MOVE_NAMES}
        yield ProtocolError("protocol-best-move-size", victim, args)
    seen: set[int] = set()
    for seat in named:
        if seat not in SEATS:
            yield ProtocolError("protocol-best-move-seat", victim, {"named": seat})
        elif seat == victim:
            yield ProtocolError("protocol-best-move-self", victim)
        elif seat in seen:
            yield ProtocolError("protocol-best-move-repeated", victim, {"named": seat})
        seen.add(seat)


def _extra_errors(draft: ProtocolDraft, regulation: Regulation) -> Iterator[ProtocolError]:
    limits = regulation.extra_points
    victim = draft.first_kill.seat if draft.first_kill is not None else None
    recipients = 0
    total = Decimal(0)
    for number, seat in enumerate(draft.seats, start=1):
        extra = seat.extra
        if extra == 0:
            continue
        recipients += 1
        total += extra
        if extra < 0:
            yield ProtocolError("protocol-extra-negative", number, {"extra": extra})
        elif extra < limits.per_player_min:
            yield ProtocolError(
                "protocol-extra-below-min", number, {"extra": extra, "min": limits.per_player_min}
            )
        elif extra > limits.per_player_max:
            yield ProtocolError(
                "protocol-extra-above-max", number, {"extra": extra, "max": limits.per_player_max}
            )
        elif extra % limits.step:
            args = {"extra": extra, "step": limits.step}
            yield ProtocolError("protocol-extra-step", number, args)
        if number == victim and not limits.first_killed_may_receive:
            yield ProtocolError("protocol-extra-first-killed", number)
    if total > limits.total_max:
        yield ProtocolError("protocol-extra-total", None, {"total": total, "max": limits.total_max})
    if recipients > limits.max_recipients:
        counts = {"count": recipients, "max": limits.max_recipients}
        yield ProtocolError("protocol-extra-recipients", None, counts)
