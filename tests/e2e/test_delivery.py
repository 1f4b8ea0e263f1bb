"""The outbox worker and the reminder scheduler against the fake Telegram over HTTP."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from aiogram import Bot
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer

from bot.clock import FixedClock
from bot.db.engine import create_engine, create_session_factory
from bot.db.repositories.scheduled_pushes import SqlScheduledPushes
from bot.db.transactions import counting
from bot.db.uow import SqlUnitOfWorkFactory
from bot.delivery import DeliveryWorker, Pace, Writer
from bot.delivery.scheduler import TRANSACTIONS_LABEL as SCHEDULER_TRANSACTIONS
from bot.delivery.scheduler import ReminderScheduler
from bot.delivery.worker import TRANSACTIONS_LABEL as WORKER_TRANSACTIONS
from domain.outgoing import DeliveryStatus, Drawing, OutgoingMessage, ScheduledPush
from domain.registration import Participant, ParticipantStatus
from domain.tournament import Tournament, TournamentState
from domain.users import User
from harness.fake_telegram import WAIT_LIMIT, FakeTelegram
from harness.sandbox import running_bot, sandbox_settings

ORGANIZER = 1
CHANNEL = -100_777
NOON = datetime(2026, 5, 16, 12, 0, tzinfo=UTC)


@dataclass
class SteppedClock:
    now: datetime = NOON

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    fake = FakeTelegram(enforce_limits=True)
    await fake.start()
    yield fake
    await fake.stop()


@pytest.fixture
async def bot(fake: FakeTelegram) -> AsyncIterator[Bot]:
    session = AiohttpSession(api=TelegramAPIServer.from_base(fake.base_url))
    bot = Bot(token=fake.token, session=session)
    yield bot
    await bot.session.close()


@pytest.fixture
async def uow_factory(migrated_sqlite_url: str) -> AsyncIterator[SqlUnitOfWorkFactory]:
    engine = create_engine(migrated_sqlite_url)
    yield SqlUnitOfWorkFactory(create_session_factory(engine))
    await engine.dispose()


async def _tournament(uow_factory: SqlUnitOfWorkFactory, fake: FakeTelegram) -> int:
    fake.user(ORGANIZER, "Организатор").send("/start")
    async with uow_factory() as uow:
        await uow.users.save(User(ORGANIZER, "Организатор", None, None, "ru"))
        created = await uow.tournaments.add(
            Tournament(
                id=0,
                title="Кубок",
                regulation_id="black-raven-cup",
                state=TournamentState.RUNNING,
                timezone="Asia/Omsk",
                created_by=ORGANIZER,
                created_at=NOON,
                channel_id=CHANNEL,
            )
        )
        await uow.commit()
    return created.id


async def _players(uow_factory: SqlUnitOfWorkFactory, fake: FakeTelegram, ids: range) -> None:
    async with uow_factory() as uow:
        for player in ids:
            fake.user(player, f"Игрок{player}")
            await uow.users.save(User(player, f"Игрок{player}", None, None, "ru"))
        await uow.commit()


async def _registered(uow_factory: SqlUnitOfWorkFactory, tournament_id: int, ids: range) -> None:
    """The players registered in the tournament under nicknames unlike their Telegram names."""
    async with uow_factory() as uow:
        for player in ids:
            await uow.participants.add(
                Participant(
                    id=0,
                    tournament_id=tournament_id,
                    user_id=player,
                    nickname=f"Ник{player}",
                    club="Клуб",
                    city="Омск",
                    status=ParticipantStatus.REGISTERED,
                    registered_at=NOON,
                )
            )
        await uow.commit()


async def _enqueue(uow_factory: SqlUnitOfWorkFactory, *messages: OutgoingMessage) -> None:
    async with uow_factory() as uow:
        for message in messages:
            await uow.outbox.add(message)
        await uow.commit()


async def _settled(uow_factory: SqlUnitOfWorkFactory) -> dict[DeliveryStatus, int]:
    """Wait until nothing is pending or being sent; the outbox's figures by status."""
    async with asyncio.timeout(WAIT_LIMIT):
        while True:
            async with uow_factory() as uow:
                counts = await uow.outbox.status_counts()
            if not counts.get(DeliveryStatus.PENDING) and not counts.get(DeliveryStatus.SENDING):
                return counts
            await asyncio.sleep(0.05)


