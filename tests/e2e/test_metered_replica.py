"""The lot cup (the smallest: 8 games) played on one bot process of its own (the metered
`mafiatour run`, polling the fake Telegram, on SQLite without Redis, as a single server runs
it): the process reports what each update it handled cost (its transactions and CPU), joined
with what the fake Telegram saw by update id, and what the outbox and the pictures cost. What
is under test is the meter, not the cup: the preset's (21 games) is the benchmark's
(bench/bench_simulation.py) and the replica drill's (test_replicas.py)."""

from __future__ import annotations

import io
from pathlib import Path

from harness.simulation.measure import CONFIRMATION, PROTOCOL, REGISTRATION
from harness.simulation.replicas import play_on_replicas
from tests.conftest import make_database_url
from tests.e2e.test_simulate_lot import LOT_CUP

# Fast scripted people: the run is about what the process reports, not about waiting.
SPEED = 200.0


async def test_a_metered_bot_process_reports_what_each_update_cost(tmp_path: Path) -> None:
    run = await play_on_replicas(
        database_url=await make_database_url("sqlite", tmp_path),
        regulation=str(LOT_CUP),
        redis_url=None,
        folder=tmp_path,
        out=io.StringIO(),
        speed=SPEED,
        replicas=1,
        metered=True,
        webhook=False,
    )
    assert run.figures.errors == ()
    rows = run.outcome.standings.players
    assert len(rows) == 20 and {row.figures.games for row in rows[:10]} == {5}
    measured = run.phases.measured
    assert measured is not None
    # A clean stop writes the last second's records: every update answered has its own.
    handled = run.phases.handled()
    assert {update_id for update_id, _ in handled} <= measured.updates.keys()
    metered = run.phases.metered(handled)
    assert len(metered) == len(handled)
    by_kind = {h.kind for h in metered}
    assert {REGISTRATION, PROTOCOL, CONFIRMATION} <= by_kind
    # Each press of the protocol and each confirmation read and stored through the database
    # and took the bot's CPU.
    for press in (h for h in metered if h.kind in (PROTOCOL, CONFIRMATION)):
        assert press.transactions >= 1 and press.cpu > 0
    # The outbox sent the channel's posts and the players' messages in transactions of its
    # own; the standings pictures were drawn in the picture process.
    assert measured.background > 0
    assert measured.pictures.drawn > 0
    printed = "\n".join(run.lines())
    assert "transactions/update" in printed and "per message" in printed
