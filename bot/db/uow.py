"""The SQL unit of work: one session, one transaction, repositories bound to it."""

from __future__ import annotations

from types import TracebackType
from typing import Self

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.db.repositories.invites import SqlInviteRepository
from bot.db.repositories.participants import SqlParticipantRepository
from bot.db.repositories.staff import SqlStaffRepository
from bot.db.repositories.teams import SqlTeamRepository
from bot.db.repositories.tournaments import SqlTournamentRepository
from bot.db.repositories.users import SqlUserRepository


class SqlUnitOfWork:
    """Leaving the block without `commit()` rolls everything back."""

    def __init__(self, session_factory: async_sessionmaker[AsyncSession]) -> None:
        self._session_factory = session_factory

    async def __aenter__(self) -> Self:
        self.session = self._session_factory()
        self.users = SqlUserRepository(self.session)
        self.tournaments = SqlTournamentRepository(self.session)
        self.participants = SqlParticipantRepository(self.session)
        self.teams = SqlTeamRepository(self.session)
        self.staff = SqlStaffRepository(self.session)
        self.invites = SqlInviteRepository(self.session)
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.session.rollback()
        await self.session.close()

    async def commit(self) -> None:
        await self.session.commit()


class SqlUnitOfWorkFactory:
    """Makes a fresh unit of work per use case."""

    def __init__(self, session_factory: async_sessionmaker[AsyncSession]) -> None:
        self._session_factory = session_factory

    def __call__(self) -> SqlUnitOfWork:
        return SqlUnitOfWork(self._session_factory)
