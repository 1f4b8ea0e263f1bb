from __future__ import annotations

from collections.abc import Collection

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import UserRow
from domain.users import User


def _to_user(row: UserRow) -> User:
    return User(row.telegram_id, row.first_name, row.last_name, row.username, row.locale)


class SqlUserRepository:
    def __init__(self, session: AsyncSession) -> None:
        self._session = session

    async def get(self, telegram_id: int) -> User | None:
        row = await self._session.get(UserRow, telegram_id)
        return _to_user(row) if row else None

    async def many(self, telegram_ids: Collection[int]) -> dict[int, User]:
        """The stored users among `telegram_ids` (a round's judges), by id, in one query."""
        if not telegram_ids:
            return {}
        rows = await self._session.scalars(
            select(UserRow).where(UserRow.telegram_id.in_(list(telegram_ids)))
        )
        return {row.telegram_id: _to_user(row) for row in rows}

    async def save(self, user: User) -> None:
        row = await self._session.get(UserRow, user.telegram_id)
        if row is None:
            row = UserRow(telegram_id=user.telegram_id)
            self._session.add(row)
        row.first_name = user.first_name
        row.last_name = user.last_name
        row.username = user.username
        row.locale = user.locale
        # Flushed at once: rows without an ORM relationship are not ordered by foreign key.
        await self._session.flush()