def _texts(fake: FakeTelegram, chat_id: int) -> list[str]:
    return [message.text or "" for message in fake.messages(chat_id) if message.from_bot]


def _seat_message(player: int, tournament_id: int) -> OutgoingMessage:
    return OutgoingMessage(
        chat_id=player,
        text=f"Игра 1: стол 2, место {player % 10 + 1}",
        tournament_id=tournament_id,
        dedupe_key=f"seat:{tournament_id}:{player}",
    )


async def test_every_player_gets_the_message_once_or_is_reported_unreachable(
    fake: FakeTelegram, bot: Bot, uow_factory: SqlUnitOfWorkFactory
) -> None:
    tournament_id = await _tournament(uow_factory, fake)
    players = range(100, 120)
    await _players(uow_factory, fake, players)
    await _registered(uow_factory, tournament_id, players)
    for player in players:
        if player != 105:  # 105 never pressed /start
            fake.user(player, f"Игрок{player}").send("/start")
    fake.user(103, "Игрок103").block_bot()
    fake.inject(107, 429, retry_after=1)
    fake.inject(109, 429, retry_after=1, times=2)
    await _enqueue(uow_factory, *(_seat_message(p, tournament_id) for p in players))

    worker = DeliveryWorker(bot, uow_factory, pace=Pace(poll_seconds=0.2))
    await worker.start()
    counts = await _settled(uow_factory)
    await worker.stop()

    # 18 seat messages and one digest to the organizer went out.
    assert counts == {DeliveryStatus.SENT: 19, DeliveryStatus.UNREACHABLE: 2}
    for player in players:
        expected = [] if player in (103, 105) else [f"Игра 1: стол 2, место {player % 10 + 1}"]
        assert _texts(fake, player) == expected
    (digest,) = _texts(fake, ORGANIZER)
    # Named as the organizer knows them: by their tournament nicknames.
    assert "Ник103, Ник105" in digest and "/start" in digest
    assert "Игрок103" not in digest
    assert fake.stats.too_many_requests == 3  # the injected ones only


async def _seats_recorded(
    uow_factory: SqlUnitOfWorkFactory, fake: FakeTelegram, players: range
) -> None:
    """A tournament whose players all opened the bot, and a seat message to each in the
    outbox."""
    tournament_id = await _tournament(uow_factory, fake)
    await _players(uow_factory, fake, players)
    for player in players:
        fake.user(player, f"Игрок{player}").send("/start")
    await _enqueue(uow_factory, *(_seat_message(p, tournament_id) for p in players))


async def _claim_as(uow_factory: SqlUnitOfWorkFactory, process: str, chat_id: int) -> int:
    """Claim the chat's next message as `process` would, as if it were waiting for its answer."""
    async with uow_factory() as uow:
        (item,) = [item for item in await uow.outbox.waiting(500) if item.chat_id == chat_id]
        (claimed,) = await uow.outbox.claim([item.id], process)
        await uow.commit()
    return claimed.id


async def test_a_restart_in_the_middle_of_a_broadcast_sends_a_seat_again_only_if_in_flight(
    fake: FakeTelegram, bot: Bot, uow_factory: SqlUnitOfWorkFactory
) -> None:
    players = range(200, 260)
    await _seats_recorded(uow_factory, fake, players)

    first = DeliveryWorker(bot, uow_factory, pace=Pace(poll_seconds=0.2))
    await first.start()
    async with asyncio.timeout(WAIT_LIMIT):
        while fake.stats.calls["sendMessage"] < 20:
            await asyncio.sleep(0.01)
    await first.stop()
    # As if a process had died (its lease is gone) with the last seat message claimed.
    in_flight = await _claim_as(uow_factory, "killed-process", 259)

    second = DeliveryWorker(bot, uow_factory, pace=Pace(poll_seconds=0.2))
    await second.start()
    counts = await _settled(uow_factory)
    await second.stop()

    # A seat is better twice than never: sent again once, recorded as a possible duplicate.
    assert counts == {DeliveryStatus.SENT: 60}
    for player in players:
        assert len(_texts(fake, player)) == 1
    async with uow_factory() as uow:
        assert await uow.outbox.maybe_duplicates() == {in_flight}
    assert _texts(fake, ORGANIZER) == []
    assert fake.stats.too_many_requests == 0


