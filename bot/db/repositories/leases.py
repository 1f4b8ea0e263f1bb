"""Leases shared by the bot's processes through the database, and the webhook updates taken."""

from __future__ import annotations

import os
import socket
from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import HandledUpdateRow, LeaseRow

# The holders that took a lease in this process: alive, whatever their pid says.
_HOLDERS_HERE: set[str] = set()


def holder_gone(holder: str) -> bool:
    """Whether `holder` ("host:pid:random", `process_identity`) is a process of this host that
    no longer runs: killed (`kill -9`, a power cut) before it could give its leases up. A pid
    that runs again (reused, or this very process's after a container's restart) counts as gone
    only when no holder of this process has that name."""
    host, _, rest = holder.partition(":")
    pid_text = rest.partition(":")[0]
    if host != socket.gethostname()[:40] or not pid_text.isdigit() or holder in _HOLDERS_HERE:
        return False
    pid = int(pid_text)
    if pid == os.getpid():
        return True  # this pid, but not one of this process's holders: an earlier process
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False  # another user's process runs with that pid
    return False


class SqlLeases:
    """A named role (the scheduler, the polling process, a worker being alive) is held by one
    process until its lease runs out; its holder renews it, anyone may take it once it ran out,
    or at once when its holder is a process of this host that no longer runs (`holder_gone`).
    """

    def __init__(self, session: AsyncSession) -> None:
        self._session = session

    async def take(self, name: str, holder: str, now: datetime, seconds: float) -> bool:
        """Hold (or keep holding) `name` for `seconds` from `now`; False while another holds it."""
        _HOLDERS_HERE.add(holder)
        expires_at = (now + timedelta(seconds=seconds)).astimezone(UTC)
        current = await self._session.scalar(select(LeaseRow.holder).where(LeaseRow.name == name))
        takeable = [LeaseRow.holder == holder, LeaseRow.expires_at < now.astimezone(UTC)]
        if current is not None and current != holder and holder_gone(current):
            takeable.append(LeaseRow.holder == current)  # unless another took it meanwhile
        renewed = await self._session.execute(
            update(LeaseRow)
            .where(LeaseRow.name == name, or_(*takeable))
            .values(holder=holder, expires_at=expires_at)
        )
        if renewed.rowcount == 1:  # type: ignore[attr-defined]
            return True
        try:
            async with self._session.begin_nested():
                self._session.add(LeaseRow(name=name, holder=holder, expires_at=expires_at))
        except IntegrityError:
            return False  # another process holds it
        return True

    async def release(self, name: str, holder: str) -> None:
        """Give `name` up at once (a clean stop), if `holder` still holds it."""
        await self._session.execute(
            delete(LeaseRow).where(LeaseRow.name == name, LeaseRow.holder == holder)
        )

    async def holder(self, name: str, now: datetime) -> str | None:
        """Who holds `name` now (None: nobody, or the lease ran out)."""
        return await self._session.scalar(
            select(LeaseRow.holder).where(
                LeaseRow.name == name, LeaseRow.expires_at >= now.astimezone(UTC)
            )
        )

    async def alive(self, name_prefix: str, now: datetime) -> set[str]:
        """The holders of every lease under `name_prefix` that has not run out."""
        return set(
            await self._session.scalars(
                select(LeaseRow.holder).where(
                    LeaseRow.name.startswith(name_prefix),
                    LeaseRow.expires_at >= now.astimezone(UTC),
                )
            )
        )


class SqlHandledUpdates:
    """Webhook updates by `update_id`: one process takes each, a second delivery is dropped."""

    def __init__(self, session: AsyncSession) -> None:
        self._session = session

    async def take(self, update_id: int, now: datetime, seconds: float) -> bool:
        """Take an update for handling during `seconds`; False when it is handled already or
        being handled by a process still within its time."""
        expires_at = (now + timedelta(seconds=seconds)).astimezone(UTC)
        # A process that died handling it left an expired, unfinished row: take it over.
        retaken = await self._session.execute(
            update(HandledUpdateRow)
            .where(
                HandledUpdateRow.update_id == update_id,
                HandledUpdateRow.done.is_(None),
                HandledUpdateRow.expires_at < now.astimezone(UTC),
            )
            .values(expires_at=expires_at)
        )
        if retaken.rowcount == 1:  # type: ignore[attr-defined]
            return True
        try:
            async with self._session.begin_nested():
                self._session.add(HandledUpdateRow(update_id=update_id, expires_at=expires_at))
        except IntegrityError:
            return False
        return True

    async def renew(self, update_id: int, now: datetime, seconds: float) -> None:
        """Keep holding an update taken and not yet handled, for `seconds` from `now`."""
        await self._session.execute(
            update(HandledUpdateRow)
            .where(HandledUpdateRow.update_id == update_id, HandledUpdateRow.done.is_(None))
            .values(expires_at=(now + timedelta(seconds=seconds)).astimezone(UTC))
        )

    async def handled(self, update_id: int) -> bool:
        """The update was handled (not merely taken)."""
        done = await self._session.scalar(
            select(HandledUpdateRow.done).where(HandledUpdateRow.update_id == update_id)
        )
        return done is not None

    async def finish(self, update_id: int, now: datetime, keep_seconds: float) -> None:
        """The update was handled: later deliveries of it are dropped for `keep_seconds`."""
        await self._session.execute(
            update(HandledUpdateRow)
            .where(HandledUpdateRow.update_id == update_id)
            .values(
                done=now.astimezone(UTC),
                expires_at=(now + timedelta(seconds=keep_seconds)).astimezone(UTC),
            )
        )

    async def give_back(self, update_id: int) -> None:
        """Handling failed: Telegram's next delivery of the update is handled afresh."""
        await self._session.execute(
            delete(HandledUpdateRow).where(
                HandledUpdateRow.update_id == update_id, HandledUpdateRow.done.is_(None)
            )
        )

    async def forget_old(self, now: datetime) -> None:
        """Drop the finished updates Telegram will not deliver again."""
        await self._session.execute(
            delete(HandledUpdateRow).where(
                HandledUpdateRow.done.is_not(None),
                HandledUpdateRow.expires_at < now.astimezone(UTC),
            )
        )
