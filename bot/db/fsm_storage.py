"""aiogram FSM storage in the database: wizard progress survives a restart with no Redis."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aiogram.fsm.state import State
from aiogram.fsm.storage.base import BaseStorage, DefaultKeyBuilder, StateType, StorageKey
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.db.models import ConversationRow


class SqlStorage(BaseStorage):
    """One row per conversation key; an empty state with no data removes the row."""

    def __init__(self, session_factory: async_sessionmaker[AsyncSession]) -> None:
        self._session_factory = session_factory
        self._keys = DefaultKeyBuilder(with_bot_id=True, with_destiny=True)

    async def set_state(self, key: StorageKey, state: StateType = None) -> None:
        value = state.state if isinstance(state, State) else state
        await self._write(key, state=value)

    async def get_state(self, key: StorageKey) -> str | None:
        row = await self._read(key)
        return row.state if row else None

    async def set_data(self, key: StorageKey, data: Mapping[str, Any]) -> None:
        await self._write(key, data=dict(data))

    async def get_data(self, key: StorageKey) -> dict[str, Any]:
        row = await self._read(key)
        return dict(row.data) if row else {}

    async def close(self) -> None:
        """Nothing to release: sessions are opened per call."""

    async def _read(self, key: StorageKey) -> ConversationRow | None:
        async with self._session_factory() as session:
            return await session.get(ConversationRow, self._keys.build(key))

    async def _write(self, key: StorageKey, **values: Any) -> None:
        async with self._session_factory() as session, session.begin():
            row_key = self._keys.build(key)
            row = await session.get(ConversationRow, row_key)
            stored = row is not None
            if row is None:
                row = ConversationRow(key=row_key, state=None, data={})
            for name, value in values.items():
                setattr(row, name, value)
            empty = row.state is None and not row.data
            if stored and empty:
                await session.delete(row)
            elif not stored and not empty:
                session.add(row)
