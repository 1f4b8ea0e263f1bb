"""The outbox and the scheduled pushes: what use cases record, and what the worker claims."""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from bot.db.models import MessageAnchorRow, OutboxRow, ScheduledPushRow, UnreachableChatRow
from bot.db.models.outbox import _MessageColumns
from bot.db.planned import tell_planned
from domain.intents import (
    CheckIn,
    DecideProtest,
    FileProtest,
    Intent,
    OpenLot,
    OpenProtocol,
    ProtestChoice,
    intent_fields,
    intent_of,
)
from domain.outgoing import (
    ArgumentValue,
    Attachment,
    Button,
    DeliveryStatus,
    Drawing,
    Html,
    Lines,
    Localized,
    OutgoingMessage,
    Phrase,
    ScheduledPush,
)

ERROR_LENGTH = 255
# Rows written by one INSERT (well under SQLite's and asyncpg's limits on bound parameters).
BATCH = 500


def _utc(moment: datetime | None) -> datetime | None:
    # SQLite hands back naive datetimes; everything is stored in UTC.
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)


# --- the stored form of a message ------------------------------------------------------------


def _argument_json(value: ArgumentValue) -> Any:
    match value:
        case Html():
            return {"html": value.markup}
        case Decimal():
            return {"points": str(value)}
        case Localized():
            return {"ru": value.ru, "en": value.en}
        case Phrase():
            return {"phrase": _phrase_json(value)}
        case Lines():
            lines = [_phrase_json(phrase) for phrase in value.phrases]
            return {"lines": lines, "separator": value.separator}
    return value


def _argument(value: Any) -> ArgumentValue:
    if not isinstance(value, dict):
        return value
    if "html" in value:
        return Html(value["html"])
    if "points" in value:
        return Decimal(value["points"])
    if "phrase" in value:
        return _phrase(value["phrase"])
    if "lines" in value:
        return Lines(tuple(_phrase(phrase) for phrase in value["lines"]), value["separator"])
    return Localized(value["ru"], value["en"])


def _phrase_json(phrase: Phrase) -> dict[str, Any]:
    return {"key": phrase.key, "args": [[name, _argument_json(v)] for name, v in phrase.args]}


def _phrase(data: dict[str, Any]) -> Phrase:
    return Phrase(data["key"], tuple((name, _argument(value)) for name, value in data["args"]))


def _button_json(button: Button) -> dict[str, Any]:
    text = _phrase_json(button.text) if isinstance(button.text, Phrase) else button.text
    intent = intent_fields(button.intent) if button.intent is not None else None
    return {"text": text, "intent": intent, "url": button.url}


def _drawing_json(drawing: Drawing) -> dict[str, Any]:
    return {"drawer": drawing.drawer, "args": [[name, value] for name, value in drawing.args]}


def _drawing(data: dict[str, Any] | None) -> Drawing | None:
    if data is None:
        return None
    return Drawing(data["drawer"], tuple((name, value) for name, value in data["args"]))


def _legacy_intent(callback_data: str) -> Intent:
    """The intent of a button stored as callback data (rows written before intents, such as
    reminders scheduled hours ahead): the five kinds those buttons had."""
    prefix, *rest = callback_data.split(":")
    if prefix == "pp":
        return OpenProtocol(int(rest[0]))
    if prefix == "lo":
        return OpenLot(int(rest[0]))
    if prefix == "pt":
        return FileProtest(int(rest[0]))
    if prefix == "pd":
        return DecideProtest(int(rest[0]), ProtestChoice(rest[1]))
    if prefix == "ci":
        return CheckIn(int(rest[0]))
    raise ValueError(f"a stored button with unknown callback data {callback_data!r}")


def _button(data: dict[str, Any]) -> Button:
    text = _phrase(data["text"]) if isinstance(data["text"], dict) else data["text"]
    if data.get("callback_data") is not None:
        return Button(text, _legacy_intent(data["callback_data"]), data["url"])
    intent = intent_of(data["intent"]) if data.get("intent") is not None else None
    return Button(text, intent, data["url"])


