"""The lot (жребий): settles a tie that survives every tie-breaker, reproducibly.

A lot is either a seed (anyone can re-run the draw and get the same order) or an order the
chief judge entered after a physical draw. Either way it is recorded, and every use of it is
reported as a `LotDraw`, so the standings say who was separated by lot and how.

The standings ask a `SettlesTies` for each full tie: a `Lot` settles every tie (the command
line's `--lot-seed` and `--lot-order`), the tournament's recorded decisions
(`domain.tie_decisions.RecordedLot`) only the ties they were drawn for.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

Method = Literal["seed", "order"]


class LotError(ValueError):
    """A lot that cannot settle a tie (e.g. the judge's order leaves a tied player out)."""


class SettlesTies(Protocol):
    """Whatever orders the ties that survive every tie-breaker."""

    def settle(self, kind: str, tied: Sequence[str]) -> tuple[tuple[str, ...], Method] | None:
        """The tied ids (players or teams, by `kind`) in the lot's order and how it was
        drawn; None when this lot does not settle the tie (it keeps sharing its place)."""
        ...


@dataclass(frozen=True)
class Lot:
    """A recorded lot: exactly one of `seed` and `order` (ids, best first)."""

    seed: str | None = None
    order: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if (self.seed is None) == (not self.order):
            raise LotError("a lot is either a seed or the chief judge's order, not both or none")
        if len(set(self.order)) != len(self.order):
            raise LotError("the chief judge's order lists someone twice")

    @property
    def method(self) -> Method:
        """How the lot was drawn."""
        return "seed" if self.seed is not None else "order"

    def settle(self, kind: str, tied: Sequence[str]) -> tuple[tuple[str, ...], Method]:
        """Every tie: the tied ids in the order `arrange` gives, with this lot's method."""
        return self.arrange(kind, tied), self.method

    def arrange(self, kind: str, tied: Sequence[str]) -> tuple[str, ...]:
        """The tied ids (players or teams, by `kind`) in the order the lot gives them."""
        if self.seed is None:
            position = {entry: index for index, entry in enumerate(self.order)}
            absent = sorted(set(tied) - position.keys())
            if absent:
                raise LotError(f"the chief judge's order does not list {', '.join(absent)}")
            return tuple(sorted(tied, key=position.__getitem__))
        # One digest per id makes the seed a single permutation of all ids of a kind, so the
        # same two players come out in the same order in the standings and at every cut.
        seed = self.seed
        return tuple(sorted(tied, key=lambda entry: _digest(seed, kind, entry)))

    def record(self) -> dict[str, object]:
        """The lot as plain data, to store and to show to everyone."""
        if self.seed is not None:
            return {"seed": self.seed}
        return {"order": list(self.order)}

    @classmethod
    def from_record(cls, record: Mapping[str, object]) -> Lot:
        """The lot stored by `record()`."""
        if "seed" in record:
            return cls(seed=str(record["seed"]))
        order = record.get("order")
        if not isinstance(order, list):
            raise LotError("a lot record holds a seed or an order")
        return cls(order=tuple(str(entry) for entry in order))


def _digest(seed: str, kind: str, entry: str) -> str:
    return hashlib.sha256(f"{seed}\x1f{kind}\x1f{entry}".encode()).hexdigest()


@dataclass(frozen=True)
class LotDraw:
    """One use of the lot: where, who was tied, and the order the lot gave."""

    context: str
    tied: tuple[str, ...]
    order: tuple[str, ...]
    method: Method
