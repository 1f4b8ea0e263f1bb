from __future__ import annotations

from dataclasses import fields, replace
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import StaffRow, TournamentRow
from bot.db.repositories.memo import TransactionMemo
from domain.tournament import Tournament, TournamentState, WebVisibility

_COLUMNS = tuple(f.name for f in fields(Tournament) if f.name not in ("id", "state"))


def as_stored(value: Any) -> Any:
    """A moment in UTC for storage, so SQLite compares stored moments correctly."""
    return value.astimezone(UTC) if isinstance(value, datetime) else value


def as_read(value: Any) -> Any:
    """A stored moment back as an aware UTC datetime (SQLite forgets the zone)."""
    if isinstance(value, datetime) and value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    return value


def tournament_of_row(row: TournamentRow) -> Tournament:
    values = {name: as_read(getattr(row, name)) for name in _COLUMNS}
    values["web_visibility"] = WebVisibility(row.web_visibility)
    return Tournament(id=row.id, state=TournamentState(row.state), **values)


def _fill(row: TournamentRow, tournament: Tournament) -> None:
    row.state = tournament.state.value
    for name in _COLUMNS:
        setattr(row, name, as_stored(getattr(tournament, name)))


_TOURNAMENTS = frozenset({TournamentRow.__tablename__})
# The first key of a tournament's advisory lock, its id the second: the two-key
# locks are a space apart from the one-key lock of the migrations (`bot.db.migrate`).
TOURNAMENT_LOCK = 1


class SqlTournamentRepository:
    def __init__(
        self, session: AsyncSession, reminders_touched: set[int], memo: TransactionMemo
    ) -> None:
        self._session = session
        # Tournaments whose reminder facts a write changed (`UnitOfWork.reminders_touched`).
        self._touched = reminders_touched
        self._memo = memo
        # The tournaments whose lock this transaction holds (`lock`).
        self.locked: set[int] = set()

    async def get(self, tournament_id: int) -> Tournament | None:
        """The tournament, read once per transaction until it writes one (`TransactionMemo`:
        a confirmation asks three times)."""

        async def load() -> Tournament | None:
            row = await self._session.get(TournamentRow, tournament_id)
            return tournament_of_row(row) if row else None

        return await self._memo.read(("tournament", tournament_id), _TOURNAMENTS, load)

    async def lock(self, tournament_id: int) -> None:
        """Wait until no other transaction decides on the tournament (replans its reminders,
        counts its places, a team's seats, a player's status), and keep them from it to this
        transaction's end; the reads after it see what they committed.

        On PostgreSQL (READ COMMITTED) two such transactions would each read the facts before
        the other commits and store a result missing the other's change (a stale reminder
        plan, a place given twice): an advisory lock per tournament (`pg_advisory_xact_lock`,
        released by the commit or the rollback) orders them, and the reads kept from before
        it (the memo's, the session's rows) are forgotten, its pending writes flushed first.
        SQLite needs none: BEGIN IMMEDIATE lets one writer in at a time, from its first
        statement on."""
        if tournament_id in self.locked:
            return
        self.locked.add(tournament_id)
        if self._session.get_bind().dialect.name != "postgresql":
            return
        await self._session.flush()
        locking = func.pg_advisory_xact_lock(TOURNAMENT_LOCK, tournament_id)
        await self._session.execute(select(locking))
        self._memo.read_anew()
        self._session.expire_all()

    async def add(self, tournament: Tournament) -> Tournament:
        """Store a new tournament; its id is given by the database."""
        row = TournamentRow()
        _fill(row, tournament)
        self._session.add(row)
        await self._session.flush()
        self._touched.add(row.id)
        return replace(tournament, id=row.id)

    async def save(self, tournament: Tournament) -> None:
        """Store a tournament's new state and settings."""
        row = await self._session.get(TournamentRow, tournament.id)
        if row is None:
            raise LookupError(f"no tournament {tournament.id}")
        _fill(row, tournament)
        await self._session.flush()
        self._touched.add(tournament.id)

    async def of_person(self, user_id: int, everything: bool = False) -> list[Tournament]:
        """Tournaments a person organizes or judges (all of them for an admin), newest first."""
        query = select(TournamentRow).order_by(TournamentRow.id.desc())
        if not everything:
            judged = select(StaffRow.tournament_id).where(StaffRow.user_id == user_id)
            query = query.where(
                or_(TournamentRow.created_by == user_id, TournamentRow.id.in_(judged))
            )
        rows = await self._session.scalars(query)
        return [tournament_of_row(row) for row in rows]

    async def registration_due_to_close(self, now: datetime) -> list[Tournament]:
        """Open registrations whose deadline has come."""
        rows = await self._session.scalars(
            select(TournamentRow).where(
                TournamentRow.state == TournamentState.REGISTRATION_OPEN.value,
                TournamentRow.registration_deadline.is_not(None),
                TournamentRow.registration_deadline <= now.astimezone(UTC),
            )
        )
        return [tournament_of_row(row) for row in rows]
