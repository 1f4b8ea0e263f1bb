"""The delivery promise checked after a run: the outbox's statuses against the copies the fake
Telegram saw of each message (a duplicate the outbox did not flag is beyond the promise)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from sqlalchemy import select

from bot.db.models import OutboxRow
from bot.db.uow import SqlUnitOfWorkFactory
from bot.delivery.worker import wait_until_delivered
from domain.outgoing import DeliveryStatus
from harness.fake_telegram import FakeTelegram

DELIVERY_WAIT = 900.0
# A possible duplicate shows within this long of its first copy (a retry, a lease taken over).
DUPLICATE_WINDOW = 180.0


@dataclass(frozen=True)
class Delivered:
    """The outbox after the run, and the copies the fake saw of each message it sent."""

    statuses: dict[DeliveryStatus, int]
    failures: dict[str, int]  # why messages failed, with how many failed so
    maybe_duplicates: int
    duplicates: int  # messages the fake shows twice
    duplicates_beyond_promise: int  # of those, the ones the outbox did not record as possible
    lost: int  # sent according to the outbox, missing from the chat
    reminders: int  # scheduled pushes moved into the outbox
    reminders_twice: int  # scheduled pushes moved into the outbox more than once


async def delivered(uow_factory: SqlUnitOfWorkFactory) -> None:
    """Wait until the outbox has sent everything recorded (a killed replica's messages are
    settled by another once its lease runs out)."""
    await wait_until_delivered(uow_factory, DELIVERY_WAIT, poll_seconds=0.2)


SENDS = frozenset({"sendMessage", "sendPhoto", "sendDocument", "sendMediaGroup"})


def _sends(fake: FakeTelegram) -> dict[int, dict[int, tuple[str | None, float]]]:
    """What the fake carried out: every message the bot sent (its text and when), by chat and
    message id."""
    sends: dict[int, dict[int, tuple[str | None, float]]] = defaultdict(dict)
    for record in fake.stats.requests:
        chat_id, message_id = record.chat_id, record.message_id
        sent = record.method in SENDS and record.status == 200
        if sent and message_id is not None and isinstance(chat_id, int):
            sends[chat_id][message_id] = (record.text, record.at)
    return sends


async def delivery_check(uow_factory: SqlUnitOfWorkFactory, fake: FakeTelegram) -> Delivered:
    async with uow_factory() as uow:
        statuses = await uow.outbox.status_counts()
        failures = await uow.outbox.failure_reasons()
        maybe = await uow.outbox.maybe_duplicates()
        rows = (
            await uow.session.execute(
                select(
                    OutboxRow.id,
                    OutboxRow.chat_id,
                    OutboxRow.telegram_message_id,
                    OutboxRow.body,
                    OutboxRow.status,
                )
            )
        ).all()
    sends = _sends(fake)
    sent_rows = {
        (chat_id, telegram_id)
        for _, chat_id, telegram_id, body, status in rows
        if status == DeliveryStatus.SENT.value
    }
    lost = duplicates = beyond = reminders = 0
    bodies: dict[tuple[int, str], int] = defaultdict(int)
    for row_id, chat_id, telegram_id, body, status in rows:
        if '"key": "reminder-' in body:
            reminders += 1
            bodies[(chat_id, body)] += 1
        if status != DeliveryStatus.SENT.value or '"edit_key": null' not in body:
            continue  # an edit in place is sent again freely: editing twice shows nothing twice
        chat = sends[chat_id]
        if telegram_id not in chat:
            lost += 1
            continue
        text, at = chat[telegram_id]
        copies = [
            message_id
            for message_id, (other, other_at) in chat.items()
            if message_id != telegram_id
            and (chat_id, message_id) not in sent_rows
            and other == text
            and abs(other_at - at) < DUPLICATE_WINDOW
        ]
        duplicates += len(copies)
        if row_id not in maybe:
            beyond += len(copies)
    return Delivered(
        statuses=statuses,
        failures=failures,
        maybe_duplicates=len(maybe),
        duplicates=duplicates,
        duplicates_beyond_promise=beyond,
        lost=lost,
        reminders=reminders,
        reminders_twice=sum(count - 1 for count in bodies.values() if count > 1),
    )
