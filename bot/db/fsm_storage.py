"""aiogram FSM storage in the database: wizard progress survives a restart with no Redis.

aiogram reads the conversation state of every update (after taking the sender's isolation
lock); the same read also fetches the sender's user row, so that the middleware remembering
the sender (`handlers/middlewares.py`) needs no transaction of its own: one read transaction
per update instead of two; the data read with the state serves the handler's `get_data` in the
same update (a wizard's step reads its answers so far without another transaction). Nothing is
cached across updates (another replica may change either row at any time).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextvars import ContextVar
from typing import Any

from aiogram.fsm.state import State
from aiogram.fsm.storage.base import BaseStorage, DefaultKeyBuilder, StateType, StorageKey
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.db.models import ConversationRow
from bot.db.repositories.users import SqlUserRepository
from domain.services.users import UNREAD, Unread
from domain.users import User

# The sender read with the conversation state of the update being handled: (telegram id, user
# or None when never stored). Each update is handled in its own task, so its own context.
_sender: ContextVar[tuple[int, User | None] | None] = ContextVar("sender", default=None)
# The conversation of the update being handled as it read and wrote it: (key, data), so a
# handler's `get_data` after the state's read needs no transaction of its own.
_conversation: ContextVar[tuple[str, dict[str, Any]] | None] = ContextVar(
    "conversation", default=None
)


def sender_read_with_state(telegram_id: int) -> User | Unread | None:
    """The sender as read with this update's conversation state, once (UNREAD if not read)."""
    read = _sender.get()
    _sender.set(None)
    if read is None or read[0] != telegram_id:
        return UNREAD
    return read[1]


class SqlStorage(BaseStorage):
    """One row per conversation key; an empty state with no data removes the row."""

    def __init__(self, session_factory: async_sessionmaker[AsyncSession]) -> None:
        self._session_factory = session_factory
        self._keys = DefaultKeyBuilder(with_bot_id=True, with_destiny=True)

    async def set_state(self, key: StorageKey, state: StateType = None) -> None:
        value = state.state if isinstance(state, State) else state
        await self._write(key, state=value)

    async def get_state(self, key: StorageKey) -> str | None:
        row_key = self._keys.build(key)
        async with self._session_factory() as session:
            row = await session.get(ConversationRow, row_key)
            sender = await SqlUserRepository(session).get(key.user_id)
        _sender.set((key.user_id, sender))
        _conversation.set((row_key, dict(row.data) if row else {}))
        return row.state if row else None

    async def set_data(self, key: StorageKey, data: Mapping[str, Any]) -> None:
        await self._write(key, lambda _: dict(data))

    async def update_data(self, key: StorageKey, data: Mapping[str, Any]) -> dict[str, Any]:
        """Merge `data` into the stored data in one transaction (aiogram's default reads in
        one and writes in another)."""
        return await self._write(key, lambda current: {**current, **data})

    async def get_data(self, key: StorageKey) -> dict[str, Any]:
        """The conversation's data: as this update read it with the state (or wrote it since),
        else read."""
        row_key = self._keys.build(key)
        known = _conversation.get()
        if known is not None and known[0] == row_key:
            return dict(known[1])
        row = await self._read(key)
        return dict(row.data) if row else {}

    async def close(self) -> None:
        """Nothing to release: sessions are opened per call."""

    async def _read(self, key: StorageKey) -> ConversationRow | None:
        async with self._session_factory() as session:
            return await session.get(ConversationRow, self._keys.build(key))

    async def _write(
        self,
        key: StorageKey,
        data: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
        **values: Any,
    ) -> dict[str, Any]:
        """Change the row in one transaction: `values` set its columns, `data` makes its new
        data from the stored one; the data as stored is returned."""
        async with self._session_factory() as session, session.begin():
            row_key = self._keys.build(key)
            row = await session.get(ConversationRow, row_key)
            stored = row is not None
            if row is None:
                row = ConversationRow(key=row_key, state=None, data={})
            for name, value in values.items():
                setattr(row, name, value)
            if data is not None:
                row.data = data(dict(row.data))
            empty = row.state is None and not row.data
            if stored and empty:
                await session.delete(row)
            elif not stored and not empty:
                session.add(row)
            written = dict(row.data)
        known = _conversation.get()
        if known is not None and known[0] == row_key:
            _conversation.set((row_key, written))
        return dict(written)
