"""A tournament's lot: the chief judge's decisions on ties, each settling its own tie.

A tie that survives every tie-breaker shares its place until the chief judge decides it: the
bot draws the tournament's seed (recorded and shown to everyone, so anyone can re-run the
draw), or he enters the order of a physical draw. A decision settles the tie it was drawn for
and nothing else: a tie no decision covers keeps sharing its place until he decides it too.
The seed is drawn once, with the first decision, so every draw by seed can be re-run from the
one seed the channel was shown.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from domain.lot_draw import Lot, Method
from domain.standings import Standings
from domain.validation import Invalid

Unit = Literal["players", "teams"]


@dataclass(frozen=True)
class Tie:
    """Entries tied through the whole tie-breaker chain where a lot must separate them.

    `context` is `"cut <stage>"` for a cut line and `"places"` for the final standings.
    """

    unit: Unit
    context: str
    tied: tuple[str, ...]


@dataclass(frozen=True)
class LotDecision:
    """The chief judge's decision on one tie: the order it gives, and how it was drawn."""

    tournament_id: int
    tie: Tie
    method: Method
    # The tournament's seed, drawn with its first decision; it orders this tie when the method
    # is "seed".
    seed: str
    order: tuple[str, ...]
    decided_by: int
    decided_at: datetime
    id: int = 0

    def covers(self, unit: str, tied: Sequence[str]) -> bool:
        """Whether this decision settles a tie of `tied`: the tie it was drawn for, or what
        is left of it once some of its entries moved on (to the next stage, say)."""
        return unit == self.tie.unit and len(tied) > 1 and set(tied) <= set(self.tie.tied)


@dataclass(frozen=True)
class RecordedLot:
    """The tournament's lot: its decisions, each settling only the tie it was drawn for."""

    decisions: tuple[LotDecision, ...] = ()

    def settle(self, kind: str, tied: Sequence[str]) -> tuple[tuple[str, ...], Method] | None:
        """The tied ids in the order of the latest decision covering them, with its method;
        None when no decision covers this tie."""
        for decision in reversed(self.decisions):
            if decision.covers(kind, tied):
                position = {entry: index for index, entry in enumerate(decision.order)}
                return tuple(sorted(tied, key=position.__getitem__)), decision.method
        return None


def recorded_lot(decisions: Sequence[LotDecision]) -> RecordedLot:
    """The lot the tournament's standings use (with no decision yet, every tie is shared)."""
    return RecordedLot(tuple(decisions))


def ties_to_decide(standings: Standings, stage: str | None, stage_complete: bool) -> list[Tie]:
    """The ties only a lot settles that no decision has settled yet, from the standings with
    the tournament's recorded lot.

    The cut line of `stage` once all its games are confirmed, and in the last stage (no cut)
    every place still shared at its end. Nothing while the stage is still being played: more
    games may break the tie.
    """
    if stage is None or not stage_complete:
        return []
    cut = next((cut for cut in standings.cuts if cut.stage == stage), None)
    if cut is not None:
        return [Tie(cut.unit, f"cut {stage}", cut.tied_at_line)] if cut.needs_lot else []
    ties: list[Tie] = []
    for unit, rows in (("players", standings.players), ("teams", standings.teams)):
        shared: dict[int, list[str]] = {}
        for row in rows:
            if row.tied and row.stage == stage:
                shared.setdefault(row.place, []).append(row.id)
        ties.extend(Tie(unit, "places", tuple(ids)) for ids in shared.values())  # type: ignore[arg-type]
    return ties


def decide_tie(
    tie: Tie,
    earlier: Sequence[LotDecision],
    entered: Sequence[int] | None,
    *,
    fresh_seed: str,
    tournament_id: int,
    judge_id: int,
    now: datetime,
) -> LotDecision:
    """The decision on `tie`: by the tournament's seed (`fresh_seed`, drawn by the caller,
    becomes it if this is the first decision) when `entered` is None, else by the judge's
    order of the tied entries, given as their numbers in `tie.tied` from 1 (`Invalid` unless
    each number appears exactly once)."""
    seed = earlier[0].seed if earlier else fresh_seed
    if entered is None:
        order = Lot(seed=seed).arrange(tie.unit, tie.tied)
        return LotDecision(tournament_id, tie, "seed", seed, order, judge_id, now)
    if sorted(entered) != list(range(1, len(tie.tied) + 1)):
        raise Invalid("lot-order-invalid", count=len(tie.tied))
    order = tuple(tie.tied[number - 1] for number in entered)
    return LotDecision(tournament_id, tie, "order", seed, order, judge_id, now)


def tie_key(tie: Tie) -> str:
    """A short name of a tie that stays the same however its entries are listed."""
    named = "\x1f".join((tie.unit, tie.context, *sorted(tie.tied)))
    return hashlib.sha256(named.encode()).hexdigest()[:16]
