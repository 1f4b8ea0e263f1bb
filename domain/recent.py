"""The last few results of a pure, costly rule, given again for equal inputs.

The standings and a stage's seating quality are functions of their inputs alone, and the bot
asks for them again and again with the same inputs read anew from the database: the live
table, each page of a closing post and the result's own recomputation read the same games one
after another; every stage preview and round publication measures the same seating. Comparing
the inputs with the last ones (about a millisecond for 300 players and 200 games) is far
cheaper than computing them again (tens to hundreds of milliseconds, during which nothing
else runs in the bot's event loop). The inputs are what was read, not a key standing for it,
so whatever changed in the database (in this process or another) makes them differ. The
costly ones run in a thread off the event loop (`asyncio.to_thread`), so the entries are
looked up and stored under a lock (the computation itself is not: two threads given new
equal inputs at once both compute them).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar

Inputs = TypeVar("Inputs")
Result = TypeVar("Result")


class Recent(Generic[Inputs, Result]):
    """`compute(inputs)`, or its result for inputs equal to one of the last `size` computed;
    the inputs and results must be immutable (frozen dataclasses, tuples)."""

    def __init__(self, compute: Callable[[Inputs], Result], size: int) -> None:
        self._compute = compute
        self._size = size
        self._entries: list[tuple[Inputs, Result]] = []
        self._lock = threading.Lock()

    def __call__(self, inputs: Inputs) -> Result:
        with self._lock:
            for index, (known, result) in enumerate(self._entries):
                if known == inputs:
                    self._entries.insert(0, self._entries.pop(index))
                    return result
        result = self._compute(inputs)
        with self._lock:
            self._entries = [(inputs, result), *self._entries[: self._size - 1]]
        return result
