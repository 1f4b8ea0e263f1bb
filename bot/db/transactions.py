"""Counts the database transactions an engine begins, in all and per piece of work (an
update, say): the benchmarks print them per update and per outbox message."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine


@dataclass
class Tally:
    """Transactions begun inside one `TransactionCounter.counting()` block."""

    transactions: int = 0


# SQLAlchemy runs the driver's calls in a greenlet that shares the caller's context, so the
# tally of the task that began a transaction is the one counted.
_tally: ContextVar[Tally | None] = ContextVar("transaction_tally", default=None)


class TransactionCounter:
    """Listens to `engine`'s transaction starts until `close()`."""

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine.sync_engine
        self.total = 0
        event.listen(self._engine, "begin", self._begun)

    def _begun(self, _connection: Any) -> None:
        self.total += 1
        tally = _tally.get()
        if tally is not None:
            tally.transactions += 1

    @contextmanager
    def counting(self) -> Iterator[Tally]:
        """A tally of the transactions the current task begins inside the block."""
        tally = Tally()
        token = _tally.set(tally)
        try:
            yield tally
        finally:
            _tally.reset(token)

    def close(self) -> None:
        event.remove(self._engine, "begin", self._begun)
