"""The standings picture drawn in a process of its own.

matplotlib takes seconds of CPU for a large table; in a thread it would still hold the event
loop's GIL for most of them and every judge's tap would wait. One worker process draws the
pictures one after another; the same board asked for again (a round and its stage closing
together) is drawn once.
"""

from __future__ import annotations

import asyncio
import hashlib
import multiprocessing
import pickle
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

from domain.services.standings import StandingsBoard


def _draw(board: StandingsBoard, locale: str, page: int) -> tuple[bytes, float]:
    """In the worker process: the picture and the CPU seconds it took."""
    from bot.rendering.standings_png import standings_png

    started = time.process_time()
    picture = standings_png(board, locale, page)
    return picture, time.process_time() - started


@dataclass
class PictureFigures:
    """What the pictures cost, for the benchmark: CPU seconds in the worker process."""

    drawn: int = 0
    reused: int = 0
    cpu_total: float = 0.0
    cpu_max: float = 0.0


class StandingsPainter:
    """Draws standings pictures outside the event loop's process, one at a time."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None
        self._lock = asyncio.Lock()
        self._last: tuple[bytes, bytes] | None = None
        self.figures = PictureFigures()

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # A fresh interpreter, not a fork of this one with its threads and connections.
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(max_workers=1, mp_context=context)
        return self._pool

    async def draw(self, board: StandingsBoard, locale: str, page: int = 1) -> bytes:
        """Page `page` of the board as a PNG picture in `locale`."""
        key = hashlib.sha256(pickle.dumps((board, locale, page))).digest()
        async with self._lock:
            if self._last is not None and self._last[0] == key:
                self.figures.reused += 1
                return self._last[1]
            loop = asyncio.get_running_loop()
            try:
                picture, cpu = await loop.run_in_executor(
                    self._executor(), _draw, board, locale, page
                )
            except BrokenProcessPool:
                # The worker died (killed, out of memory): the next picture starts a new one.
                self._pool = None
                raise
            self._last = (key, picture)
            self.figures.drawn += 1
            self.figures.cpu_total += cpu
            self.figures.cpu_max = max(self.figures.cpu_max, cpu)
            return picture

    async def close(self) -> None:
        """Stop the worker process (it is started again if a picture is asked for later)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)