def _body(message: OutgoingMessage) -> str:
    """Everything but the chat, the tournament and the attachment, as JSON."""
    return json.dumps(
        {
            "phrase": _phrase_json(message.phrase) if message.phrase else None,
            "text": message.text,
            "buttons": [[_button_json(button) for button in row] for row in message.buttons],
            "edit_key": message.edit_key,
            "pin": message.pin,
            "dedupe_key": message.dedupe_key,
            "drawing": _drawing_json(message.attachment.drawing)
            if message.attachment and message.attachment.drawing
            else None,
            "text_drawing": _drawing_json(message.text_drawing) if message.text_drawing else None,
        },
        ensure_ascii=False,
    )


def _message_values(message: OutgoingMessage) -> dict[str, Any]:
    """The stored columns of a message (`_MessageColumns`)."""
    attachment = message.attachment
    return {
        "chat_id": message.chat_id,
        "tournament_id": message.tournament_id,
        "body": _body(message),
        "attachment_kind": attachment.kind if attachment else None,
        "attachment_name": attachment.filename if attachment else None,
        "attachment": attachment.content if attachment else None,
    }


def _insert(
    session: AsyncSession, table: type[OutboxRow] | type[ScheduledPushRow] | type[MessageAnchorRow]
) -> Any:
    """An INSERT that can do nothing, or update, on a conflict (SQLite's and PostgreSQL's)."""
    if session.get_bind().dialect.name == "postgresql":
        return postgresql.insert(table)
    return sqlite.insert(table)


def _message(row: _MessageColumns) -> OutgoingMessage:
    data = json.loads(row.body)
    attachment = None
    if row.attachment_kind is not None:
        attachment = Attachment(
            row.attachment_kind,  # type: ignore[arg-type]
            row.attachment or b"",
            row.attachment_name or "",
            _drawing(data.get("drawing")),
        )
    return OutgoingMessage(
        chat_id=row.chat_id,
        phrase=_phrase(data["phrase"]) if data["phrase"] else None,
        text=data["text"],
        buttons=tuple(tuple(_button(b) for b in line) for line in data["buttons"]),
        attachment=attachment,
        edit_key=data["edit_key"],
        pin=data["pin"],
        tournament_id=row.tournament_id,
        dedupe_key=data["dedupe_key"],
        text_drawing=_drawing(data.get("text_drawing")),
    )


# --- the outbox ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Waiting:
    """A pending outbox message as the worker's queue sees it (no body loaded)."""

    id: int
    chat_id: int
    not_before: datetime | None


@dataclass(frozen=True, slots=True)
class Claimed:
    """An outbox message the worker has claimed and is about to send."""

    id: int
    message: OutgoingMessage
    attempts: int
    maybe_duplicate: bool = False


@dataclass(frozen=True, slots=True)
class Problem:
    """A message of a tournament that was not delivered for sure, for the organizer's digest."""

    id: int
    tournament_id: int
    chat_id: int
    status: DeliveryStatus


@dataclass(frozen=True, slots=True)
class Anchor:
    """Where a message kept up to date in place lives, and a digest of what it shows as last
    sent (`shown`; None when unknown)."""

    chat_id: int
    message_id: int
    shown: str | None = None