async def test_a_channel_post_in_flight_at_a_crash_is_reported_not_posted_twice(
    fake: FakeTelegram, bot: Bot, uow_factory: SqlUnitOfWorkFactory
) -> None:
    tournament_id = await _tournament(uow_factory, fake)
    fake.channel(CHANNEL, "Кубок")
    post = OutgoingMessage(chat_id=CHANNEL, text="Итоги тура", tournament_id=tournament_id)
    await _enqueue(uow_factory, post)
    await _claim_as(uow_factory, "killed-process", CHANNEL)

    worker = DeliveryWorker(bot, uow_factory, pace=Pace(poll_seconds=0.2))
    await worker.start()
    digest = await fake.wait_for(ORGANIZER, timeout=WAIT_LIMIT)
    counts = await _settled(uow_factory)
    await worker.stop()

    assert counts == {DeliveryStatus.UNCERTAIN: 1, DeliveryStatus.SENT: 1}
    assert fake.messages(CHANNEL) == []
    assert "канале" in (digest.text or "") and "проверьте канал" in (digest.text or "")


async def test_a_restart_never_touches_what_a_live_process_is_sending(
    fake: FakeTelegram, bot: Bot, uow_factory: SqlUnitOfWorkFactory
) -> None:
    tournament_id = await _tournament(uow_factory, fake)
    await _players(uow_factory, fake, range(600, 602))
    for player in (600, 601):
        fake.user(player, f"Игрок{player}").send("/start")
    await _enqueue(uow_factory, *(_seat_message(p, tournament_id) for p in (600, 601)))
    async with uow_factory() as uow:  # another replica, alive, waiting for an answer
        await uow.leases.take("worker:replica-2", "replica-2", datetime.now(UTC), 3600)
        await uow.commit()
    theirs = await _claim_as(uow_factory, "replica-2", 600)

    worker = DeliveryWorker(bot, uow_factory, pace=Pace(poll_seconds=0.2))
    await worker.start()
    await fake.wait_for(601, timeout=WAIT_LIMIT)
    await worker.stop()
    async with uow_factory() as uow:
        counts = await uow.outbox.status_counts()
        # The other replica's answer arrives: its own message is its to settle.
        assert await uow.outbox.mark_sent(theirs, worker.identity, 1, NOON) is False
        assert await uow.outbox.mark_sent(theirs, "replica-2", 1, NOON) is True
        await uow.commit()
    assert counts == {DeliveryStatus.SENDING: 1, DeliveryStatus.SENT: 1}
    assert _texts(fake, 600) == []


@pytest.mark.parametrize(
    ("delivered", "times", "copies", "status"),
    [
        (False, 1, 1, DeliveryStatus.SENT),  # the proxy's page came instead of Telegram's
        (True, 1, 2, DeliveryStatus.SENT),  # sent, answer lost: better twice than never
        (True, 2, 2, DeliveryStatus.UNCERTAIN),  # sent again once, lost again: reported
    ],
)
async def test_an_answer_no_client_can_read_is_settled_by_the_promise_for_a_person(
    fake: FakeTelegram,
    bot: Bot,
    uow_factory: SqlUnitOfWorkFactory,
    delivered: bool,
    times: int,
    copies: int,
    status: DeliveryStatus,
) -> None:
    tournament_id = await _tournament(uow_factory, fake)
    await _players(uow_factory, fake, range(700, 701))
    fake.user(700, "Игрок700").send("/start")
    fake.lose_answer(700, delivered=delivered, times=times)
    await _enqueue(uow_factory, _seat_message(700, tournament_id))

    worker = DeliveryWorker(bot, uow_factory, pace=Pace(poll_seconds=0.2))
    await worker.start()
    counts = await _settled(uow_factory)
    if status is DeliveryStatus.UNCERTAIN:
        digest = await fake.wait_for(ORGANIZER, timeout=WAIT_LIMIT)
        assert "Игрок700" in (digest.text or "") and "неизвестно" in (digest.text or "").lower()
    await worker.stop()

    assert counts.get(status) == 1
    assert _texts(fake, 700) == ["Игра 1: стол 2, место 1"] * copies
    async with uow_factory() as uow:
        # The bot cannot tell a proxy's page from a lost answer: it was sent again once.
        assert len(await uow.outbox.maybe_duplicates()) == 1


