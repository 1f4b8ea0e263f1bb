"""Three bot processes behind one webhook on one PostgreSQL and one Redis play a whole
tournament, the fake Telegram delivering updates round-robin; in the middle, the one holding the
scheduler's lease is killed with SIGKILL just before a round's reminders fall due, and started
again. Another takes the lease over and reminds every player of the round once; nothing is
lost, nothing is sent twice beyond the delivery promise, Telegram's limits hold for all of them
together."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from domain.outgoing import DeliveryStatus
from harness.simulation.replicas import play_on_replicas
from tests.conftest import _drop_postgres_database, make_database_url

pytestmark = pytest.mark.postgresql

# A Redis database of this test's own: it is emptied at the start.
REDIS_URL = "redis://127.0.0.1:6379/13"
SPEED = 200.0
# About the middle of the smallest cup's updates.
KILL_AFTER_UPDATES = 300


async def test_three_replicas_play_a_cup_with_one_killed_in_the_middle(tmp_path: Path) -> None:
    database_url = await make_database_url("postgresql", tmp_path)
    out = io.StringIO()
    try:
        run = await play_on_replicas(
            database_url=database_url,
            redis_url=REDIS_URL,
            folder=tmp_path,
            out=out,
            speed=SPEED,
            replicas=3,
            kill_after_updates=KILL_AFTER_UPDATES,
        )
    finally:
        await _drop_postgres_database(database_url)
    assert run.killed and run.restarts == 1
    # The scheduler's reminders: every player of the reminded round got his once, sent by
    # the replica that took the lease over from the one killed.
    reminded = run.reminded
    assert reminded is not None and len(reminded.players) == 20
    assert reminded.received == {player: 1 for player in reminded.players}
    # The whole cup was played: every update a person sent was answered (the script waits
    # for each answer), and the final standings are complete.
    rows = run.outcome.standings.players
    assert len(rows) == 20 and {row.figures.games for row in rows[:10]} == {12}
    assert run.figures.errors == ()
    assert run.figures.too_many_requests == 0  # the limits, kept by the three together
    delivered = run.delivered
    # Everything recorded was delivered, except channel posts in flight at the kill, which the
    # promise reports as uncertain rather than posting them twice, and edits of the live table
    # a newer edit superseded.
    assert set(delivered.statuses) <= {
        DeliveryStatus.SENT,
        DeliveryStatus.UNCERTAIN,
        DeliveryStatus.SUPERSEDED,
    }
    assert delivered.lost == 0
    assert delivered.duplicates_beyond_promise == 0
    assert delivered.reminders_twice == 0
