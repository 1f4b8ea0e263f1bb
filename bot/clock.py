"""Clocks of the `Clock` port: the system's time in UTC, one that moves only when told, and
one that runs faster than the real one."""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta


class SystemClock:
    """What time it is now; the application runs on it unless it is handed another clock."""

    def now(self) -> datetime:
        return datetime.now(UTC)


@dataclass
class FixedClock:
    """A clock that stands still until its `moment` is moved: hand it to
    `build_application(settings, clock=...)` (or `running_bot`) to run the bot at a chosen
    time, across restarts alike."""

    moment: datetime

    def now(self) -> datetime:
        return self.moment


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
