"""A stage that closes with its cut line inside a tie does not stop the simulation: the chief
judge answers the bot's "lot needed" message by drawing by the tournament's seed, the next
stage is seated and played, and every shared final place is drawn the same way. The same seed
plays the same cup again, lots and all; another seed, another one."""

from __future__ import annotations

import io
from decimal import Decimal
from pathlib import Path

from harness.simulation import SimulationOptions, SimulationResult, simulate

# Points only from wins (no best move, no extra points) and no tie-breaker but the lot: with
# 20 players the qualifying's cut at 10 falls inside a tie, and so do places of the final.
# The smallest cup there is (8 games against the preset cup's 21): the seed's runs play it.
LOT_CUP = Path(__file__).with_name("lot_cup.json")
SPEED = 200.0
# The seed whose qualifying ends with the cut line inside a tie (seats and games follow from it).
TIE_AT_THE_CUT = 4


async def _played(folder: Path, seed: int) -> tuple[SimulationResult, str]:
    out = io.StringIO()
    options = SimulationOptions(regulation=str(LOT_CUP), seed=seed, speed=SPEED, out=folder)
    return await simulate(options, out), out.getvalue()


def _places(result: SimulationResult) -> list[tuple[int, str, Decimal]]:
    return [(row.place, row.name, row.points) for row in result.outcome.standings.players]


async def test_the_chief_judge_draws_the_cut_and_the_final_is_played_and_the_seed_again(
    tmp_path: Path,
) -> None:
    result, printed = await _played(tmp_path / "cup", TIE_AT_THE_CUT)
    assert result.figures.errors == ()
    # The channel tells everyone how the cut was drawn, and the report keeps the decisions.
    assert "Равенство на границе прохода решено жребием" in printed
    assert "Жребий брошен (по ключу жребия (seed)" in printed
    rows = result.outcome.standings.players
    finalists = [row for row in rows if row.stage == "final"]
    assert len(rows) == 20 and len(finalists) == 10 and list(rows[:10]) == finalists
    assert {row.figures.games for row in finalists} == {5}
    # No place of the final is left shared: each tie there was drawn too.
    assert not any(row.tied for row in finalists)
    # The same seed gives the same standings, its lots drawn the same; another seed, other
    # ones (a test of their own would play this cup once more).
    again, _ = await _played(tmp_path / "again", TIE_AT_THE_CUT)
    other, _ = await _played(tmp_path / "other", TIE_AT_THE_CUT + 8)
    assert _places(again) == _places(result)
    assert _places(other) != _places(result)
