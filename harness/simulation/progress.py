"""Progress as a newcomer watches it: one bar per stage of the tournament."""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO

WIDTH = 30


class Progress:
    """Bars drawn in place on a terminal; elsewhere (a file, a test) each bar once, finished."""

    def __init__(self, out: TextIO, on_stage: Callable[[str], None] | None = None) -> None:
        """`on_stage` hears each stage's name as it starts (the benchmark's phases)."""
        self._out = out
        self._on_stage = on_stage
        self._live = out.isatty()
        self._name = ""
        self._done = 0
        self._total = 0

    def stage(self, name: str, total: int) -> None:
        """Start the bar of a stage with `total` steps."""
        self._name, self._done, self._total = name, 0, max(total, 1)
        if self._on_stage is not None:
            self._on_stage(name)
        if self._live:
            self._draw("\r")

    def advance(self, steps: int = 1) -> None:
        self._done = min(self._done + steps, self._total)
        finished = self._done == self._total
        if self._live or finished:
            self._draw("\r" if self._live else "")
        if finished:
            self._out.write("\n")
            self._out.flush()

    def line(self) -> str:
        """The bar as text: name, filled part, steps done."""
        filled = WIDTH * self._done // self._total
        bar = "█" * filled + "·" * (WIDTH - filled)
        return f"{self._name:<28} {bar} {self._done}/{self._total}"

    def _draw(self, prefix: str) -> None:
        self._out.write(prefix + self.line())
        self._out.flush()