async def test_a_channel_post_whose_answer_was_lost_is_never_posted_twice(
    fake: FakeTelegram, bot: Bot, uow_factory: SqlUnitOfWorkFactory
) -> None:
    tournament_id = await _tournament(uow_factory, fake)
    fake.channel(CHANNEL, "Кубок")
    fake.lose_answer(CHANNEL, delivered=True)
    post = OutgoingMessage(chat_id=CHANNEL, text="Итоги тура", tournament_id=tournament_id)
    await _enqueue(uow_factory, post)
    worker = DeliveryWorker(bot, uow_factory, pace=Pace(poll_seconds=0.2))
    await worker.start()
    digest = await fake.wait_for(ORGANIZER, timeout=WAIT_LIMIT)
    await _settled(uow_factory)
    await worker.stop()
    assert [message.text for message in fake.messages(CHANNEL)] == ["Итоги тура"]
    assert "проверьте канал" in (digest.text or "")


async def test_live_standings_are_edited_in_place_and_pinned(
    fake: FakeTelegram, bot: Bot, uow_factory: SqlUnitOfWorkFactory
) -> None:
    fake.channel(CHANNEL, "Кубок")
    worker = DeliveryWorker(bot, uow_factory, pace=Pace(poll_seconds=0.2))
    await worker.start()
    for version in (1, 2):
        await _enqueue(
            uow_factory,
            OutgoingMessage(
                chat_id=CHANNEL,
                text=f"<b>Таблица</b> после игры {version}",
                edit_key="standings:7",
                pin=True,
            ),
        )
        await _settled(uow_factory)
    await worker.stop()
    (live,) = fake.messages(CHANNEL)
    assert live.text == "Таблица после игры 2" and live.pinned and live.edited


async def test_a_text_drawn_at_send_time_edits_the_live_message(
    fake: FakeTelegram, bot: Bot, uow_factory: SqlUnitOfWorkFactory
) -> None:
    fake.channel(CHANNEL, "Кубок")
    drawn: list[tuple[object, str]] = []

    async def live_table(args, locale, now):  # type: ignore[no-untyped-def]
        drawn.append((args["tournament"], locale))
        return f"<b>Таблица</b> турнира {args['tournament']}"

    worker = DeliveryWorker(
        bot,
        uow_factory,
        pace=Pace(poll_seconds=0.2),
        writer=Writer(drawers={"live": live_table}),
    )
    await worker.start()
    await _enqueue(
        uow_factory,
        OutgoingMessage(chat_id=CHANNEL, text="Таблица", edit_key="standings:7", pin=True),
    )
    await _settled(uow_factory)
    await _enqueue(
        uow_factory,
        OutgoingMessage(
            chat_id=CHANNEL, text_drawing=Drawing.of("live", tournament=7), edit_key="standings:7"
        ),
    )
    counts = await _settled(uow_factory)
    await worker.stop()
    (live,) = fake.messages(CHANNEL)
    assert live.text == "Таблица турнира 7" and live.edited
    assert drawn == [(7, "ru")] and counts.get(DeliveryStatus.FAILED, 0) == 0


async def test_a_long_text_arrives_as_several_messages_in_order(
    fake: FakeTelegram, bot: Bot, uow_factory: SqlUnitOfWorkFactory
) -> None:
    await _players(uow_factory, fake, range(300, 301))
    fake.user(300, "Игрок300").send("/start")
    lines = [f"{place}. <b>Игрок &lt;{place}&gt;</b> — {place} очков" for place in range(250)]
    await _enqueue(uow_factory, OutgoingMessage(chat_id=300, text="\n".join(lines)))
    worker = DeliveryWorker(bot, uow_factory, pace=Pace(poll_seconds=0.2))
    await worker.start()
    await _settled(uow_factory)
    await worker.stop()
    received = _texts(fake, 300)
    assert len(received) > 1
    assert "\n".join(received).split("\n") == [
        line.replace("<b>", "").replace("</b>", "").replace("&lt;", "<").replace("&gt;", ">")
        for line in lines
    ]


