"""The outbox and the scheduled pushes on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.db.repositories.outbox import Anchor
from bot.db.uow import SqlUnitOfWorkFactory
from domain.outgoing import (
    Attachment,
    Button,
    DeliveryStatus,
    Html,
    OutgoingMessage,
    Phrase,
    ScheduledPush,
)
from domain.tournament import Tournament, TournamentState
from domain.users import User

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
        phrase=Phrase.of("delivery-uncertain", tournament="Кубок", name=Html("<b>x</b>")),
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
        buttons=((Button(Phrase.of("command-help"), callback_data="h"),),),
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
        claimed = await uow.outbox.claim(item.id)
        assert await uow.outbox.claim(item.id) is None
        await uow.commit()
    assert claimed is not None and claimed.message == message and claimed.attempts == 1
    async with uow_factory() as uow:
        assert await uow.outbox.waiting(10) == []
        await uow.outbox.mark_sent(claimed.id, 42, NOON)
        await uow.commit()
    async with uow_factory() as uow:
        assert await uow.outbox.status_of("standings:1") is DeliveryStatus.SENT


async def test_a_message_put_back_waits_for_its_time(uow_factory: SqlUnitOfWorkFactory) -> None:
    async with uow_factory() as uow:
        await uow.outbox.add(OutgoingMessage(chat_id=3, text="x"))
        await uow.commit()
    async with uow_factory() as uow:
        (item,) = await uow.outbox.waiting(10)
        await uow.outbox.claim(item.id)
        await uow.outbox.retry_later(item.id, NOON + timedelta(seconds=3), "429")
        await uow.commit()
    async with uow_factory() as uow:
        (again,) = await uow.outbox.waiting(10)
        assert again.not_before == NOON + timedelta(seconds=3)
        assert await uow.outbox.next_due_time() == NOON + timedelta(seconds=3)


async def test_messages_in_flight_at_a_crash_become_uncertain(
    uow_factory: SqlUnitOfWorkFactory,
) -> None:
    async with uow_factory() as uow:
        for chat_id in (1, 2):
            await uow.outbox.add(OutgoingMessage(chat_id=chat_id, text="x"))
        await uow.commit()
    async with uow_factory() as uow:
        first, _ = await uow.outbox.waiting(10)
        await uow.outbox.claim(first.id)
        await uow.commit()
    async with uow_factory() as uow:
        interrupted = await uow.outbox.mark_interrupted(NOON)
        await uow.commit()
    assert [claimed.message.chat_id for claimed in interrupted] == [1]
    async with uow_factory() as uow:
        assert [item.chat_id for item in await uow.outbox.waiting(10)] == [2]
        counts = await uow.outbox.status_counts()
    assert counts == {DeliveryStatus.UNCERTAIN: 1, DeliveryStatus.PENDING: 1}


async def test_anchors_and_unreachable_chats_are_remembered(
    uow_factory: SqlUnitOfWorkFactory,
) -> None:
    async with uow_factory() as uow:
        await uow.outbox.set_anchor("standings:7", Anchor(-100, 10))
        await uow.outbox.set_anchor("standings:7", Anchor(-100, 11))
        assert await uow.outbox.mark_unreachable(5, "blocked", NOON) is True
        assert await uow.outbox.mark_unreachable(5, "blocked", NOON) is False
        await uow.commit()
    async with uow_factory() as uow:
        assert await uow.outbox.anchor("standings:7") == Anchor(-100, 11)
        assert await uow.outbox.unreachable_chats() == {5}
        await uow.outbox.mark_reachable(5)
        await uow.commit()
    async with uow_factory() as uow:
        assert await uow.outbox.unreachable_chats() == set()


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
    heard: list[frozenset[str]] = []
    uow_factory.add_commit_listener(heard.append)
    async with uow_factory() as uow:
        await uow.users.save(User(5, "Anna", None, None, "ru"))
        await uow.commit()
    async with uow_factory() as uow:
        await uow.outbox.add(OutgoingMessage(chat_id=5, text="x"))
        await uow.scheduled_pushes.schedule(ScheduledPush("k", NOON, _reminder(5, 1)))
        await uow.commit()
    assert heard == [frozenset({"outbox", "scheduled_pushes"})]


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
            await uow.outbox.claim(item.id)
            await uow.outbox.mark_sent(item.id, 1, moment)
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
        claimed = await uow.outbox.claim(item.id)
        await uow.commit()
    assert claimed is not None and claimed.message == message
