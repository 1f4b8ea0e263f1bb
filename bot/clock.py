"""Clocks of the `Clock` port: the system's time in UTC, one that moves only when told, and
one that runs faster than the real one."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Protocol, runtime_checkable


class SystemClock:
    """What time it is now; the application runs on it unless it is handed another clock."""

    def now(self) -> datetime:
        return datetime.now(UTC)


@runtime_checkable
class JumpingClock(Protocol):
    """A clock whose time can jump (a test's `FixedClock` moved on): it tells its listeners
    when it did, since a jump says nothing to whoever waits for a moment on the real clock
    (the reminder scheduler's wake-up). The system's clock only flows and has no such port."""

    def now(self) -> datetime: ...

    def on_jump(self, listener: Callable[[], None]) -> Callable[[], None]:
        """Call `listener` after each jump, from the code that moved the clock; returns what
        stops it."""


class FixedClock:
    """A clock that stands still until its `moment` is moved: hand it to
    `build_application(settings, clock=...)` (or `running_bot`) to run the bot at a chosen
    time, across restarts alike. Each move is a jump its listeners hear of (`JumpingClock`):
    the bot's reminder scheduler sweeps what fell due at once."""

    def __init__(self, moment: datetime) -> None:
        self._moment = moment
        self._listeners: list[Callable[[], None]] = []

    @property
    def moment(self) -> datetime:
        return self._moment

    @moment.setter
    def moment(self, moment: datetime) -> None:
        self._moment = moment
        for listener in list(self._listeners):
            listener()

    def now(self) -> datetime:
        return self._moment

    def on_jump(self, listener: Callable[[], None]) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)


class ScaledClock:
    """A clock that runs `rate` times as fast as the real one from `start`: the offline
    simulation's people act `rate` times faster than real people, and its time (protest
    windows, reminders) passes as fast, so a window closes within the run."""

    def __init__(self, start: datetime, rate: float) -> None:
        if rate <= 0:
            raise ValueError(f"a clock's rate must be positive, not {rate}")
        self.start = start
        self.rate = rate
        self._real = time.monotonic
        self._origin = self._real()

    @classmethod
    def shared(cls, origin: float, rate: float) -> ScaledClock:
        """The same scaled time in every process: it starts at the Unix moment `origin` and
        counts on the wall clock (several replicas playing one simulated tournament)."""
        clock = cls(datetime.fromtimestamp(origin, UTC), rate)
        clock._real, clock._origin = time.time, origin
        return clock

    def now(self) -> datetime:
        return self.start + timedelta(seconds=(self._real() - self._origin) * self.rate)
