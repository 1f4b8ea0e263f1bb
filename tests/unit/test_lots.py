"""The tournament's lot: each decision settles the tie it was drawn for, the seed is drawn
once, and a tie is asked about only when the stage is over (and until it is decided)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from domain.lot_draw import Lot
from domain.regulation import load_preset
from domain.standings import GameRecord, PlayerEntry, compute_standings
from domain.tie_decisions import LotDecision, Tie, decide_tie, recorded_lot, ties_to_decide
from domain.validation import Invalid
from tests.unit.protocol_builders import protocol

NOW = datetime(2026, 12, 20, 12, 0, tzinfo=UTC)
CUT = Tie("players", "cut qualifying", ("a", "b", "c"))


def test_a_decision_keeps_its_order_for_its_tie_only() -> None:
    first = decide_tie(CUT, [], [3, 1, 2], fresh_seed="f00d", tournament_id=1, judge_id=2, now=NOW)
    assert first.method == "order" and first.order == ("c", "a", "b")
    lot = recorded_lot([first])
    assert lot.settle("players", ("b", "a", "c")) == (("c", "a", "b"), "order")
    # What is left of the tie once "c" moved on keeps the judge's order.
    assert lot.settle("players", ("b", "a")) == (("a", "b"), "order")
    # Another tie, or the same ids as teams, is not his to settle: it keeps sharing its place.
    assert lot.settle("players", ("x", "y")) is None
    assert lot.settle("players", ("a", "x")) is None
    assert lot.settle("teams", ("a", "b")) is None
    assert recorded_lot([]).settle("players", ("a", "b")) is None


def test_the_seed_is_drawn_once_and_orders_each_tie_drawn_by_it() -> None:
    first = decide_tie(CUT, [], [3, 1, 2], fresh_seed="f00d", tournament_id=1, judge_id=2, now=NOW)
    places = Tie("players", "places", ("x", "y"))
    later = decide_tie(
        places, [first], None, fresh_seed="f00d", tournament_id=1, judge_id=2, now=NOW
    )
    assert later.seed == first.seed
    assert later.order == Lot(seed=first.seed).arrange("players", ("x", "y"))
    lot = recorded_lot([first, later])
    assert lot.settle("players", ("y", "x")) == (later.order, "seed")
    assert lot.settle("players", ("a", "b", "c")) == (("c", "a", "b"), "order")


def test_a_bad_order_is_refused() -> None:
    for entered in ([1, 2], [1, 1, 2], [0, 1, 2], [1, 2, 4]):
        with pytest.raises(Invalid) as refused:
            decide_tie(CUT, [], entered, fresh_seed="f00d", tournament_id=1, judge_id=2, now=NOW)
        assert refused.value.code == "lot-order-invalid"


def test_the_final_places_are_asked_about_only_when_the_stage_is_over() -> None:
    regulation = load_preset("black-raven-cup")
    players = [PlayerEntry(f"p{n}", f"P{n}") for n in range(1, 11)]
    games = [GameRecord("final", 1, 1, protocol([p.id for p in players]))]
    standings = compute_standings(regulation, players, [], games)
    assert ties_to_decide(standings, "final", stage_complete=False) == []
    ties = ties_to_decide(standings, "final", stage_complete=True)
    # Six red civilians share a place; the losing don and two mafia share another.
    assert sorted(len(tie.tied) for tie in ties) == [3, 6]
    assert {tie.context for tie in ties} == {"places"}


def test_a_decision_carries_what_the_audit_and_the_channel_show() -> None:
    decision = decide_tie(CUT, [], None, fresh_seed="f00d", tournament_id=7, judge_id=2, now=NOW)
    assert isinstance(decision, LotDecision)
    assert decision.method == "seed" and sorted(decision.order) == ["a", "b", "c"]
    assert decision.seed == "f00d"  # the first lot's seed is the one drawn for it
    assert decision.order == Lot(seed=decision.seed).arrange("players", CUT.tied)


def test_a_decided_place_is_not_asked_about_again_and_the_other_is() -> None:
    regulation = load_preset("black-raven-cup")
    players = [PlayerEntry(f"p{n}", f"P{n}") for n in range(1, 11)]
    games = [GameRecord("final", 1, 1, protocol([p.id for p in players]))]
    black = Tie("players", "places", ("p10", "p8", "p9"))
    decision = decide_tie(
        black, [], [2, 3, 1], fresh_seed="f00d", tournament_id=1, judge_id=2, now=NOW
    )
    standings = compute_standings(regulation, players, [], games, recorded_lot([decision]))
    (left,) = ties_to_decide(standings, "final", stage_complete=True)
    assert sorted(left.tied) == ["p1", "p2", "p3", "p4", "p5", "p6"]
