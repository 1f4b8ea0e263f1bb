"""Three replicas behind a load balancer, one killed with SIGKILL in the middle of a round's
publication: what Telegram's side saw of it.

The cup is played through a round-robin front (`front.RoundRobinFront`, as nginx's upstream
does it) that spreads the fake Telegram's webhook deliveries over three `mafiatour run`
processes on one PostgreSQL database and one Redis: the wizard, the staff, the registration,
the check-in, the first stage's seating and its first round's publication. Each replica calls
the fake under a prefix of its own, so the fake knows which one sends each seat message. Once
one of the round's seat messages went out, at the next one a replica handling an update (the
judges open their protocols as their tables are called) is killed right there, the one sending
it if it is; failing that, the one sending it once two thirds went out. The request is then
carried out (a message reaches its player, its answer never comes back). The replica is not
started again. Before the round is published, the organizer times its game so that its
players' reminders fall due a little after the kill; the round is played once they arrived,
to its last protocol, and everything recorded is delivered.

`publish_on_replicas` returns what the fake Telegram and the front recorded, and the outbox's
word on each seat message, for the test to hold against the delivery promise."""

from __future__ import annotations

import asyncio
import functools
import io
import random
import re
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from zoneinfo import ZoneInfo

from sqlalchemy import select

from bot.clock import ScaledClock
from bot.db.engine import create_session_factory
from bot.db.models import OutboxRow
from bot.db.uow import SqlUnitOfWorkFactory
from harness.fake_telegram import FakeTelegram, FakeUser, RateLimits
from harness.simulation import TELEGRAM_LIMITS, entry_of, roles
from harness.simulation.people import cast_of
from harness.simulation.progress import Progress
from harness.simulation.replicas import _empty_redis, _reader, bot_env
from harness.simulation.replicas.delivery import (
    DELIVERY_WAIT,
    Delivered,
    delivered,
    delivery_check,
)
from harness.simulation.replicas.front import RoundRobinFront
from harness.simulation.replicas.process import Replica, free_port
from harness.simulation.replicas.takeover import (
    TIMEZONE,
    Reminded,
    all_reminded,
    received,
    round_published_at,
    set_timetable,
    timed_round,
)
from harness.simulation.roles import Pace, people
from harness.simulation.scenario import Tournament, stage_tables

__all__ = ["KillInPublication", "PublicationRun", "publish_on_replicas"]

# A player's seat message: "Тур 1 (12:00): стол 2, место 7. Судья стола: ...".
SEAT = re.compile(r"^Тур 1(?: \(\d\d:\d\d\))?: стол \d+, место \d+\.")
REPLICAS = 3
# How long after the timetable is saved the round's reminders fall due, in real seconds: time
# for the organizer to publish the round (a reminder due before its round is published is
# never sent), then the kill; the round is played once they arrived.
REMINDERS_AFTER_SECONDS = 15.0


def via_name(number: int) -> str:
    return f"replica-{number}"


@dataclass
class KillInPublication:
    """The fake's `before_call`: kills the replica sending a seat message (see the module)."""

    group: list[Replica]
    front: RoundRobinFront
    seats: int  # the round's seat messages
    sent: int = 0  # seat messages asked for so far
    victim: Replica | None = None
    sent_before_kill: int = 0
    updates_cut: tuple[int, ...] = ()  # the updates the victim was handling when killed

    def __call__(self, method: str, chat: object, text: str | None, via: str | None) -> None:
        if self.victim is not None or method != "sendmessage" or not SEAT.match(text or ""):
            return
        self.sent += 1
        sender = next((r for r in self.group if via_name(r.number) == via), None)
        if sender is None or self.sent < 2:
            return
        # The sender if it is handling an update, else another that is.
        busy = [r for r in self.group if self.front.handling.get(r.number - 1)]
        victim = sender if sender in busy else next(iter(busy), None)
        if victim is None and self.sent > self.seats * 2 // 3:
            victim = sender
        if victim is not None:
            self.victim, self.sent_before_kill = victim, self.sent - 1
            self.updates_cut = tuple(sorted(self.front.handling.get(victim.number - 1, ())))
            victim.kill()


@dataclass(frozen=True)
class PublicationRun:
    victim: int  # the replica killed (its number, from 1)
    seats: int  # seat messages the outbox recorded
    seats_sent_before_kill: int
    updates_cut: tuple[int, ...]  # updates the victim was handling when it was killed
    answered_by: dict[int, int]  # webhook deliveries answered 2xx, by replica number
    cut_deliveries: int  # deliveries the front answered 502 (the victim died with them)
    updates: int  # updates the people sent
    unconfirmed: tuple[int, ...]  # never answered 2xx
    presses: int  # button presses among them
    presses_unanswered: tuple[str, ...]
    answers_refused: int  # a press answered a second time (Telegram refuses it)
    seat_copies: dict[int, int]  # the seat messages each player of the round received
    maybe_duplicate_seats: frozenset[int]  # players whose seat message the outbox flags
    seat_statuses: dict[str, int]
    reminded: Reminded
    delivered: Delivered
    errors: tuple[str, ...]
    marks: tuple[tuple[str, float], ...]  # each stage of the script, seconds from its start


