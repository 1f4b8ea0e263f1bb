"""Counts the database transactions begun and the statements run per piece of work (an
update, a whole run): the benchmarks print them per update and per outbox message, tests
check them.

Every engine made by `bot.db.engine.create_engine` reports its transaction starts and its
statements here (listeners installed with the engine: adding one to a running engine could
disturb a start in progress). Each is counted in every `counting()` block the running task
is inside; a start is counted under the
label of the innermost `labelled()` block around it (the outbox worker's cycles, the reminder
scheduler's wake-ups), so a figure can say where its transactions came from.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

UNLABELLED = "other"


@dataclass
class Tally:
    """Transactions begun inside one `counting()` block (nested blocks' included), in all and
    by label, and statements run."""

    transactions: int = 0
    statements: int = 0
    outer: Tally | None = None
    by_label: Counter[str] = field(default_factory=Counter)


# SQLAlchemy runs the driver's calls in a greenlet that shares the caller's context, and a
# task starts with a copy of its creator's context: the blocks a task is inside are found.
_tally: ContextVar[Tally | None] = ContextVar("transaction_tally", default=None)
_label: ContextVar[str] = ContextVar("transaction_label", default=UNLABELLED)


def transaction_begun(_connection: Any) -> None:
    """The engines' `begin` listener."""
    label = _label.get()
    tally = _tally.get()
    while tally is not None:
        tally.transactions += 1
        tally.by_label[label] += 1
        tally = tally.outer


def statement_run(*_args: Any) -> None:
    """The engines' `before_cursor_execute` listener."""
    tally = _tally.get()
    while tally is not None:
        tally.statements += 1
        tally = tally.outer


@contextmanager
def counting() -> Iterator[Tally]:
    """A tally of the transactions the current task (and the tasks it starts) begins and of
    the statements it runs inside the block."""
    tally = Tally(outer=_tally.get())
    token = _tally.set(tally)
    try:
        yield tally
    finally:
        _tally.reset(token)


@contextmanager
def labelled(label: str) -> Iterator[None]:
    """The transactions begun inside the block (by the current task and the tasks it starts)
    are counted under `label`."""
    token = _label.set(label)
    try:
        yield
    finally:
        _label.reset(token)
