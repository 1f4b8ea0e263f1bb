"""The SQL unit of work: one session, one transaction, repositories bound to it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from types import TracebackType
from typing import TYPE_CHECKING, Self

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.clock import SystemClock
from bot.db.repositories.game_logs import SqlGameLogRepository
from bot.db.repositories.invites import SqlInviteRepository
from bot.db.repositories.leases import SqlHandledUpdates, SqlLeases
from bot.db.repositories.lots import SqlAnnulmentRepository, SqlLotRepository
from bot.db.repositories.memo import TransactionMemo
from bot.db.repositories.outbox import SqlOutbox
from bot.db.repositories.participants import SqlParticipantRepository
from bot.db.repositories.protests import SqlProtestRepository
from bot.db.repositories.protocols import SqlProtocolRepository
from bot.db.repositories.ratings import SqlRatingRepository
from bot.db.repositories.rounds import SqlRoundRepository
from bot.db.repositories.scheduled_pushes import SqlScheduledPushes
from bot.db.repositories.season import SqlSeasonRepository
from bot.db.repositories.staff import SqlStaffRepository
from bot.db.repositories.stream_links import SqlStreamLinkRepository
from bot.db.repositories.teams import SqlTeamRepository
from bot.db.repositories.tournaments import SqlTournamentRepository
from bot.db.repositories.users import SqlUserRepository
from domain.services.ports import Clock
from domain.services.reminders import replan_touched

if TYPE_CHECKING:
    from domain.services.ports import UnitOfWork, UnitOfWorkFactory


@dataclass(frozen=True)
class Committed:
    """What a committed transaction did that a waiting worker acts on: the delivery worker
    wakes up at once for new outbox messages, the scheduler plans its wake-up no later than
    the earliest push planned (a later one changes nothing: its wake-up reads them all)."""

    outbox: bool
    earliest_push: datetime | None


# Called after a commit that added outbox messages or planned pushes.
CommitListener = Callable[[Committed], None]
# Told the tournaments whose public view a committed transaction changed (the web pages).
ChangeListener = Callable[[frozenset[int]], None]
# Told the games whose live log a committed transaction changed (the live game's pages).
GameChangeListener = Callable[[frozenset[int]], None]
# The after-change step, run by `commit()` in the transaction before it is committed.
AfterChange = Callable[["UnitOfWork", datetime], Awaitable[None]]


class SqlUnitOfWork:
    """Leaving the block without `commit()` rolls everything back."""

    session: AsyncSession
    users: SqlUserRepository
    tournaments: SqlTournamentRepository
    outbox: SqlOutbox
    scheduled_pushes: SqlScheduledPushes
    participants: SqlParticipantRepository
    teams: SqlTeamRepository
    staff: SqlStaffRepository
    invites: SqlInviteRepository
    rounds: SqlRoundRepository
    protocols: SqlProtocolRepository
    game_logs: SqlGameLogRepository
    stream_links: SqlStreamLinkRepository
    protests: SqlProtestRepository
    lots: SqlLotRepository
    annulments: SqlAnnulmentRepository
    season: SqlSeasonRepository
    ratings: SqlRatingRepository
    leases: SqlLeases
    handled_updates: SqlHandledUpdates

    def __init__(
        self,
        session_factory: async_sessionmaker[AsyncSession],
        listeners: tuple[CommitListener, ...] = (),
        change_listeners: tuple[ChangeListener, ...] = (),
        process: str = "",
        after_change: AfterChange = replan_touched,
        clock: Clock | None = None,
        game_listeners: tuple[GameChangeListener, ...] = (),
    ) -> None:
        self._session_factory = session_factory
        self._listeners = listeners
        self._change_listeners = change_listeners
        self._game_listeners = game_listeners
        self._process = process
        self._after_change = after_change
        self._clock = clock if clock is not None else SystemClock()
        self.changed_tournaments: set[int] = set()
        self.changed_games: set[int] = set()
        self.reminders_touched: set[int] = set()
        self.rounds_touched: set[tuple[int, int]] = set()
        self.participants_touched: set[tuple[int, int]] = set()
        self.teams_touched: set[tuple[int, int]] = set()
        self.acted_at: datetime | None = None

    async def __aenter__(self) -> Self:
        self.session = self._session_factory()
        memo = TransactionMemo(self.session)
        self.users = SqlUserRepository(self.session)
        self.tournaments = SqlTournamentRepository(self.session, self.reminders_touched, memo)
        self.outbox = SqlOutbox(self.session)
        self.scheduled_pushes = SqlScheduledPushes(self.session, self._process)
        self.participants = SqlParticipantRepository(
            self.session, self.participants_touched, self.teams_touched, memo
        )
        self.teams = SqlTeamRepository(self.session, self.teams_touched)
        self.staff = SqlStaffRepository(self.session, self.reminders_touched)
        self.invites = SqlInviteRepository(self.session)
        self.rounds = SqlRoundRepository(self.session, self.reminders_touched, memo)
        self.protocols = SqlProtocolRepository(self.session, self.rounds_touched)
        self.game_logs = SqlGameLogRepository(self.session, self.changed_games)
        self.stream_links = SqlStreamLinkRepository(self.session)
        self.protests = SqlProtestRepository(self.session)
        self.lots = SqlLotRepository(self.session)
        self.annulments = SqlAnnulmentRepository(self.session)
        self.season = SqlSeasonRepository(self.session)
        self.ratings = SqlRatingRepository(self.session)
        self.leases = SqlLeases(self.session)
        self.handled_updates = SqlHandledUpdates(self.session)
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
        if (
            self.reminders_touched
            or self.rounds_touched
            or self.participants_touched
            or self.teams_touched
        ):
            # The moment the use case acted (`load_tournament` records it), else the clock's.
            now = self.acted_at if self.acted_at is not None else self._clock.now()
            await self._after_change(self, now)
        await self.session.commit()
        self.tournaments.locked.clear()  # the commit released the replans' locks
        committed = Committed(self.outbox.added > 0, self.scheduled_pushes.earliest)
        self.outbox.added, self.scheduled_pushes.earliest = 0, None
        self.scheduled_pushes.changed = False
        self.scheduled_pushes.told = False
        if committed.outbox or committed.earliest_push is not None:
            for listener in self._listeners:
                listener(committed)
        if self.changed_tournaments:
            tournaments = frozenset(self.changed_tournaments)
            self.changed_tournaments.clear()
            for change_listener in self._change_listeners:
                change_listener(tournaments)
        if self.changed_games:
            games = frozenset(self.changed_games)
            self.changed_games.clear()
            for game_listener in self._game_listeners:
                game_listener(games)


class SqlUnitOfWorkFactory:
    """Makes a fresh unit of work per use case; `process` names this process among the bot's
    replicas to the others (see `bot.db.planned`)."""

    def __init__(
        self,
        session_factory: async_sessionmaker[AsyncSession],
        *,
        process: str = "",
        clock: Clock | None = None,
    ) -> None:
        self._session_factory = session_factory
        self.process = process
        self._clock = clock
        self._listeners: tuple[CommitListener, ...] = ()
        self._change_listeners: tuple[ChangeListener, ...] = ()
        self._game_listeners: tuple[GameChangeListener, ...] = ()

    def add_change_listener(self, listener: ChangeListener) -> None:
        """Call `listener` after every commit with the tournaments it marked changed."""
        self._change_listeners = (*self._change_listeners, listener)

    def add_game_listener(self, listener: GameChangeListener) -> None:
        """Call `listener` after every commit with the games whose live log it changed."""
        self._game_listeners = (*self._game_listeners, listener)

    def add_commit_listener(self, listener: CommitListener) -> None:
        """Call `listener` after every commit that added outbox messages or planned pushes."""
        self._listeners = (*self._listeners, listener)

    def __call__(self) -> SqlUnitOfWork:
        return SqlUnitOfWork(
            self._session_factory,
            self._listeners,
            self._change_listeners,
            self.process,
            clock=self._clock,
            game_listeners=self._game_listeners,
        )


if TYPE_CHECKING:

    def _keeps_the_contract(factory: SqlUnitOfWorkFactory) -> UnitOfWorkFactory:
        """mypy proves here that the SQL side satisfies the use cases' `UnitOfWork` protocol."""
        return factory

    def _unit(unit: SqlUnitOfWork) -> UnitOfWork:
        return unit
