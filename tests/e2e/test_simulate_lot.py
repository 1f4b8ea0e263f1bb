"""A stage that closes with its cut line inside a tie does not stop the simulation: the chief
judge answers the bot's "lot needed" message by drawing by the tournament's seed, the next
stage is seated and played, and every shared final place is drawn the same way."""

from __future__ import annotations

import io
from pathlib import Path

from harness.simulation import SimulationOptions, simulate

# Points only from wins (no best move, no extra points) and no tie-breaker but the lot: with
# 20 players the qualifying's cut at 10 falls inside a tie, and so do places of the final.
LOT_CUP = Path(__file__).with_name("lot_cup.json")
SPEED = 200.0
# The seed whose qualifying ends with the cut line inside a tie (seats and games follow from it).
TIE_AT_THE_CUT = 4


async def test_the_chief_judge_draws_the_cut_and_the_final_is_played(tmp_path: Path) -> None:
    out = io.StringIO()
    options = SimulationOptions(
        regulation=str(LOT_CUP), seed=TIE_AT_THE_CUT, speed=SPEED, out=tmp_path
    )
    result = await simulate(options, out)
    printed = out.getvalue()
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
