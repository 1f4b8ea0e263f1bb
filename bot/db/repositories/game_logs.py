"""The judge's live-game logs: every action as JSON, guarded by a version like the draft."""

from __future__ import annotations

import json
from collections.abc import Collection
from datetime import UTC, datetime

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models.protocols import GameLogRow
from domain.game_log import Entry, entry_from_dict, entry_to_dict


def log_json(entries: Collection[Entry]) -> str:
    """The stored form of a log."""
    return json.dumps([entry_to_dict(entry) for entry in entries], ensure_ascii=False)


def read_log(body: str) -> tuple[Entry, ...]:
    """A log from its stored form."""
    return tuple(entry_from_dict(item) for item in json.loads(body))


class SqlGameLogRepository:
    """`game_logs`: one row per game the judge ran live."""

    def __init__(self, session: AsyncSession, changed: set[int] | None = None) -> None:
        self._session = session
        # The games whose log a save changed (`UnitOfWork.changed_games`): after the commit
        # their live pages hear of it.
        self._changed = changed if changed is not None else set()

    async def log(self, game_id: int) -> tuple[tuple[Entry, ...], int] | None:
        """A game's log as last saved and its version (None: never run live)."""
        row = await self._session.get(GameLogRow, game_id, populate_existing=True)
        return (read_log(row.body), row.version) if row else None

    async def save(
        self,
        game_id: int,
        entries: tuple[Entry, ...],
        version: int,
        user_id: int,
        now: datetime,
    ) -> bool:
        """Store the log if it is still at `version` (0: not started); False if it moved on."""
        body = log_json(entries)
        if version == 0:
            row = GameLogRow(
                game_id=game_id, body=body, version=1, updated_by=user_id, updated_at=now
            )
            try:
                # A savepoint: losing the race to the other device keeps the transaction.
                async with self._session.begin_nested():
                    self._session.add(row)
            except IntegrityError:
                return False
            self._changed.add(game_id)
            return True
        result = await self._session.execute(
            update(GameLogRow)
            .where(GameLogRow.game_id == game_id, GameLogRow.version == version)
            .values(
                body=body, version=version + 1, updated_by=user_id, updated_at=now.astimezone(UTC)
            )
        )
        saved = bool(getattr(result, "rowcount", 0))
        if saved:
            self._changed.add(game_id)
        return saved

    async def logs(self, game_ids: Collection[int]) -> dict[int, tuple[Entry, ...]]:
        """The logs of these games (those run live), for the tournament file."""
        if not game_ids:
            return {}
        rows = await self._session.execute(
            select(GameLogRow.game_id, GameLogRow.body).where(GameLogRow.game_id.in_(game_ids))
        )
        return {game_id: read_log(body) for game_id, body in rows}

    async def started(self, game_ids: Collection[int]) -> set[int]:
        """Those of these games the judge has begun running live (their log is stored)."""
        if not game_ids:
            return set()
        rows = await self._session.scalars(
            select(GameLogRow.game_id).where(GameLogRow.game_id.in_(game_ids))
        )
        return set(rows)