@dataclass
class _Stage:
    fake: FakeTelegram
    front: RoundRobinFront
    group: list[Replica]
    uow_factory: SqlUnitOfWorkFactory
    clock: ScaledClock
    killing: KillInPublication | None = None
    reminded: list[Reminded] = field(default_factory=list)
    marks: list[tuple[str, float]] = field(default_factory=list)
    opening: list[asyncio.Task[None]] = field(default_factory=list)


async def publish_on_replicas(
    *, database_url: str, redis_url: str, folder: Path, players: int = 30, speed: float = 100.0
) -> PublicationRun:
    """Play the cup's first round on three replicas behind a front, one killed in the middle
    of its publication (see the module's doc)."""
    scale = max(1, round(speed))
    # Telegram's own 30 messages a second overall, the people's speed for the rest: the
    # round's seat messages take a second to go out, while the judges called first already
    # press their buttons.
    limits = (TELEGRAM_LIMITS[0], *(limit * scale for limit in TELEGRAM_LIMITS[1:]))
    token = f"{random.randrange(10**8, 10**9)}:PUBLICATION-TEST-TOKEN"
    fake = FakeTelegram(token=token, enforce_limits=RateLimits(*limits))
    await fake.start()
    engine = await _reader(database_url)
    clock = ScaledClock.shared(time.time(), speed)
    await _empty_redis(redis_url)
    env = bot_env(
        fake,
        clock,
        (limits[0], limits[1], limits[2]),
        database_url=database_url,
        redis_url=redis_url,
        webhook=True,
    )
    group = [Replica(n, {**env, "WEB_PORT": str(free_port())}, folder) for n in range(1, 4)]
    front = RoundRobinFront([replica.webhook for replica in group])
    await front.start()
    for replica in group:
        replica.env["WEBHOOK_URL"] = front.url
        replica.env["TELEGRAM_API_BASE"] = f"{fake.base_url}/{via_name(replica.number)}"
    stage = _Stage(fake, front, group, SqlUnitOfWorkFactory(create_session_factory(engine)), clock)
    fake.deliver_webhooks()  # at the registered webhook: the front
    try:
        await asyncio.gather(*(replica.start() for replica in group))
        return await _played(stage, players, speed)
    finally:
        await asyncio.gather(*(replica.stop() for replica in group))
        await fake.stop()
        await front.stop()
        await engine.dispose()


async def _played(stage: _Stage, count: int, speed: float) -> PublicationRun:
    fake = stage.fake
    entry = entry_of("black-raven-cup")
    cast = cast_of(1, count, max(stage_tables(entry.regulation, count)), entry.regulation.team_size)
    users = people(fake, cast)
    stage.killing = KillInPublication(stage.group, stage.front, count)
    fake.before_call = stage.killing
    started = time.monotonic()

    def entered(name: str) -> None:
        stage.marks.append((name, time.monotonic() - started))

    round_ = _Round(
        stage,
        users[cast.organizer.telegram_id],
        [users[j.telegram_id] for j in cast.judges],
        speed,
        entered,
    )
    script = _CalledEarly(
        fake,
        cast,
        users,
        entry,
        1,
        Pace(speed),
        Progress(io.StringIO(), on_stage=entered),
        delivered=functools.partial(delivered, stage.uow_factory),
        created=round_.created,
        published=round_.published,
        publishing=round_.publishing,
        starts_on=stage.clock.now().astimezone(ZoneInfo(TIMEZONE)).date(),
        registration_in_order=False,
        last_round=1,
    )
    script.listings = round_.listings
    await script.run()
    await delivered(stage.uow_factory)
    await fake.wait_idle(quiet=0.5, timeout=DELIVERY_WAIT)
    entered("everything delivered")
    return await _recorded(stage, stage.reminded[0])


