"""The pages' cache and live updates, per tournament.

`PageCache` keeps each tournament's public view and the pages drawn from it until the
tournament changes (or `MAX_AGE_SECONDS` pass: a protest window closing turns a provisional
result final without a change). `changed` is a change listener of the unit-of-work factory:
the after-change step that updates the channel marks the tournament (see
`UnitOfWork.changed_tournaments`), and after the commit every open page hears of it through
its Server-Sent Events stream.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field

from domain.public_view import PublicTournament

MAX_AGE_SECONDS = 30.0


@dataclass
class _Entry:
    view: PublicTournament | None
    read_at: float
    pages: dict[tuple[str, ...], str] = field(default_factory=dict)


class Signal:
    """One tournament's change counter; waiting for it is one Event for every listener."""

    def __init__(self) -> None:
        self.version = 0
        self._event = asyncio.Event()

    def bump(self) -> None:
        self.version += 1
        event, self._event = self._event, asyncio.Event()
        event.set()

    async def wait(self, seen: int, timeout: float) -> int:
        """The version once it differs from `seen`, or `seen` after `timeout` seconds."""
        if self.version != seen:
            return self.version
        event = self._event
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), timeout)
        return self.version


Reader = Callable[[int], Awaitable[PublicTournament | None]]


class PageCache:
    """Public views and their drawn pages by tournament, read through `reader`."""

    def __init__(self, reader: Reader, max_age: float = MAX_AGE_SECONDS) -> None:
        self._reader = reader
        self._max_age = max_age
        self._entries: dict[int, _Entry] = {}
        self._reading: dict[int, asyncio.Task[_Entry]] = {}
        self._signals: dict[int, Signal] = {}
        # Set when the server stops: every open events stream ends at once.
        self.closing = False

    async def _entry(self, tournament_id: int) -> _Entry:
        entry = self._entries.get(tournament_id)
        if entry is not None and time.monotonic() - entry.read_at < self._max_age:
            return entry
        # Many visitors at once after a change: one read serves them all.
        task = self._reading.get(tournament_id)
        if task is None:
            task = asyncio.ensure_future(self._read(tournament_id))
            self._reading[tournament_id] = task
            task.add_done_callback(lambda done: self._forget(tournament_id, done))
        return await asyncio.shield(task)

    def _forget(self, tournament_id: int, task: asyncio.Task[_Entry]) -> None:
        if self._reading.get(tournament_id) is task:
            del self._reading[tournament_id]

    async def _read(self, tournament_id: int) -> _Entry:
        version = self.signal(tournament_id).version
        entry = _Entry(await self._reader(tournament_id), time.monotonic())
        # A change committed while reading: this read may predate it, so it is not kept.
        if self.signal(tournament_id).version == version:
            self._entries[tournament_id] = entry
        return entry

    async def view(self, tournament_id: int) -> PublicTournament | None:
        return (await self._entry(tournament_id)).view

    async def page(
        self, tournament_id: int, key: tuple[str, ...], draw: Callable[[PublicTournament], str]
    ) -> str | None:
        """The page `key` of the tournament drawn by `draw` once per change; None when the
        tournament does not exist."""
        entry = await self._entry(tournament_id)
        if entry.view is None:
            return None
        page = entry.pages.get(key)
        if page is None:
            page = entry.pages[key] = draw(entry.view)
        return page

    def signal(self, tournament_id: int) -> Signal:
        signal = self._signals.get(tournament_id)
        if signal is None:
            signal = self._signals[tournament_id] = Signal()
        return signal

    def close(self) -> None:
        """The server stops: wake every events stream so that it ends."""
        self.closing = True
        for signal in self._signals.values():
            signal.bump()

    def changed(self, tournament_ids: Iterable[int]) -> None:
        """The tournaments changed: their pages are drawn again, open ones are told."""
        for tournament_id in tournament_ids:
            self._entries.pop(tournament_id, None)
            # A read begun before the change may miss it: whoever asks now reads again.
            self._reading.pop(tournament_id, None)
            self.signal(tournament_id).bump()
