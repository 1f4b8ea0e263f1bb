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
from harness.simulation.replicas.publication import publish_on_replicas
from tests.conftest import _drop_postgres_database, make_database_url

pytestmark = pytest.mark.postgresql

# A Redis database of this test's own: it is emptied at the start.
REDIS_URL = "redis://127.0.0.1:6379/13"
PUBLICATION_REDIS_URL = "redis://127.0.0.1:6379/12"
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


async def test_a_replica_killed_in_the_middle_of_a_round_s_publication(tmp_path: Path) -> None:
    """Three replicas behind a round-robin front; while round 1's seat messages go out, one
    handling an update (or, failing that, one sending them) is killed with SIGKILL and not
    started again (`harness.simulation.replicas.publication`)."""
    database_url = await make_database_url("postgresql", tmp_path)
    try:
        run = await publish_on_replicas(
            database_url=database_url, redis_url=PUBLICATION_REDIS_URL, folder=tmp_path
        )
    finally:
        await _drop_postgres_database(database_url)
    figures = (
        f"replica {run.victim} killed after {run.seats_sent_before_kill} of {run.seats} seat "
        f"messages, handling updates {run.updates_cut}; answered by replica {run.answered_by}; "
        f"{run.cut_deliveries} deliveries cut; seats {run.seat_statuses}, possible duplicates "
        f"{sorted(run.maybe_duplicate_seats)}; {run.answers_refused} answers refused; "
        + ", ".join(f"{name} at {at:.0f} s" for name, at in run.marks)
    )
    print(figures)
    assert run.seats == 30 and 0 < run.seats_sent_before_kill < run.seats, figures
    # The kill cut something short: an update in flight (the front answered 502 and the fake
    # delivered it again), or seat messages the victim had sent or was sending.
    assert run.cut_deliveries or run.maybe_duplicate_seats, figures
    # The front spread the updates over all three, before the kill too.
    assert len(run.answered_by) == 3 and min(run.answered_by.values()) > 10, figures
    # Every update answered once: each confirmed to Telegram, each press answered once.
    assert run.unconfirmed == () and run.presses > 100, figures
    assert run.presses_unanswered == (), figures
    # Every seat message delivered once, or twice where the outbox says it may have been.
    assert set(run.seat_statuses) == {"sent"}, figures
    for player, copies in run.seat_copies.items():
        assert copies == 1 or (copies == 2 and player in run.maybe_duplicate_seats), figures
    # The round's reminders, due after the kill: each player once.
    reminded = run.reminded
    assert len(reminded.players) == 30, figures
    assert reminded.received == {player: 1 for player in reminded.players}, figures
    delivered = run.delivered
    assert delivered.lost == 0 and delivered.duplicates_beyond_promise == 0, figures
    assert delivered.reminders_twice == 0, figures
    assert run.errors == (), figures
