"""Clocks of the `Clock` port: the system's time in UTC, and one that moves only when told."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime


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
