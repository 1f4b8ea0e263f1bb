"""`stream_links`: each game's stream view (its token, delay and whether it is revoked)."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models.protocols import StreamLinkRow
from domain.live_table import StreamLink


def _link(row: StreamLinkRow) -> StreamLink:
    return StreamLink(row.game_id, row.token, row.delay_seconds, row.revoked)


class SqlStreamLinkRepository:
    """One row per game whose organizer opened a stream view."""

    def __init__(self, session: AsyncSession) -> None:
        self._session = session

    async def get(self, game_id: int) -> StreamLink | None:
        row = await self._session.get(StreamLinkRow, game_id, populate_existing=True)
        return _link(row) if row else None

    async def save(self, link: StreamLink, user_id: int, now: datetime) -> None:
        """Store the game's stream view as `link` says (added or replaced)."""
        row = await self._session.get(StreamLinkRow, link.game_id)
        if row is None:
            row = StreamLinkRow(game_id=link.game_id)
            self._session.add(row)
        row.token = link.token
        row.delay_seconds = link.delay_seconds
        row.revoked = link.revoked
        row.updated_by = user_id
        row.updated_at = now.astimezone(UTC)
        await self._session.flush()
