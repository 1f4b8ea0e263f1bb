"""What the judge does at the table, as the log records it: the actions, a log entry (who did
it and when), and their JSON form (the stored log, the API, the tournament file)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import MISSING, dataclass, fields
from datetime import datetime
from decimal import Decimal
from enum import StrEnum
from typing import Any, ClassVar

from domain.cards import Role, Side
from domain.game_end import GameEnd


@dataclass(frozen=True)
class Action:
    """One tap of the judge, as stored in the log."""

    kind: ClassVar[str]


@dataclass(frozen=True)
class DealRoles(Action):
    """The roles dealt, seat 1 to 10 (None: not entered); at the start or at the end."""

    kind: ClassVar[str] = "roles"
    roles: tuple[Role | None, ...]


@dataclass(frozen=True)
class Proceed(Action):
    """Go on: the introduction is over, a speech or last word ends, a check is skipped."""

    kind: ClassVar[str] = "next"


@dataclass(frozen=True)
class Nominate(Action):
    """The speaker `by` puts `target` to the vote."""

    kind: ClassVar[str] = "nominate"
    by: int
    target: int


@dataclass(frozen=True)
class Withdraw(Action):
    """The player `by` takes his nomination back (where the regulation allows it)."""

    kind: ClassVar[str] = "withdraw"
    by: int


@dataclass(frozen=True)
class Ballot:
    """One player's vote: who voted for whom (where the regulation records it, as Polemica)."""

    voter: int
    target: int


@dataclass(frozen=True)
class CastVotes(Action):
    """The votes per candidate, in the order they are voted on; with `ballots`, who voted for
    whom (the regulation's `game.record_ballots`)."""

    kind: ClassVar[str] = "votes"
    counts: tuple[int, ...]
    ballots: tuple[Ballot, ...] | None = None


@dataclass(frozen=True)
class AllOrNobody(Action):
    """How many players voted for all the tied candidates leaving."""

    kind: ClassVar[str] = "all_or_nobody"
    votes: int


@dataclass(frozen=True)
class Shoot(Action):
    """The night's shot: the seat killed, or None for a miss."""

    kind: ClassVar[str] = "shot"
    target: int | None


@dataclass(frozen=True)
class Check(Action):
    """The don's or the sheriff's check of a seat (by the phase)."""

    kind: ClassVar[str] = "check"
    seat: int


@dataclass(frozen=True)
class NameBestMove(Action):
    """The first victim's best move: the seats he names as black."""

    kind: ClassVar[str] = "best_move"
    seats: tuple[int, ...]


@dataclass(frozen=True)
class Foul(Action):
    """A foul to a seat, at any moment."""

    kind: ClassVar[str] = "foul"
    seat: int


@dataclass(frozen=True)
class TechnicalFoul(Action):
    """A technical foul to a seat, at any moment: counted on its own (the protocol's
    `technical`), it neither silences nor removes."""

    kind: ClassVar[str] = "technical_foul"
    seat: int


@dataclass(frozen=True)
class Disqualify(Action):
    """A disqualifying foul: the player leaves the game."""

    kind: ClassVar[str] = "disqualify"
    seat: int


@dataclass(frozen=True)
class Finish(Action):
    """The judge ends the game: the detected end confirmed, or otherwise with his reason (a
    special end the regulation names, e.g. a defeat awarded, 9.1, or none recorded)."""

    kind: ClassVar[str] = "finish"
    winner: Side
    end: GameEnd | None
    comment: str = ""


@dataclass(frozen=True)
class Extra(Action):
    """Extra points to a seat at the end (0 takes them back), with the judge's comment."""

    kind: ClassVar[str] = "extra"
    seat: int
    points: Decimal
    comment: str = ""


ACTIONS: Mapping[str, type[Action]] = {
    cls.kind: cls
    for cls in (
        DealRoles,
        Proceed,
        Nominate,
        Withdraw,
        CastVotes,
        AllOrNobody,
        Shoot,
        Check,
        NameBestMove,
        Foul,
        TechnicalFoul,
        Disqualify,
        Finish,
        Extra,
    )
}


