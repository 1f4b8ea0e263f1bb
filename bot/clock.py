"""The real clock of the `Clock` port: the system's time in UTC."""

from __future__ import annotations

from datetime import UTC, datetime


class SystemClock:
    """What time it is now; tests hand the Dispatcher a clock of their own instead."""

    def now(self) -> datetime:
        return datetime.now(UTC)