async def test_a_reminder_goes_out_once_across_restarts_and_follows_the_timetable(
    fake: FakeTelegram, bot: Bot, uow_factory: SqlUnitOfWorkFactory
) -> None:
    await _players(uow_factory, fake, range(400, 401))
    fake.user(400, "Игрок400").send("/start")
    clock = SteppedClock()
    reminder = OutgoingMessage(chat_id=400, text="Игра 1 в 12:30, стол 2, место 5")
    async with uow_factory() as uow:
        await uow.scheduled_pushes.schedule(ScheduledPush("round:1:400", NOON, reminder))
        await uow.commit()
    worker = DeliveryWorker(bot, uow_factory, pace=Pace(poll_seconds=0.2), clock=clock)
    uow_factory.add_commit_listener(worker.on_commit)
    await worker.start()

    clock.now = NOON - timedelta(minutes=30)
    before = ReminderScheduler(uow_factory, clock=clock)
    await before.start()
    assert before.next_due == NOON
    # The organizer moves the game by an hour: the reminder moves with it.
    later = ScheduledPush("round:1:400", NOON + timedelta(hours=1), reminder)
    async with uow_factory() as uow:
        await uow.scheduled_pushes.schedule(later)
        await uow.commit()
    assert await before.sweep() == 0 and before.next_due == later.due_at
    await before.stop()

    clock.now = NOON + timedelta(minutes=30)  # restarted after the old time: nothing is due
    assert await ReminderScheduler(uow_factory, clock=clock).sweep() == 0
    clock.now = NOON + timedelta(hours=1, minutes=1)
    for _restart in range(3):
        scheduler = ReminderScheduler(uow_factory, clock=clock)
        await scheduler.start()
        await scheduler.stop()
    await _settled(uow_factory)
    await worker.stop()
    assert _texts(fake, 400) == ["Игра 1 в 12:30, стол 2, место 5"]


class CountingScheduler(ReminderScheduler):
    """A scheduler that counts its sweeps."""

    sweeps = 0

    async def sweep(self, *, renew: bool = False) -> int:
        self.sweeps += 1
        return await super().sweep(renew=renew)


async def test_one_wake_up_at_the_earliest_due_time_sends_every_reminder_due(
    uow_factory: SqlUnitOfWorkFactory, caplog: pytest.LogCaptureFixture
) -> None:
    due = datetime.now(UTC) + timedelta(seconds=2)
    async with uow_factory() as uow:
        for player in range(40):
            message = OutgoingMessage(chat_id=1000 + player, text="Игра 1 через 15 минут")
            await uow.scheduled_pushes.schedule(ScheduledPush(f"round:1:{player}", due, message))
        await uow.scheduled_pushes.schedule(
            ScheduledPush("later", due + timedelta(days=1), message)
        )
        await uow.commit()
    scheduler = CountingScheduler(uow_factory)
    uow_factory.add_commit_listener(scheduler.on_commit)
    await scheduler.start()
    async with asyncio.timeout(60):
        while True:
            async with uow_factory() as uow:
                if len(await uow.outbox.waiting(100)) == 40:
                    break
            await asyncio.sleep(0.1)
    await scheduler.stop()
    # The start-up sweep, the one at the due time, perhaps one more for the commit it made.
    assert scheduler.sweeps <= 3
    assert scheduler.next_due == due + timedelta(days=1)
    assert not [record for record in caplog.records if record.levelname == "ERROR"]


@pytest.mark.parametrize("database", [True, False], ids=["sweep-finishes", "sweep-cancelled"])
async def test_a_stop_in_the_middle_of_a_sweep_is_clean_and_leaves_nothing_half_done(
    uow_factory: SqlUnitOfWorkFactory,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
    database: bool,
) -> None:
    """A stop lets the sweep under way finish (it moves every due push into the outbox), or,
    when the database is gone, cancels it: nothing of it is committed, the pushes stay due and
    the next start moves each once. Either way no error and no traceback is logged."""
    async with uow_factory() as uow:
        for player in range(5):
            message = OutgoingMessage(chat_id=2000 + player, text="Игра 1 через 15 минут")
            due = datetime.now(UTC) - timedelta(minutes=1)
            await uow.scheduled_pushes.schedule(ScheduledPush(f"round:1:{player}", due, message))
        await uow.commit()
    in_sweep, release = asyncio.Event(), asyncio.Event()
    take_due = SqlScheduledPushes.take_due

    async def slow_take_due(pushes: SqlScheduledPushes, now: datetime) -> list[ScheduledPush]:
        taken = await take_due(pushes, now)
        in_sweep.set()
        await release.wait()
        return taken

    monkeypatch.setattr(SqlScheduledPushes, "take_due", slow_take_due)
    scheduler = ReminderScheduler(uow_factory)
    starting = asyncio.create_task(scheduler.start())
    async with asyncio.timeout(WAIT_LIMIT):
        await in_sweep.wait()
    if database:
        stopping = asyncio.create_task(scheduler.stop())
        await asyncio.sleep(0)  # the stop is waiting for the sweep
        assert not stopping.done()
        release.set()
        await stopping
    else:
        await scheduler.stop(database=False)
    await starting
    async with uow_factory() as uow:
        moved = len(await uow.outbox.waiting(100))
        still_due = len(await uow.scheduled_pushes.due_times())
    assert (moved, still_due) == ((5, 0) if database else (0, 5))
    monkeypatch.undo()
    assert await ReminderScheduler(uow_factory).sweep() == (0 if database else 5)
    noisy = [r for r in caplog.records if r.levelname == "ERROR" or r.exc_info]
    assert not noisy


