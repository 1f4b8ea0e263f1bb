"""What the use cases need from the outside world, as Protocols (the database implements them)."""

from __future__ import annotations

from types import TracebackType
from typing import Protocol, Self

from domain.tournament import Tournament
from domain.users import User


class UserRepository(Protocol):
    async def get(self, telegram_id: int) -> User | None: ...

    async def save(self, user: User) -> None: ...


class TournamentRepository(Protocol):
    async def get(self, tournament_id: int) -> Tournament | None: ...

    async def add(self, tournament: Tournament) -> Tournament: ...


class UnitOfWork(Protocol):
    """One transaction: everything a use case decided is committed together, or nothing."""

    users: UserRepository
    tournaments: TournamentRepository

    async def __aenter__(self) -> Self: ...

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...

    async def commit(self) -> None: ...


class UnitOfWorkFactory(Protocol):
    def __call__(self) -> UnitOfWork: ...
