"""The outbox: what use cases record, what the worker claims and how each message was settled,
the anchors of messages kept up to date in place, and the chats that refused the bot."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from bot.db.models import MessageAnchorRow, OutboxRow, UnreachableChatRow
from bot.db.repositories.stored_messages import (
    conflict_insert,
    insert_of,
    message_of,
    message_values,
    utc,
)
from domain.outgoing import DeliveryStatus, OutgoingMessage

ERROR_LENGTH = 255
# The two outbox rows `supersede` compares, made once: an alias made at each worker cycle was
# some 200 objects in reference cycles (its copied columns), left to the garbage collector.
_CANDIDATE, _NEWER = aliased(OutboxRow), aliased(OutboxRow)
# The insert of new messages, SQLite's and PostgreSQL's (by `is PostgreSQL`): the rows a
# dedupe key already stored skips are not returned.
_RECORD = {
    postgres: insert_of(postgres, OutboxRow.__table__)
    .on_conflict_do_nothing(index_elements=["dedupe_key"])
    .returning(OutboxRow.__table__.c.id)
    for postgres in (False, True)
}


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

        The insert does nothing on a dedupe key stored already (by this transaction, or by
        another process's committed one). Its statement is built and compiled once
        (`_RECORD`) and run for all the rows (SQLAlchemy's "insertmanyvalues" batches them):
        one built for the rows' values made a bound parameter per cell, some 3,700 objects in
        reference cycles for a round's publication, and a quarter of a second of the event
        loop at 300 players."""
        if not messages:
            return 0
        rows = [
            {
                "status": DeliveryStatus.PENDING.value,
                "attempts": 0,
                "maybe_duplicate": False,
                "dedupe_key": message.dedupe_key,
                "drawn_edit": message.edit_key if message.text_drawing is not None else None,
                **message_values(message),
            }
            for message in messages
        ]
        statement = _RECORD[self._session.get_bind().dialect.name == "postgresql"]
        result = await self._session.execute(statement, rows)
        recorded = len(result.all())
        self.added += recorded
        return recorded

    async def supersede(self, now: datetime) -> int:
        """Settle as superseded every pending edit drawn when sent that a newer pending edit of
        the same posted message (its anchor stored) replaces: only the newest is sent, drawn
        then, showing all the older ones would. Returns how many were superseded.

        The live table gets an edit for every result and every window's close; when the
        channel's limits hold them back, they would otherwise all be drawn and sent in turn."""
        candidate, newer = _CANDIDATE, _NEWER
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
        return [Waiting(id_, chat_id, utc(not_before)) for id_, chat_id, not_before in result]

    async def next_due_time(self) -> datetime | None:
        """When the earliest deferred pending message becomes due."""
        moment = await self._session.scalar(
            select(func.min(OutboxRow.not_before)).where(
                OutboxRow.status == DeliveryStatus.PENDING.value
            )
        )
        return utc(moment)

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
        return [Claimed(row.id, message_of(row), row.attempts, row.maybe_duplicate) for row in rows]

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
        return [(chat_id, utc(finished_at)) for chat_id, finished_at in result]  # type: ignore[misc]

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
        statement = conflict_insert(self._session, MessageAnchorRow).values(key=key, **values)
        await self._session.execute(
            statement.on_conflict_do_update(index_elements=["key"], set_=values)
        )

    async def anchor_message(self, key: str, chat_id: int, message_id: int) -> None:
        """A message a handler sent directly becomes the one edited under `key` (what it
        shows unknown: the next edit is sent)."""
        await self.set_anchor(key, Anchor(chat_id, message_id))

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