async def test_one_process_sweeps_and_another_takes_over_when_it_dies(
    uow_factory: SqlUnitOfWorkFactory,
    caplog: pytest.LogCaptureFixture,
) -> None:
    real = SteppedClock(datetime.now(UTC))
    first = ReminderScheduler(uow_factory, lease_clock=real, identity="a", renew_seconds=0.1)
    second = ReminderScheduler(uow_factory, lease_clock=real, identity="b", renew_seconds=0.1)
    await first.start()
    await second.start()
    async with asyncio.timeout(WAIT_LIMIT):  # the first to start takes the lease
        while not (first.leading or second.leading):
            await asyncio.sleep(0.05)
    assert first.leading and not second.leading
    # "a" is killed: its wake-ups stop without giving the lead up; its lease runs out.
    assert first._scheduler is not None
    first._scheduler.shutdown(wait=False)
    real.now += timedelta(seconds=31)
    async with asyncio.timeout(60):
        while not second.leading:
            await asyncio.sleep(0.05)
    await second.stop()
    async with uow_factory() as uow:
        assert await uow.leases.holder("scheduler", real.now) is None  # given up cleanly
    # A wake-up under way when "a" died was cancelled: quietly, no traceback.
    assert not [r for r in caplog.records if r.levelname == "ERROR" or r.exc_info]


async def test_the_running_bot_sends_what_a_use_case_recorded(
    fake: FakeTelegram, tmp_path: Path
) -> None:
    player = fake.user(500, "Анна", language_code="en")
    player.send("/start")
    settings = sandbox_settings(fake, f"sqlite+aiosqlite:///{tmp_path / 'app.sqlite3'}")
    async with running_bot(settings) as app:
        await fake.wait_for(500)  # the welcome
        async with app.uow_factory() as uow:
            await uow.outbox.add(OutgoingMessage(chat_id=500, text="Игра 1: стол 2"))
            await uow.commit()
        pushed = await fake.wait_for(500, lambda message: "стол" in (message.text or ""))
    assert pushed.text == "Игра 1: стол 2"


async def test_a_burst_to_many_chats_is_recorded_in_fewer_transactions_than_messages(
    fake: FakeTelegram, bot: Bot, uow_factory: SqlUnitOfWorkFactory
) -> None:
    """At most one (batched) transaction per outbox message: a cycle records every answer
    that came since the last one and claims what may go next, and every message is sent."""
    players = range(300, 360)
    await _seats_recorded(uow_factory, fake, players)

    worker = DeliveryWorker(bot, uow_factory, pace=Pace(poll_seconds=0.2))
    with counting() as run:
        await worker.start()  # its loop and its sending tasks count into the block
    counts = await _settled(uow_factory)
    await worker.stop()

    assert counts == {DeliveryStatus.SENT: 60}
    for player in players:
        assert _texts(fake, player) == [f"Игра 1: стол 2, место {player % 10 + 1}"]
    assert run.by_label[WORKER_TRANSACTIONS] == run.transactions < len(players)