class SqlOutbox:
    """Use cases `add` messages; the delivery worker claims and marks them.

    `added` counts the messages this unit of work stored, so a commit can wake the worker.
    """

    def __init__(self, session: AsyncSession) -> None:
        self._session = session
        self.added = 0

    async def add(self, message: OutgoingMessage) -> bool:
        """Record a message to send; False when one with the same `dedupe_key` is stored."""
        return await self.add_many([message]) == 1

    async def add_many(self, messages: Sequence[OutgoingMessage]) -> int:
        """Record messages to send, in their order; returns how many were recorded (a message
        whose `dedupe_key` is stored already is not).

        One statement per `BATCH` messages: the insert does nothing on a dedupe key stored
        already (by this transaction, or by another process's committed one)."""
        recorded = 0
        for start in range(0, len(messages), BATCH):
            rows = [
                {
                    "status": DeliveryStatus.PENDING.value,
                    "attempts": 0,
                    "maybe_duplicate": False,
                    "dedupe_key": message.dedupe_key,
                    "drawn_edit": message.edit_key if message.text_drawing is not None else None,
                    **_message_values(message),
                }
                for message in messages[start : start + BATCH]
            ]
            statement = (
                _insert(self._session, OutboxRow)
                .values(rows)
                .on_conflict_do_nothing(index_elements=["dedupe_key"])
            )
            result = await self._session.execute(statement)
            recorded += result.rowcount  # type: ignore[attr-defined]
        self.added += recorded
        return recorded

    async def supersede(self, now: datetime) -> int:
        """Settle as superseded every pending edit drawn when sent that a newer pending edit of
        the same posted message (its anchor stored) replaces: only the newest is sent, drawn
        then, showing all the older ones would. Returns how many were superseded.

        The live table gets an edit for every result and every window's close; when the
        channel's limits hold them back, they would otherwise all be drawn and sent in turn."""
        candidate, newer = aliased(OutboxRow), aliased(OutboxRow)
        # The rows another replica is superseding at this moment are left to it (skipped, not
        # waited for): two replicas locking the same edits in their own orders deadlocked.
        replaced = (
            select(candidate.id)
            .where(
                candidate.status == DeliveryStatus.PENDING.value,
                candidate.drawn_edit.is_not(None),
                select(MessageAnchorRow.key)
                .where(
                    MessageAnchorRow.key == candidate.drawn_edit,
                    MessageAnchorRow.chat_id == candidate.chat_id,
                )
                .exists(),
                select(newer.id)
                .where(
                    newer.drawn_edit == candidate.drawn_edit,
                    newer.chat_id == candidate.chat_id,
                    newer.status == DeliveryStatus.PENDING.value,
                    newer.id > candidate.id,
                )
                .exists(),
            )
            .with_for_update(skip_locked=True)
        )
        statement = (
            update(OutboxRow)
            .where(OutboxRow.id.in_(replaced.scalar_subquery()))
            .values(status=DeliveryStatus.SUPERSEDED.value, finished_at=now)
            .execution_options(synchronize_session=False)
        )
        result = await self._session.execute(statement)
        return result.rowcount  # type: ignore[attr-defined]

    async def waiting(self, limit: int, *, skip_busy_chats: bool = False) -> list[Waiting]:
        """Pending messages, oldest first (due or not: order within a chat must hold); with
        `skip_busy_chats`, none to a chat that a message is being sent to (by any process: two
        replicas sending one chat's messages at once would break their order, and an edit in
        place would go out as a new message before the one it edits was sent)."""
        statement = select(OutboxRow.id, OutboxRow.chat_id, OutboxRow.not_before).where(
            OutboxRow.status == DeliveryStatus.PENDING.value
        )
        if skip_busy_chats:
            busy = select(OutboxRow.chat_id).where(OutboxRow.status == DeliveryStatus.SENDING.value)
            statement = statement.where(OutboxRow.chat_id.not_in(busy))
        result = await self._session.execute(statement.order_by(OutboxRow.id).limit(limit))
        return [Waiting(id_, chat_id, _utc(not_before)) for id_, chat_id, not_before in result]

    async def next_due_time(self) -> datetime | None:
        """When the earliest deferred pending message becomes due."""
        moment = await self._session.scalar(
            select(func.min(OutboxRow.not_before)).where(
                OutboxRow.status == DeliveryStatus.PENDING.value
            )
        )
        return _utc(moment)

    async def claim(self, message_ids: Collection[int], holder: str) -> list[Claimed]:
        """Mark pending messages as being sent by `holder`; the ones someone else took first
        are left out. Returned in the order of their ids."""
        if not message_ids:
            return []
        # Rows another process is claiming this moment are skipped, not waited for: two
        # replicas claiming overlapping rows in different orders would deadlock (PostgreSQL;
        # SQLite has one writer and no row locks).
        free = (
            select(OutboxRow.id)
            .where(
                OutboxRow.id.in_(list(message_ids)),
                OutboxRow.status == DeliveryStatus.PENDING.value,
            )
            .with_for_update(skip_locked=True)
        )
        taken = await self._session.scalars(
            update(OutboxRow)
            .where(
                OutboxRow.id.in_(free.scalar_subquery()),
                OutboxRow.status == DeliveryStatus.PENDING.value,
            )
            .values(
                status=DeliveryStatus.SENDING.value,
                attempts=OutboxRow.attempts + 1,
                claimed_by=holder,
            )
            .returning(OutboxRow.id)
        )
        return await self._claimed(set(taken))

    async def take_over(self, holder: str, alive: Collection[str], now: datetime) -> list[Claimed]:
        """Messages left "sending" by a process no longer alive (none of `alive`) become
        `holder`'s, for the delivery promise to settle; a live process's are never touched."""
        owners = {*alive, holder}
        taken = await self._session.scalars(
            update(OutboxRow)
            .where(
                OutboxRow.status == DeliveryStatus.SENDING.value,
                or_(OutboxRow.claimed_by.is_(None), OutboxRow.claimed_by.not_in(list(owners))),
            )
            .values(claimed_by=holder, finished_at=now.astimezone(UTC))
            .returning(OutboxRow.id)
        )
        return await self._claimed(set(taken))

    async def _claimed(self, ids: set[int]) -> list[Claimed]:
        if not ids:
            return []
        rows = await self._session.scalars(
            select(OutboxRow)
            .where(OutboxRow.id.in_(list(ids)))
            .order_by(OutboxRow.id)
            .execution_options(populate_existing=True)
        )
        return [Claimed(row.id, _message(row), row.attempts, row.maybe_duplicate) for row in rows]

    async def mark_sent(
        self,
        message_id: int,
        holder: str,
        telegram_message_id: int,
        now: datetime,
        *,
        maybe_duplicate: bool = False,
    ) -> bool:
        """Record that a message went out (`maybe_duplicate`: one of its requests was sent
        again after a lost answer); False when `holder` no longer owns it."""
        if maybe_duplicate:
            return await self._settle(
                message_id,
                holder,
                status=DeliveryStatus.SENT.value,
                finished_at=now.astimezone(UTC),
                telegram_message_id=telegram_message_id,
                maybe_duplicate=True,
            )
        return await self._finish(message_id, holder, DeliveryStatus.SENT, now, telegram_message_id)

    async def mark_failed(
        self, message_id: int, holder: str, status: DeliveryStatus, now: datetime, error: str
    ) -> bool:
        """Record that a message will never be sent again (unreachable chat, rejected message,
        uncertain); False when `holder` no longer owns it."""
        return await self._finish(message_id, holder, status, now, None, error)

    async def _finish(
        self,
        message_id: int,
        holder: str,
        status: DeliveryStatus,
        now: datetime,
        telegram_message_id: int | None,
        error: str | None = None,
    ) -> bool:
        return await self._settle(
            message_id,
            holder,
            status=status.value,
            finished_at=now.astimezone(UTC),
            telegram_message_id=telegram_message_id,
            error=error[:ERROR_LENGTH] if error else None,
        )

    async def retry_later(
        self,
        message_id: int,
        holder: str,
        not_before: datetime,
        error: str,
        *,
        maybe_duplicate: bool = False,
    ) -> bool:
        """Put a claimed message back in the queue until `not_before`; `maybe_duplicate` when
        its earlier request may have reached Telegram. False when `holder` no longer owns it."""
        values: dict[str, Any] = {
            "status": DeliveryStatus.PENDING.value,
            "not_before": not_before.astimezone(UTC),
            "error": error[:ERROR_LENGTH],
            "claimed_by": None,
        }
        if maybe_duplicate:
            values["maybe_duplicate"] = True
        return await self._settle(message_id, holder, **values)

    async def _settle(self, message_id: int, holder: str, **values: Any) -> bool:
        # Only the process holding the claim may settle it: a late answer after another
        # process took the message over changes nothing.
        result = await self._session.execute(
            update(OutboxRow)
            .where(
                OutboxRow.id == message_id,
                OutboxRow.status == DeliveryStatus.SENDING.value,
                OutboxRow.claimed_by == holder,
            )
            .values(**values)
        )
        return result.rowcount == 1  # type: ignore[attr-defined]

    async def unreported(self) -> list[Problem]:
        """Undelivered (unreachable) and uncertain messages of tournaments that the organizer's
        digest has not named yet, oldest first."""
        result = await self._session.execute(
            select(OutboxRow.id, OutboxRow.tournament_id, OutboxRow.chat_id, OutboxRow.status)
            .where(
                OutboxRow.status.in_(
                    [DeliveryStatus.UNREACHABLE.value, DeliveryStatus.UNCERTAIN.value]
                ),
                OutboxRow.reported_at.is_(None),
                OutboxRow.tournament_id.is_not(None),
            )
            .order_by(OutboxRow.id)
        )
        return [
            Problem(id_, tournament_id, chat_id, DeliveryStatus(status))
            for id_, tournament_id, chat_id, status in result
            if tournament_id is not None  # the query's filter, told to the type checker
        ]

    async def busy_tournaments(self, tournament_ids: Collection[int]) -> set[int]:
        """The tournaments among `tournament_ids` with messages still waiting or being sent."""
        if not tournament_ids:
            return set()
        result = await self._session.scalars(
            select(OutboxRow.tournament_id)
            .where(
                OutboxRow.tournament_id.in_(list(tournament_ids)),
                OutboxRow.status.in_([DeliveryStatus.PENDING.value, DeliveryStatus.SENDING.value]),
            )
            .distinct()
        )
        return {tournament_id for tournament_id in result if tournament_id is not None}

    async def mark_reported(self, message_ids: Collection[int], now: datetime) -> None:
        """The organizer's digest names these messages."""
        if message_ids:
            await self._session.execute(
                update(OutboxRow)
                .where(OutboxRow.id.in_(list(message_ids)))
                .values(reported_at=now.astimezone(UTC))
            )

    async def sent_since(self, moment: datetime) -> list[tuple[int, datetime]]:
        """(chat, when) of every message that went out after `moment`: the windows of Telegram's
        limits outlive a restart."""
        result = await self._session.execute(
            select(OutboxRow.chat_id, OutboxRow.finished_at).where(
                OutboxRow.status.in_([DeliveryStatus.SENT.value, DeliveryStatus.UNCERTAIN.value]),
                OutboxRow.finished_at > moment.astimezone(UTC),
            )
        )
        return [(chat_id, _utc(finished_at)) for chat_id, finished_at in result]  # type: ignore[misc]

    async def status_counts(self) -> dict[DeliveryStatus, int]:
        """How many messages stand in each status."""
        result = await self._session.execute(
            select(OutboxRow.status, func.count()).group_by(OutboxRow.status)
        )
        return {DeliveryStatus(status): count for status, count in result}

    async def failure_reasons(self) -> dict[str, int]:
        """Why the failed messages failed (their stored errors), with how many failed so."""
        result = await self._session.execute(
            select(OutboxRow.error, func.count())
            .where(OutboxRow.status == DeliveryStatus.FAILED.value)
            .group_by(OutboxRow.error)
        )
        return {error or "": count for error, count in result}

    async def maybe_duplicates(self) -> set[int]:
        """The ids of the messages sent again after a lost answer (the recipient may have two)."""
        return set(
            await self._session.scalars(select(OutboxRow.id).where(OutboxRow.maybe_duplicate))
        )

    async def status_of(self, dedupe_key: str) -> DeliveryStatus | None:
        """The status of the message stored under a dedupe key."""
        status = await self._session.scalar(
            select(OutboxRow.status).where(OutboxRow.dedupe_key == dedupe_key)
        )
        return DeliveryStatus(status) if status else None

    # --- messages edited in place ------------------------------------------------------------

    async def anchor(self, key: str) -> Anchor | None:
        found = await self._session.execute(
            select(
                MessageAnchorRow.chat_id, MessageAnchorRow.message_id, MessageAnchorRow.shown_digest
            ).where(MessageAnchorRow.key == key)
        )
        row = found.first()
        return Anchor(row.chat_id, row.message_id, row.shown_digest) if row else None

    async def set_anchor(self, key: str, anchor: Anchor) -> None:
        """Remember where the message under `key` lives and what it shows (one statement: the
        latest wins)."""
        values = {
            "chat_id": anchor.chat_id,
            "message_id": anchor.message_id,
            "shown_digest": anchor.shown,
        }
        statement = _insert(self._session, MessageAnchorRow).values(key=key, **values)
        await self._session.execute(
            statement.on_conflict_do_update(index_elements=["key"], set_=values)
        )

    # --- people the bot cannot write to ------------------------------------------------------

    async def mark_unreachable(self, chat_id: int, reason: str, now: datetime) -> bool:
        """Remember a chat the bot cannot write to; False when it was already known."""
        if await self._session.get(UnreachableChatRow, chat_id) is not None:
            return False
        self._session.add(
            UnreachableChatRow(chat_id=chat_id, since=now, reason=reason[:ERROR_LENGTH])
        )
        await self._session.flush()
        return True

    async def mark_reachable(self, chat_id: int) -> None:
        await self._session.execute(
            delete(UnreachableChatRow).where(UnreachableChatRow.chat_id == chat_id)
        )

    async def is_unreachable(self, chat_id: int) -> bool:
        return await self._session.get(UnreachableChatRow, chat_id) is not None

    async def unreachable_chats(self) -> set[int]:
        return set(await self._session.scalars(select(UnreachableChatRow.chat_id)))


