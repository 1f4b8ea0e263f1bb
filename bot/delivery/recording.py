"""What became of the messages sent, recorded in the outbox: sent (with the anchor of a
message kept up to date in place), back in the queue, or settled for good; a message settled
by another process meanwhile is left as it is."""

from __future__ import annotations

import logging

from bot import metrics
from bot.db.repositories.outbox import Anchor
from bot.db.uow import SqlUnitOfWork
from bot.delivery.digests import tell_failed
from bot.delivery.jobs import Outcome
from domain.outgoing import DeliveryStatus

log = logging.getLogger(__name__)


class Recorder:
    """Records outcomes under this process's `identity`, knowing which people refused a
    message (`unreachable`) and whether the organizer's digests are due."""

    def __init__(self, identity: str) -> None:
        self.identity = identity
        self.unreachable: set[int] = set()
        self.digests_due = True

    async def record_all(self, uow: SqlUnitOfWork, outcomes: list[Outcome]) -> None:
        for outcome in outcomes:
            await self.record(uow, outcome)

    async def record(self, uow: SqlUnitOfWork, outcome: Outcome) -> None:
        """Settle the message as its outcome says, if this process still owns it."""
        claimed, message = outcome.claimed, outcome.claimed.message
        outbox = uow.outbox
        if outcome.status is DeliveryStatus.SENT:
            assert outcome.telegram_id is not None
            owned = await outbox.mark_sent(
                claimed.id,
                self.identity,
                outcome.telegram_id,
                outcome.at,
                maybe_duplicate=outcome.maybe_duplicate,
            )
        elif outcome.status is DeliveryStatus.PENDING:
            assert outcome.not_before is not None and outcome.error is not None
            owned = await outbox.retry_later(
                claimed.id,
                self.identity,
                outcome.not_before,
                outcome.error,
                maybe_duplicate=outcome.maybe_duplicate,
            )
        else:
            owned = await outbox.mark_failed(
                claimed.id, self.identity, outcome.status, outcome.at, outcome.error or ""
            )
        if not owned:
            log.warning(
                "outbox message %s was settled by another process meanwhile: %s not recorded",
                claimed.id,
                outcome.status,
            )
            return
        if outcome.status is not DeliveryStatus.PENDING:
            metrics.deliveries.labels(outcome.status.value).inc()
        if outcome.status is DeliveryStatus.SENT:
            if message.edit_key is not None:
                await outbox.set_anchor(
                    message.edit_key,
                    Anchor(message.chat_id, outcome.telegram_id or 0, outcome.shown),
                )
            if message.chat_id in self.unreachable:
                await outbox.mark_reachable(message.chat_id)
                self.unreachable.discard(message.chat_id)
        elif outcome.status is DeliveryStatus.UNREACHABLE:
            await outbox.mark_unreachable(message.chat_id, outcome.error or "", outcome.at)
            self.unreachable.add(message.chat_id)
        if outcome.status in (DeliveryStatus.UNREACHABLE, DeliveryStatus.UNCERTAIN):
            self.digests_due = True
        if outcome.status is DeliveryStatus.UNCERTAIN:
            log.warning(
                "outbox message %s to %s uncertain: %s", claimed.id, message.chat_id, outcome.error
            )
        elif outcome.status is DeliveryStatus.FAILED:
            log.error(
                "outbox message %s to %s failed: %s", claimed.id, message.chat_id, outcome.error
            )
            await tell_failed(uow, claimed, outcome.error or "")