@dataclass(frozen=True)
class Entry:
    """An action in the log: what the judge did, when, and who (the table's or chief judge)."""

    action: Action
    at: datetime
    by: int


def entry_to_dict(entry: Entry) -> dict[str, Any]:
    """A log entry as JSON data (the stored log, the tournament file)."""
    return {**action_to_dict(entry.action), "at": entry.at.isoformat(), "judge": entry.by}


def entry_from_dict(data: Mapping[str, Any]) -> Entry:
    """A log entry from JSON data; GameLogRefused if it is not one."""
    try:
        at = datetime.fromisoformat(data["at"])
        by = _seat(data["judge"])
    except (KeyError, TypeError, ValueError):
        raise GameLogRefused("game-log-bad-action") from None
    return Entry(action_from_dict(data), at, by)


class GameLogRefused(ValueError):
    """An action the rules do not allow now: `code` is a Fluent message id."""

    def __init__(self, code: str, **args: object) -> None:
        self.code = code
        self.args_ = args
        super().__init__(f"{code} {args}" if args else code)


def action_to_dict(action: Action) -> dict[str, Any]:
    """An action as JSON data: its kind and its fields."""
    data: dict[str, Any] = {"kind": action.kind}
    for item in fields(action):
        value = getattr(action, item.name)
        if value is None and item.default is None:
            continue  # an optional record left out (a vote's ballots)
        if isinstance(value, Decimal):
            value = str(value)
        elif isinstance(value, tuple):
            value = [_item_to_json(v) for v in value]
        elif isinstance(value, StrEnum):
            value = value.value
        data[item.name] = value
    return data


def _item_to_json(value: object) -> object:
    if isinstance(value, Ballot):
        return {"voter": value.voter, "target": value.target}
    return str(value) if isinstance(value, Role) else value


def action_from_dict(data: Mapping[str, Any]) -> Action:
    """An action from JSON data (the API's or the log's); GameLogRefused if it is not one."""
    try:
        cls = ACTIONS[data["kind"]]
        # A field with a default (a comment) may be left out.
        values = {
            item.name: data[item.name]
            if item.default is MISSING
            else data.get(item.name, item.default)
            for item in fields(cls)
        }
        return _typed(cls, values)
    except (KeyError, TypeError, ValueError, ArithmeticError):
        raise GameLogRefused("game-log-bad-action") from None


def _seat(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(value)
    return value


def _ballots(value: object) -> tuple[Ballot, ...] | None:
    if value is None:
        return None
    if not isinstance(value, list) or len(value) > 10:
        raise TypeError(value)
    return tuple(Ballot(_seat(b["voter"]), _seat(b["target"])) for b in value)


def _typed(cls: type[Action], values: dict[str, Any]) -> Action:
    if cls is DealRoles:
        roles = values["roles"]
        if not isinstance(roles, list):
            raise TypeError(roles)
        return DealRoles(tuple(None if r is None else Role(r) for r in roles))
    if cls is CastVotes:
        return CastVotes(tuple(_seat(v) for v in values["counts"]), _ballots(values["ballots"]))
    if cls is NameBestMove:
        return NameBestMove(tuple(_seat(v) for v in values["seats"]))
    if cls is Shoot:
        target = values["target"]
        return Shoot(None if target is None else _seat(target))
    if cls is Finish:
        comment = values["comment"]
        if not isinstance(comment, str):
            raise TypeError(comment)
        end = values["end"]
        return Finish(Side(values["winner"]), None if end is None else GameEnd(end), comment[:500])
    if cls is Extra:
        points = Decimal(str(values["points"]))
        if not points.is_finite():
            raise ValueError(points)
        comment = values["comment"]
        if not isinstance(comment, str):
            raise TypeError(comment)
        return Extra(_seat(values["seat"]), points, comment.strip()[:500])
    return cls(**{name: _seat(value) for name, value in values.items()})