@dataclass
class _Round:
    """What the organizer and the judges do around the round's publication."""

    stage: _Stage
    organizer: FakeUser
    judges: list[FakeUser]
    speed: float
    entered: Callable[[str], None]
    tournament_id: int = 0
    listings: dict[int, roles.TableList] = field(default_factory=dict)

    def created(self, number: int) -> None:
        self.tournament_id = number

    async def publishing(self, stage_id: str, round_number: int) -> None:
        """The organizer times the round; each judge will open his protocol as soon as his
        table is called."""
        stage = self.stage
        stage.reminded.append(await self._timed(stage_id, round_number))
        stage.opening = [
            asyncio.create_task(_open_when_called(judge, self.listings, self.speed))
            for judge in self.judges
        ]

    async def published(self, stage_id: str, round_number: int) -> None:
        """The round is played once its players have their reminders (a game over is
        reminded of no more)."""
        stage = self.stage
        await self._timed_in_time(stage_id, round_number)
        await asyncio.gather(*stage.opening)
        await all_reminded(stage.fake, stage.uow_factory, self.tournament_id, stage.reminded[0])

    async def _timed_in_time(self, stage_id: str, round_number: int) -> None:
        """Once the round's publication is committed: if it came after its reminders' due
        time (a loaded machine took longer than `REMINDERS_AFTER_SECONDS` from the timetable
        to the publication), it rightly planned none (the bot sends no reminder whose moment
        passed before it was planned), and the organizer times the game again, from now, so
        that they fall due after the kill all the same. Only then: reminders missing from a
        round published in time are the bot's fault, which `all_reminded` reports."""
        stage = self.stage
        async with asyncio.timeout(DELIVERY_WAIT):
            while not (
                published := await round_published_at(
                    stage.uow_factory, self.tournament_id, round_number
                )
            ):
                await asyncio.sleep(0.2)
        if published < stage.reminded[0].due_at:
            return
        stage.reminded[0] = await self._timed(stage_id, round_number)
        self.entered("game timed again (published after its reminders' time)")

    async def _timed(self, stage_id: str, round_number: int) -> Reminded:
        """The organizer saves a timetable whose reminders of the round fall due
        `REMINDERS_AFTER_SECONDS` (real) from now; the reminders the players are to get."""
        stage = self.stage
        text, reminded = await timed_round(
            stage.uow_factory,
            self.tournament_id,
            (stage_id, round_number),
            stage.clock,
            REMINDERS_AFTER_SECONDS * self.speed,
        )
        await set_timetable(self.organizer, self.tournament_id, text)
        return reminded


class _CalledEarly(Tournament):
    """The script whose judges were called already: each opened his protocol as soon as his
    table's list arrived (`_open_when_called`), and opens it again when the round begins."""

    listings: dict[int, roles.TableList]

    async def _called(self, judge: FakeUser) -> tuple[FakeUser, roles.TableList]:  # type: ignore[override]
        listing = self.listings.pop(judge.id, None)
        return judge, listing if listing is not None else await roles.called(judge)


async def _open_when_called(
    judge: FakeUser, listings: dict[int, roles.TableList], speed: float
) -> None:
    listing = listings[judge.id] = await roles.called(judge)
    await roles.open_protocol(judge, listing, Pace(speed))


async def _recorded(stage: _Stage, reminded: Reminded) -> PublicationRun:
    """What the fake, the front and the outbox say once everything was delivered."""
    fake, killing = stage.fake, stage.killing
    assert killing is not None and killing.victim is not None, "no replica was killed"
    async with stage.uow_factory() as uow:
        rows = (
            await uow.session.execute(
                select(OutboxRow.chat_id, OutboxRow.status, OutboxRow.maybe_duplicate).where(
                    OutboxRow.dedupe_key.like("round:%:seat:%")
                )
            )
        ).all()
    checked = await delivery_check(stage.uow_factory, fake)
    answers = Counter(
        r.query_id for r in fake.stats.requests if r.method.lower() == "answercallbackquery"
    )
    answered = Counter(
        r.query_id
        for r in fake.stats.requests
        if r.method.lower() == "answercallbackquery" and r.status == 200
    )
    presses = fake.world.callbacks
    return PublicationRun(
        victim=killing.victim.number,
        seats=len(rows),
        seats_sent_before_kill=killing.sent_before_kill,
        updates_cut=killing.updates_cut,
        answered_by={n + 1: c for n, c in sorted(stage.front.answered_by().items())},
        cut_deliveries=sum(1 for d in stage.front.deliveries if d.status == 502),
        updates=fake.world.delivered_update_id,
        unconfirmed=tuple(u["update_id"] for u in fake.world.updates),
        presses=len(presses),
        presses_unanswered=tuple(q for q in presses if answered[q] != 1),
        answers_refused=sum(answers.values()) - sum(answered.values()),
        seat_copies={
            chat: sum(1 for m in fake.messages(chat) if m.from_bot and SEAT.match(m.text or ""))
            for chat, _, _ in rows
        },
        maybe_duplicate_seats=frozenset(chat for chat, _, maybe in rows if maybe),
        seat_statuses=dict(Counter(status for _, status, _ in rows)),
        reminded=_reminders_received(fake, reminded),
        delivered=checked,
        errors=tuple(error for replica in stage.group for error in replica.errors()),
        marks=tuple(stage.marks),
    )


def _reminders_received(fake: FakeTelegram, reminded: Reminded) -> Reminded:
    reminded.received = {p: received(fake, p, reminded.phrase) for p in reminded.players}
    return reminded
