"""The tournament's lot: a judge's order keeps his tie, the seed orders the rest, and a
tie is asked about only when the stage is over."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from domain.lot import Lot
from domain.lots import LotDecision, Tie, decide_tie, recorded_lot, ties_to_decide
from domain.regulation import load_preset
from domain.standings import GameRecord, PlayerEntry, compute_standings
from domain.validation import Invalid
from tests.unit.protocol_builders import protocol

NOW = datetime(2026, 12, 20, 12, 0, tzinfo=UTC)
CUT = Tie("players", "cut qualifying", ("a", "b", "c"))


def test_the_judges_order_is_kept_and_other_ties_follow_the_seed() -> None:
    first = decide_tie(CUT, [], [3, 1, 2], tournament_id=1, judge_id=2, now=NOW)
    assert first.method == "order" and first.order == ("c", "a", "b")
    lot = recorded_lot([first])
    assert lot is not None
    assert lot.arrange("players", ("b", "a")) == ("a", "b")
    assert lot.arrange("players", ("x", "y")) == Lot(seed=first.seed).arrange("players", ("x", "y"))
    # The seed is drawn once: a later seed decision reuses it, so earlier ties keep their order.
    later = decide_tie(
        Tie("players", "places", ("x", "y")), [first], None, tournament_id=1, judge_id=2, now=NOW
    )
    assert later.seed == first.seed
    assert later.order == Lot(seed=first.seed).arrange("players", ("x", "y"))


def test_no_decision_no_lot_and_a_bad_order_is_refused() -> None:
    assert recorded_lot([]) is None
    for entered in ([1, 2], [1, 1, 2], [0, 1, 2], [1, 2, 4]):
        with pytest.raises(Invalid) as refused:
            decide_tie(CUT, [], entered, tournament_id=1, judge_id=2, now=NOW)
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
    decision = decide_tie(CUT, [], None, tournament_id=7, judge_id=2, now=NOW)
    assert isinstance(decision, LotDecision)
    assert decision.method == "seed" and sorted(decision.order) == ["a", "b", "c"]
    assert decision.order == Lot(seed=decision.seed).arrange("players", CUT.tied)
