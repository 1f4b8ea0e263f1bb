"""A planned game played live makes the protocol the judge would enter for it inline."""

from __future__ import annotations

import pytest

from domain.game_log import replay, to_draft
from domain.protocol import Removal
from domain.regulation import load_preset
from harness.simulation.games import game_random, plan_game
from harness.simulation.live_game import live_actions, playable

PLAYERS = tuple(f"p{seat}" for seat in range(1, 11))


@pytest.mark.parametrize("preset", ["black-raven-cup", "siberia-ural-teams"])
def test_every_playable_plan_plays_live_to_its_own_protocol(preset: str) -> None:
    regulation = load_preset(preset)
    played = 0
    for table in range(300):
        plan = plan_game(game_random(7, "qualifying", 1, table), regulation)
        if not playable(plan):
            continue
        game = replay(live_actions(plan, regulation), regulation)
        protocol = to_draft(game, PLAYERS).complete(regulation)
        assert protocol.winner is plan.winner
        assert protocol.first_killed == plan.first_kill
        if plan.first_kill is not None:
            assert protocol.first_killed_night == plan.night
        assert protocol.best_move == (plan.best_move or ())
        step = regulation.extra_points.step
        extras = dict(plan.extra_steps)
        fouls = dict(plan.fouls)
        for seat, record in enumerate(protocol.seats, start=1):
            assert record.role is plan.role(seat)
            assert record.fouls == fouls.get(seat, 0)
            assert record.extra == extras.get(seat, 0) * step
            if seat in plan.disqualified:
                assert record.removed is Removal.DISQUALIFIED
        played += 1
    assert played > 250
