"""Reads a unit of work keeps until it writes what they came from.

A confirmation reads the tournament's row and where every game of it is three or four times
in one transaction (its access check, the standings, the round's closing, the lot alert, the
replan). The memo keeps each such read under the tables it came from and forgets it when the
transaction writes one of them (a flush of an ORM object or a statement run through the
session: `do_orm_execute`) or ends (a savepoint's end too). It lives inside one transaction,
so another process's commit is seen by the next transaction, as before; within one the reads
it keeps are the ones the transaction made (what a repeatable read would see), and its own
writes always show.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Hashable
from typing import Any, TypeVar

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import ORMExecuteState, Session, SessionTransaction, UOWTransaction

T = TypeVar("T")


class TransactionMemo:
    """One unit of work's kept reads, each under the names of the tables it read."""

    def __init__(self, session: AsyncSession) -> None:
        self._values: dict[Hashable, Any] = {}
        self._tables: dict[Hashable, frozenset[str]] = {}
        session.sync_session.info[_MEMO] = self

    async def read(
        self, key: Hashable, tables: frozenset[str], load: Callable[[], Awaitable[T]]
    ) -> T:
        """The value kept under `key`, else `load()`'s (kept until `tables` are written)."""
        if key in self._values:
            value: T = self._values[key]
            return value
        value = await load()
        self._values[key], self._tables[key] = value, tables
        return value

    def written(self, tables: set[str]) -> None:
        """Forget every read of these tables."""
        for key in [key for key, read in self._tables.items() if read & tables]:
            del self._values[key], self._tables[key]

    def _statement(self, state: ORMExecuteState) -> None:
        if state.is_select:
            return
        table = getattr(state.statement, "table", None)
        if table is None:
            self.read_anew()  # a statement we cannot place: forget everything
        else:
            self.written({table.name})

    def _flushed(self, session: Session) -> None:
        self.written(
            {
                row.__table__.name
                for row in (*session.new, *session.dirty, *session.deleted)
                if hasattr(row, "__table__")
            }
        )

    def _transaction_ended(self, transaction: SessionTransaction) -> None:
        # A flush runs in a subtransaction of its own (neither outermost nor a savepoint).
        if transaction.nested or transaction.parent is None:
            self.read_anew()

    def read_anew(self) -> None:
        """Forget every read: the next ones go to the database (the transaction ended, or a
        replan took its tournament's lock and must see what others committed before it)."""
        self._values.clear()
        self._tables.clear()


# The memo of a session, in its `info`. The listeners are the Session class's, set once: three
# listeners set on each session cost a unit of work more than most of its statements do.
_MEMO = "transaction_memo"


def _memo(session: Session) -> TransactionMemo | None:
    memo = session.info.get(_MEMO)
    return memo if isinstance(memo, TransactionMemo) else None


@event.listens_for(Session, "do_orm_execute")
def _statement_run(state: ORMExecuteState) -> None:
    memo = _memo(state.session)
    if memo is not None:
        memo._statement(state)


@event.listens_for(Session, "after_flush")
def _flushed(session: Session, _flush: UOWTransaction) -> None:
    memo = _memo(session)
    if memo is not None:
        memo._flushed(session)


# Every end of a transaction or a savepoint: a savepoint rolled back may take back what a read
# kept after its writes had seen.
@event.listens_for(Session, "after_transaction_end")
def _transaction_ended(session: Session, transaction: SessionTransaction) -> None:
    memo = _memo(session)
    if memo is not None:
        memo._transaction_ended(transaction)
