"""The standings picture drawn in a process of its own.

matplotlib takes seconds of CPU for a large table; in a thread it would still hold the event
loop's GIL for most of them and every judge's tap would wait. One worker process draws the
pictures one after another; the same board asked for again (a round and its stage closing
together) is drawn once. The worker starts with the first picture (not with the bot: it
would slow the bot's start-up) and, until it has loaded matplotlib (seconds on a busy
machine), pictures are drawn in a thread as before, so none waits for it.
"""

from __future__ import annotations

import asyncio
import hashlib
import multiprocessing
import pickle
import time
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

from domain.standings_board import StandingsBoard


def _warm_up() -> None:
    """In the worker process: load matplotlib before the first picture is asked for."""
    import bot.rendering.standings_png  # noqa: F401


def _draw(board: StandingsBoard, locale: str, page: int) -> tuple[bytes, float]:
    """The picture and the CPU seconds it took (its thread's own, wherever it runs)."""
    from bot.rendering.standings_png import standings_png

    started = time.thread_time()
    picture = standings_png(board, locale, page)
    return picture, time.thread_time() - started


@dataclass
class PictureFigures:
    """What the pictures cost, for the benchmark: CPU seconds in the worker process."""

    drawn: int = 0
    # Drawn in a thread of the bot's process while the worker was not ready yet.
    in_thread: int = 0
    reused: int = 0
    cpu_total: float = 0.0
    cpu_max: float = 0.0


class StandingsPainter:
    """Draws standings pictures outside the event loop's process, one at a time."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None
        self._ready: Future[None] | None = None
        self._lock = asyncio.Lock()
        self._last: tuple[bytes, bytes] | None = None
        self.figures = PictureFigures()

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # A fresh interpreter, not a fork of this one with its threads and connections.
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(max_workers=1, mp_context=context)
            self._ready = self._pool.submit(_warm_up)
        return self._pool

    async def draw(self, board: StandingsBoard, locale: str, page: int = 1) -> bytes:
        """Page `page` of the board as a PNG picture in `locale`."""
        key = hashlib.sha256(pickle.dumps((board, locale, page))).digest()
        async with self._lock:
            if self._last is not None and self._last[0] == key:
                self.figures.reused += 1
                return self._last[1]
            pool = self._executor()
            if self._ready is not None and not self._ready.done():
                picture, cpu = await asyncio.to_thread(_draw, board, locale, page)
                self.figures.in_thread += 1
            else:
                try:
                    loop = asyncio.get_running_loop()
                    picture, cpu = await loop.run_in_executor(pool, _draw, board, locale, page)
                except BrokenProcessPool:
                    # The worker died (killed, out of memory): the next picture starts anew.
                    self._pool = None
                    raise
            self._last = (key, picture)
            self.figures.drawn += 1
            self.figures.cpu_total += cpu
            self.figures.cpu_max = max(self.figures.cpu_max, cpu)
            return picture

    async def close(self) -> None:
        """Stop the worker process (it is started again if a picture is asked for later)."""
        pool, self._pool, self._ready = self._pool, None, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)