async def test_a_push_planned_here_costs_the_reminder_scheduler_no_transaction(
    uow_factory: SqlUnitOfWorkFactory,
) -> None:
    """A commit that plans pushes tells the scheduler their earliest due time: its wake-up
    moves there without a sweep to read it (a registration planning a person's reminders
    costs the scheduler nothing), and a push due after it moves nothing. The sweep at the due
    time reads the next one, counted under the scheduler's label."""
    scheduler = ReminderScheduler(uow_factory, renew_seconds=24 * 3600.0)
    uow_factory.add_commit_listener(scheduler.on_commit)
    with counting() as run:
        await scheduler.start()
        started = run.by_label[SCHEDULER_TRANSACTIONS]
        soon = datetime.now(UTC) + timedelta(seconds=1)
        tomorrow = soon + timedelta(days=1)
        message = OutgoingMessage(chat_id=3000, text="Игра 1 через 15 минут")
        for key, due in (("round:2:3000", tomorrow), ("round:1:3000", soon)):
            async with uow_factory() as uow:
                await uow.scheduled_pushes.schedule(ScheduledPush(key, due, message))
                await uow.commit()
        planned = scheduler.next_due
        planning = run.by_label[SCHEDULER_TRANSACTIONS] - started
        async with asyncio.timeout(WAIT_LIMIT):
            while scheduler.next_due != tomorrow:
                await asyncio.sleep(0.05)
        await scheduler.stop()

    assert started == 2  # taking the lead, then the first sweep
    assert planned == soon and planning == 0
    async with uow_factory() as uow:
        assert [m.chat_id for m in await uow.outbox.waiting(10)] == [3000]
    # The sweep at the due time, and the lease's release at the stop.
    assert run.by_label[SCHEDULER_TRANSACTIONS] - started == 2
    assert run.transactions == run.by_label[SCHEDULER_TRANSACTIONS] + 2


async def test_a_jump_of_the_clock_sweeps_what_fell_due_at_once(
    uow_factory: SqlUnitOfWorkFactory,
) -> None:
    """A test's clock moved on past a reminder's due time: the scheduler hears of the jump
    (`JumpingClock`) and sweeps at once, not at its next renewal, which the real clock alone
    would bring; once stopped, it hears no more."""
    clock = FixedClock(NOON)
    scheduler = ReminderScheduler(
        uow_factory, clock=clock.now, renew_seconds=24 * 3600.0, jumps=clock
    )
    message = OutgoingMessage(chat_id=3100, text="Игра 1 через 15 минут")
    async with uow_factory() as uow:
        for hours in (1, 2):
            push = ScheduledPush(f"round:{hours}:3100", NOON + timedelta(hours=hours), message)
            await uow.scheduled_pushes.schedule(push)
        await uow.commit()
    await scheduler.start()
    assert scheduler.next_due == NOON + timedelta(hours=1)
    clock.moment = NOON + timedelta(hours=1)
    async with asyncio.timeout(WAIT_LIMIT):
        while scheduler.next_due != NOON + timedelta(hours=2):
            await asyncio.sleep(0.05)
    await scheduler.stop()
    clock.moment = NOON + timedelta(hours=3)  # nobody listens: nothing breaks
    async with uow_factory() as uow:
        assert [m.chat_id for m in await uow.outbox.waiting(10)] == [3100]
        assert list(await uow.scheduled_pushes.due_times()) == ["round:2:3100"]


async def test_telegram_s_5xx_answers_are_retried_with_a_pause_and_the_player_gets_it_once(
    fake: FakeTelegram, bot: Bot, uow_factory: SqlUnitOfWorkFactory
) -> None:
    """A 5xx is Telegram saying it failed: nothing went out, so neither a duplicate nor
    "uncertain" (for the answers that never came)."""
    tournament_id = await _tournament(uow_factory, fake)
    await _players(uow_factory, fake, range(710, 711))
    fake.user(710, "Игрок710").send("/start")
    fake.inject(710, 500, times=3, description="Internal Server Error")
    await _enqueue(uow_factory, _seat_message(710, tournament_id))

    worker = DeliveryWorker(bot, uow_factory, pace=Pace(poll_seconds=0.2))
    await worker.start()
    counts = await _settled(uow_factory)
    await worker.stop()

    assert counts == {DeliveryStatus.SENT: 1}
    assert _texts(fake, 710) == ["Игра 1: стол 2, место 1"]
    assert _texts(fake, ORGANIZER) == []
    refused = [r for r in fake.stats.requests if r.chat_id == 710 and r.status == 500]
    assert len(refused) == 3
    async with uow_factory() as uow:
        assert await uow.outbox.maybe_duplicates() == set()
