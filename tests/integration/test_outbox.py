"""The outbox and the scheduled pushes on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime, timedelta

from aiogram import Bot
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.types import Update

from bot.db.repositories.outbox import Anchor
from bot.db.uow import Committed, SqlUnitOfWorkFactory
from bot.delivery import DeliveryWorker, Pace
from bot.delivery.worker import MAKE_WAY_SECONDS, wait_until_delivered
from bot.telegram.replies import ReplyScope
from domain.intents import OpenProtocol
from domain.outgoing import (
    Attachment,
    Button,
    DeliveryStatus,
    Html,
    OutgoingMessage,
    Phrase,
    ScheduledPush,
)
from domain.services.standings_posts import live_key, live_standings
from domain.tournament import Tournament, TournamentState
from domain.users import User
from harness.fake_telegram import WAIT_LIMIT, FakeTelegram

NOON = datetime(2026, 5, 16, 12, 0, tzinfo=UTC)


async def _tournament(uow_factory: SqlUnitOfWorkFactory) -> int:
    async with uow_factory() as uow:
        await uow.users.save(User(1, "Org", None, None, "ru"))
        created = await uow.tournaments.add(
            Tournament(
                id=0,
                title="Кубок",
                regulation_id="black-raven-cup",
                state=TournamentState.RUNNING,
                timezone="Asia/Omsk",
                created_by=1,
                created_at=NOON,
            )
        )
        await uow.commit()
    return created.id


def _reminder(chat_id: int, game: int) -> OutgoingMessage:
    return OutgoingMessage(
        chat_id=chat_id,
        phrase=Phrase.of("command-help", tournament="Кубок", name=Html("<b>x</b>")),
        dedupe_key=f"game:{game}:{chat_id}",
    )


async def test_a_message_is_stored_only_with_the_data_of_its_transaction(
    uow_factory: SqlUnitOfWorkFactory,
) -> None:
    async with uow_factory() as uow:
        await uow.users.save(User(5, "Anna", None, None, "ru"))
        await uow.outbox.add(OutgoingMessage(chat_id=5, text="hello"))
    async with uow_factory() as uow:
        assert await uow.outbox.waiting(10) == []
        await uow.users.save(User(5, "Anna", None, None, "ru"))
        await uow.outbox.add(OutgoingMessage(chat_id=5, text="hello"))
        await uow.commit()
    async with uow_factory() as uow:
        assert [item.chat_id for item in await uow.outbox.waiting(10)] == [5]
        assert await uow.users.get(5) is not None


async def test_the_same_logical_message_is_stored_once(uow_factory: SqlUnitOfWorkFactory) -> None:
    async with uow_factory() as uow:
        assert await uow.outbox.add(_reminder(7, game=1)) is True
        assert await uow.outbox.add(_reminder(7, game=1)) is False
        assert await uow.outbox.add(_reminder(7, game=2)) is True
        await uow.commit()
    async with uow_factory() as uow:
        assert await uow.outbox.add(_reminder(7, game=1)) is False
        await uow.commit()
    async with uow_factory() as uow:
        assert len(await uow.outbox.waiting(10)) == 2


async def test_a_claimed_message_comes_back_whole_and_is_claimed_once(
    uow_factory: SqlUnitOfWorkFactory,
) -> None:
    tournament_id = await _tournament(uow_factory)
    message = OutgoingMessage(
        chat_id=-100_1,
        text="<b>Таблица</b>",
        buttons=((Button(Phrase.of("command-help"), OpenProtocol(5)),),),
        attachment=Attachment("photo", b"\x89PNG\x00", "standings.png"),
        pin=True,
        tournament_id=tournament_id,
        dedupe_key="standings:1",
    )
    async with uow_factory() as uow:
        await uow.outbox.add(message)
        await uow.commit()
    async with uow_factory() as uow:
        (item,) = await uow.outbox.waiting(10)
        (claimed,) = await uow.outbox.claim([item.id], "a")
        assert await uow.outbox.claim([item.id], "b") == []
        await uow.commit()
    assert claimed.message == message and claimed.attempts == 1
    async with uow_factory() as uow:
        assert await uow.outbox.waiting(10) == []
        assert await uow.outbox.mark_sent(claimed.id, "b", 42, NOON) is False
        assert await uow.outbox.mark_sent(claimed.id, "a", 42, NOON) is True
        await uow.commit()
    async with uow_factory() as uow:
        assert await uow.outbox.status_of("standings:1") is DeliveryStatus.SENT


async def test_a_message_put_back_waits_for_its_time(uow_factory: SqlUnitOfWorkFactory) -> None:
    async with uow_factory() as uow:
        await uow.outbox.add(OutgoingMessage(chat_id=3, text="x"))
        await uow.commit()
    async with uow_factory() as uow:
        (item,) = await uow.outbox.waiting(10)
        await uow.outbox.claim([item.id], "a")
        await uow.outbox.retry_later(item.id, "a", NOON + timedelta(seconds=3), "429")
        await uow.commit()
    async with uow_factory() as uow:
        (again,) = await uow.outbox.waiting(10)
        assert again.not_before == NOON + timedelta(seconds=3)
        assert await uow.outbox.next_due_time() == NOON + timedelta(seconds=3)


async def test_only_the_messages_of_a_process_no_longer_alive_are_taken_over(
    uow_factory: SqlUnitOfWorkFactory,
) -> None:
    async with uow_factory() as uow:
        for chat_id in (1, 2, 3):
            await uow.outbox.add(OutgoingMessage(chat_id=chat_id, text="x"))
        await uow.commit()
    async with uow_factory() as uow:
        first, second, _ = await uow.outbox.waiting(10)
        await uow.outbox.claim([first.id], "dead")
        await uow.outbox.claim([second.id], "alive")
        await uow.commit()
    async with uow_factory() as uow:
        (taken,) = await uow.outbox.take_over("me", {"alive"}, NOON)
        await uow.commit()
    assert taken.message.chat_id == 1
    async with uow_factory() as uow:
        # The dead process's late answer changes nothing; the live one still owns its own.
        assert await uow.outbox.mark_sent(first.id, "dead", 7, NOON) is False
        assert await uow.outbox.mark_failed(first.id, "me", DeliveryStatus.UNCERTAIN, NOON, "x")
        assert await uow.outbox.mark_sent(second.id, "alive", 8, NOON) is True
        await uow.commit()
    async with uow_factory() as uow:
        assert [item.chat_id for item in await uow.outbox.waiting(10)] == [3]
        counts = await uow.outbox.status_counts()
    assert counts == {
        DeliveryStatus.UNCERTAIN: 1,
        DeliveryStatus.SENT: 1,
        DeliveryStatus.PENDING: 1,
    }


async def test_undelivered_messages_wait_for_the_digest_until_the_broadcast_is_over(
    uow_factory: SqlUnitOfWorkFactory,
) -> None:
    tournament_id = await _tournament(uow_factory)
    async with uow_factory() as uow:
        for chat_id in (5, 6):
            await uow.outbox.add(OutgoingMessage(chat_id, text="x", tournament_id=tournament_id))
        await uow.commit()
    async with uow_factory() as uow:
        first, second = await uow.outbox.waiting(10)
        await uow.outbox.claim([first.id], "a")
        await uow.outbox.mark_failed(first.id, "a", DeliveryStatus.UNREACHABLE, NOON, "403")
        await uow.commit()
    async with uow_factory() as uow:
        (problem,) = await uow.outbox.unreported()
        assert (problem.chat_id, problem.status) == (5, DeliveryStatus.UNREACHABLE)
        assert await uow.outbox.busy_tournaments([tournament_id]) == {tournament_id}
        await uow.outbox.claim([second.id], "a")
        await uow.outbox.mark_sent(second.id, "a", 1, NOON)
        assert await uow.outbox.busy_tournaments([tournament_id]) == set()
        await uow.outbox.mark_reported([problem.id], NOON)
        await uow.commit()
    async with uow_factory() as uow:
        assert await uow.outbox.unreported() == []


async def test_a_lease_is_held_by_one_process_until_it_runs_out(
    uow_factory: SqlUnitOfWorkFactory,
) -> None:
    async with uow_factory() as uow:
        assert await uow.leases.take("scheduler", "a", NOON, 30)
        assert await uow.leases.take("worker:a", "a", NOON, 30)
        await uow.commit()
    async with uow_factory() as uow:
        assert not await uow.leases.take("scheduler", "b", NOON + timedelta(seconds=29), 30)
        assert await uow.leases.take("scheduler", "a", NOON + timedelta(seconds=29), 30)
        assert await uow.leases.holder("scheduler", NOON + timedelta(seconds=58)) == "a"
        assert await uow.leases.alive("worker:", NOON + timedelta(seconds=31)) == set()
        assert await uow.leases.take("scheduler", "b", NOON + timedelta(seconds=60), 30)
        await uow.leases.release("scheduler", "a")  # no longer a's: nothing happens
        await uow.commit()
    async with uow_factory() as uow:
        assert await uow.leases.holder("scheduler", NOON + timedelta(seconds=61)) == "b"


async def test_a_webhook_update_is_taken_once_and_again_only_after_its_handler_died(
    uow_factory: SqlUnitOfWorkFactory,
) -> None:
    async with uow_factory() as uow:
        assert await uow.handled_updates.take(10, NOON, 60)
        assert await uow.handled_updates.take(11, NOON, 60)
        await uow.commit()
    async with uow_factory() as uow:
        assert not await uow.handled_updates.take(10, NOON + timedelta(seconds=5), 60)
        await uow.handled_updates.finish(10, NOON + timedelta(seconds=5), 3600)
        await uow.commit()
    async with uow_factory() as uow:
        later = NOON + timedelta(minutes=2)
        assert not await uow.handled_updates.take(10, later, 60)  # handled
        assert await uow.handled_updates.take(11, later, 60)  # its handler died: again
        await uow.handled_updates.give_back(11)
        assert await uow.handled_updates.take(11, later, 60)
        await uow.handled_updates.forget_old(NOON + timedelta(hours=2))
        assert await uow.handled_updates.take(10, NOON + timedelta(hours=2), 60)
        await uow.commit()


async def test_anchors_and_unreachable_chats_are_remembered(
    uow_factory: SqlUnitOfWorkFactory,
) -> None:
    async with uow_factory() as uow:
        await uow.outbox.set_anchor("standings:7", Anchor(-100, 10))
        await uow.outbox.set_anchor("standings:7", Anchor(-100, 11, "d1"))
        assert await uow.outbox.mark_unreachable(5, "blocked", NOON) is True
        assert await uow.outbox.mark_unreachable(5, "blocked", NOON) is False
        await uow.commit()
    async with uow_factory() as uow:
        assert await uow.outbox.anchor("standings:7") == Anchor(-100, 11, "d1")
        assert await uow.outbox.unreachable_chats() == {5}
        await uow.outbox.mark_reachable(5)
        await uow.commit()
    async with uow_factory() as uow:
        assert await uow.outbox.unreachable_chats() == set()


async def test_only_the_newest_waiting_edit_of_a_posted_live_table_is_sent(
    uow_factory: SqlUnitOfWorkFactory,
) -> None:
    def live(minute: int, chat_id: int = -100) -> OutgoingMessage:
        return OutgoingMessage(
            chat_id=chat_id,
            text_drawing=live_standings(7, NOON + timedelta(minutes=minute)),
            edit_key=live_key(7),
            pin=True,
            dedupe_key=f"live:{chat_id}:{minute}",
        )

    async with uow_factory() as uow:
        # Not posted yet: the first edit posts (and pins) the table, so nothing is superseded.
        await uow.outbox.add_many([live(1), live(2)])
        assert await uow.outbox.supersede(NOON) == 0
        await uow.outbox.set_anchor(live_key(7), Anchor(-100, 10))
        # A result's post between the edits, and an edit written as text, are sent as ever.
        await uow.outbox.add(OutgoingMessage(chat_id=-100, text="Стол 1: победа мирных"))
        await uow.outbox.add(OutgoingMessage(chat_id=-100, text="x", edit_key=live_key(7)))
        await uow.outbox.add_many([live(3), live(4, chat_id=-200)])
        assert await uow.outbox.supersede(NOON) == 2
        await uow.commit()
    async with uow_factory() as uow:
        waiting = await uow.outbox.waiting(10)
        claimed = await uow.outbox.claim([item.id for item in waiting], "a")
        counts = await uow.outbox.status_counts()
    sent = [
        (item.message.chat_id, item.message.text, item.message.text_drawing) for item in claimed
    ]
    assert sent == [
        (-100, "Стол 1: победа мирных", None),
        (-100, "x", None),
        (-100, None, live(3).text_drawing),
        (-200, None, live(4).text_drawing),
    ]
    assert counts[DeliveryStatus.SUPERSEDED] == 2


async def test_a_rescheduled_push_moves_and_a_due_one_is_taken_once(
    uow_factory: SqlUnitOfWorkFactory,
) -> None:
    async with uow_factory() as uow:
        await uow.scheduled_pushes.schedule(ScheduledPush("game:1", NOON, _reminder(5, 1)))
        await uow.scheduled_pushes.schedule(ScheduledPush("game:2", NOON, _reminder(5, 2)))
        await uow.commit()
    async with uow_factory() as uow:
        later = NOON + timedelta(hours=1)
        await uow.scheduled_pushes.schedule(ScheduledPush("game:1", later, _reminder(6, 1)))
        await uow.scheduled_pushes.cancel("game:2")
        await uow.commit()
    async with uow_factory() as uow:
        assert await uow.scheduled_pushes.due_times() == {"game:1": later}
        assert await uow.scheduled_pushes.take_due(NOON + timedelta(minutes=59)) == []
        (taken,) = await uow.scheduled_pushes.take_due(later)
        await uow.commit()
    assert taken.message.chat_id == 6 and taken.due_at == later
    async with uow_factory() as uow:
        assert await uow.scheduled_pushes.take_due(later + timedelta(days=1)) == []


async def test_a_commit_tells_the_listeners_what_changed(uow_factory: SqlUnitOfWorkFactory) -> None:
    """The outbox's new messages and the earliest push planned: a user saved, a push
    cancelled or one taken by a sweep wakes nobody."""
    heard: list[Committed] = []
    uow_factory.add_commit_listener(heard.append)
    async with uow_factory() as uow:
        await uow.users.save(User(5, "Anna", None, None, "ru"))
        await uow.commit()
    async with uow_factory() as uow:
        await uow.outbox.add(OutgoingMessage(chat_id=5, text="x"))
        later = NOON + timedelta(hours=1)
        await uow.scheduled_pushes.schedule(ScheduledPush("k", later, _reminder(5, 1)))
        await uow.scheduled_pushes.schedule(ScheduledPush("j", NOON, _reminder(5, 2)))
        await uow.commit()
    async with uow_factory() as uow:
        await uow.scheduled_pushes.cancel("k")
        await uow.scheduled_pushes.take_due(NOON)
        await uow.commit()
    async with uow_factory() as uow:
        await uow.scheduled_pushes.schedule(ScheduledPush("k", NOON, _reminder(5, 1)))
        await uow.commit()
    assert heard == [Committed(outbox=True, earliest_push=NOON), Committed(False, NOON)]


async def test_recent_sends_are_read_back_for_the_flood_windows(
    uow_factory: SqlUnitOfWorkFactory,
) -> None:
    async with uow_factory() as uow:
        for chat_id in (1, 2):
            await uow.outbox.add(OutgoingMessage(chat_id=chat_id, text="x"))
        await uow.commit()
    async with uow_factory() as uow:
        first, second = await uow.outbox.waiting(10)
        for item, moment in ((first, NOON), (second, NOON + timedelta(seconds=50))):
            await uow.outbox.claim([item.id], "a")
            await uow.outbox.mark_sent(item.id, "a", 1, moment)
        await uow.commit()
    async with uow_factory() as uow:
        recent = await uow.outbox.sent_since(NOON + timedelta(seconds=10))
    assert recent == [(2, NOON + timedelta(seconds=50))]


async def test_points_names_and_nested_phrases_come_back_as_they_were_stored(
    uow_factory: SqlUnitOfWorkFactory,
) -> None:
    from decimal import Decimal

    from domain.outgoing import Lines, Localized

    seat = Phrase.of(
        "protocol-result-seat-parts",
        seat=1,
        nickname="Ворон",
        total=Decimal("2.30"),
        parts=Lines((Phrase.of("protocol-result-part-extra", points=Decimal("0.3")),), " · "),
    )
    message = OutgoingMessage(
        chat_id=-100_2,
        phrase=Phrase.of(
            "protocol-result",
            stage=Localized("Финал", "Final"),
            game=1,
            table=1,
            winner="red",
            don="10",
            sheriff="7",
            mafia="8, 9",
            seats=Lines((seat,)),
        ),
        dedupe_key="result:1:1",
    )
    async with uow_factory() as uow:
        await uow.outbox.add(message)
        await uow.commit()
    async with uow_factory() as uow:
        (item,) = await uow.outbox.waiting(10)
        (claimed,) = await uow.outbox.claim([item.id], "a")
        await uow.commit()
    assert claimed.message == message


async def test_replicas_claiming_at_once_skip_each_others_rows_instead_of_waiting(
    uow_factory: SqlUnitOfWorkFactory, database_url: str
) -> None:
    if database_url.startswith("sqlite"):
        return  # one writer at a time: a second claim waits for the file, never for a row
    async with uow_factory() as uow:
        for chat_id in (11, 12, 13):
            await uow.outbox.add(OutgoingMessage(chat_id=chat_id, text="Тур 1"))
        await uow.commit()
    async with uow_factory() as first, uow_factory() as second:
        ids = [item.id for item in await first.outbox.waiting(10)]
        # One replica claims the first two and has not committed yet ...
        assert [c.id for c in await first.outbox.claim(ids[:2], "a")] == ids[:2]
        # ... another, claiming all three in the other order, takes the third at once.
        async with asyncio.timeout(WAIT_LIMIT):
            assert [c.id for c in await second.outbox.claim(ids[::-1], "b")] == ids[2:]
        await first.commit()
        await second.commit()
    async with uow_factory() as uow:
        assert await uow.outbox.waiting(10) == []


async def test_a_chat_a_replica_is_sending_to_waits_for_it_whoever_claims_next(
    uow_factory: SqlUnitOfWorkFactory,
) -> None:
    async with uow_factory() as uow:
        for chat_id, text in ((21, "Стол 1"), (21, "Стол 1, исправлено"), (22, "Стол 2")):
            await uow.outbox.add(OutgoingMessage(chat_id=chat_id, text=text))
        await uow.commit()
    async with uow_factory() as uow:
        first, second, other = await uow.outbox.waiting(10)
        await uow.outbox.claim([first.id], "a")
        await uow.commit()
    async with uow_factory() as uow:
        # Another replica sends nothing more to chat 21 while "a" sends its first message.
        assert await uow.outbox.waiting(10, skip_busy_chats=True) == [other]
        assert await uow.outbox.mark_sent(first.id, "a", 7, NOON)
        await uow.commit()
    async with uow_factory() as uow:
        assert await uow.outbox.waiting(10, skip_busy_chats=True) == [second, other]


async def test_an_edit_that_would_change_nothing_is_not_sent_by_another_process(
    uow_factory: SqlUnitOfWorkFactory,
) -> None:
    """What the live table shows is stored with its anchor: a worker of another process (a
    replica, a restart) skips an edit to the same text and keyboard, and sends a changed one."""
    fake = FakeTelegram()
    await fake.start()
    fake.channel(-100, "Кубок")
    bot = Bot(fake.token, session=AiohttpSession(api=TelegramAPIServer.from_base(fake.base_url)))

    async def send_with_a_new_process(text: str) -> None:
        worker = DeliveryWorker(bot, uow_factory, pace=Pace(poll_seconds=0.05), identity=f"p{text}")
        await worker.start()
        async with uow_factory() as uow:
            await uow.outbox.add(OutgoingMessage(chat_id=-100, text=text, edit_key="standings:7"))
            await uow.commit()
        await wait_until_delivered(uow_factory, WAIT_LIMIT, poll_seconds=0.05)
        await worker.stop()

    try:
        for text in ("<b>Таблица</b> 1", "<b>Таблица</b> 1", "<b>Таблица</b> 2"):
            await send_with_a_new_process(text)
    finally:
        await bot.session.close()
        await fake.stop()
    edits = [r.status for r in fake.stats.requests if r.method == "editMessageText"]
    assert edits == [200]  # the changed one only; none refused as "not modified"
    (live,) = fake.messages(-100)
    assert live.text == "Таблица 2"
    async with uow_factory() as uow:
        anchor = await uow.outbox.anchor("standings:7")
        counts = await uow.outbox.status_counts()
    assert anchor is not None and anchor.message_id == live.message_id and anchor.shown
    assert counts == {DeliveryStatus.SENT: 3}


async def test_a_cycle_lets_the_updates_being_handled_go_first_for_a_moment(
    uow_factory: SqlUnitOfWorkFactory,
) -> None:
    """A judge's tap being handled goes before a broadcast: the worker's cycle waits for the
    updates in flight, but never longer than MAKE_WAY_SECONDS (a long one holds nothing up)."""
    fake = FakeTelegram()
    await fake.start()
    fake.user(42, "Игрок").send("/start")  # he opened the bot: it may write to him
    bot = Bot(fake.token, session=AiohttpSession(api=TelegramAPIServer.from_base(fake.base_url)))
    scope = ReplyScope()
    tap_ends = asyncio.Event()
    tap = asyncio.create_task(tap_ends.wait())  # an update that takes the whole test
    scope.handling[tap] = Update(update_id=1)
    async with uow_factory() as uow:
        await uow.outbox.add(OutgoingMessage(chat_id=42, text="Ваш стол: 3"))
        await uow.commit()
    worker = DeliveryWorker(
        bot, uow_factory, pace=Pace(poll_seconds=0.05, updates_quiet=scope.quiet)
    )
    started = time.monotonic()
    try:
        await worker.start()
        await wait_until_delivered(uow_factory, WAIT_LIMIT, poll_seconds=0.05)
        sent = time.monotonic()
        await worker.stop()
    finally:
        tap_ends.set()
        await tap
        await bot.session.close()
        await fake.stop()
    assert [m.text for m in fake.messages(42) if m.from_bot] == ["Ваш стол: 3"]
    assert sent - started >= MAKE_WAY_SECONDS