# --- scheduled pushes ------------------------------------------------------------------------


class SqlScheduledPushes:
    """Pushes waiting for their time; `changed` tells a commit to wake this process's
    scheduler, and a push planned tells every process's (`bot.db.planned`), as `sender`."""

    def __init__(self, session: AsyncSession, sender: str = "") -> None:
        self._session = session
        self._sender = sender
        self.told = False  # the others were told in this transaction
        self.changed = False

    async def schedule(self, push: ScheduledPush) -> None:
        """Store a push, replacing the one with the same key (a moved timetable moves it)."""
        await self.schedule_many([push])

    async def schedule_many(self, pushes: Sequence[ScheduledPush]) -> None:
        """Store pushes, each replacing the one with its key (the last of a repeated key
        counts): one statement per `BATCH` pushes."""
        by_key = {push.key: push for push in pushes}
        rows = [
            {"key": key, "due_at": push.due_at.astimezone(UTC), **_message_values(push.message)}
            for key, push in by_key.items()
        ]
        for start in range(0, len(rows), BATCH):
            statement = _insert(self._session, ScheduledPushRow).values(rows[start : start + BATCH])
            replaced = {column: statement.excluded[column] for column in rows[0] if column != "key"}
            await self._session.execute(
                statement.on_conflict_do_update(index_elements=["key"], set_=replaced)
            )
        if rows:
            self.changed = True
            if not self.told:  # once a transaction: the scheduler reads every due time anyway
                self.told = True
                await tell_planned(self._session, self._sender)

    async def cancel(self, key: str) -> None:
        """Forget a push that has not become due yet (nothing happens if there is none)."""
        await self._session.execute(delete(ScheduledPushRow).where(ScheduledPushRow.key == key))
        self.changed = True

    async def waiting(self, *key_prefixes: str) -> dict[str, ScheduledPush]:
        """The waiting pushes whose keys start with one of `key_prefixes` (one tournament's,
        one round's), by key."""
        rows = await self._session.scalars(
            select(ScheduledPushRow)
            .where(or_(*(ScheduledPushRow.key.startswith(prefix) for prefix in key_prefixes)))
            # `schedule` writes without the ORM: rows read before in this session are stale.
            .execution_options(populate_existing=True)
        )
        return {row.key: _scheduled_push(row) for row in rows}

    async def cancel_many(self, keys: Collection[str]) -> None:
        """Forget several waiting pushes at once."""
        if keys:
            await self._session.execute(
                delete(ScheduledPushRow).where(ScheduledPushRow.key.in_(list(keys)))
            )
            self.changed = True

    async def due_times(self) -> dict[str, datetime]:
        """Every waiting push's due time by key."""
        result = await self._session.execute(select(ScheduledPushRow.key, ScheduledPushRow.due_at))
        return {key: _utc(due_at) for key, due_at in result}  # type: ignore[misc]

    async def next_due_time(self) -> datetime | None:
        """When the earliest waiting push falls due."""
        return _utc(await self._session.scalar(select(func.min(ScheduledPushRow.due_at))))

    async def get(self, key: str) -> ScheduledPush | None:
        row = await self._session.scalar(
            select(ScheduledPushRow)
            .where(ScheduledPushRow.key == key)
            .execution_options(populate_existing=True)
        )
        return _scheduled_push(row) if row else None

    async def take_due(self, now: datetime) -> list[ScheduledPush]:
        """Remove and return the pushes due by `now`; a push another sweep took is skipped."""
        rows = (
            await self._session.scalars(
                select(ScheduledPushRow)
                .where(ScheduledPushRow.due_at <= now.astimezone(UTC))
                .order_by(ScheduledPushRow.due_at, ScheduledPushRow.id)
                .execution_options(populate_existing=True)
            )
        ).all()
        if not rows:
            return []
        # One statement: what another sweep deleted first is not returned, so not taken.
        deleted = set(
            await self._session.scalars(
                delete(ScheduledPushRow)
                .where(ScheduledPushRow.id.in_([row.id for row in rows]))
                .returning(ScheduledPushRow.id)
            )
        )
        taken = [_scheduled_push(row) for row in rows if row.id in deleted]
        if taken:
            self.changed = True
        return taken


def _scheduled_push(row: ScheduledPushRow) -> ScheduledPush:
    return ScheduledPush(row.key, _utc(row.due_at), _message(row))  # type: ignore[arg-type]
