"""The standings pictures drawn in a process of their own.

matplotlib takes seconds of CPU for a large table; in a thread it would still hold the event
loop's GIL for most of them and every judge's tap would wait. One worker process draws the
pictures one after another, the channel's (a round or a stage closing) and those a person asks
for with /standings' button alike; the same board asked for again (a round and its stage
closing together, two people pressing the button) is drawn once. The worker starts with the
first picture (not with the bot: it would slow the bot's start-up); the bot's own process never
loads matplotlib.
"""

from __future__ import annotations

import asyncio
import hashlib
import multiprocessing
import pickle
import signal
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

from domain.standings_board import StandingsBoard


def _ignore_interrupts() -> None:
    """In the worker process: Ctrl+C reaches the whole process group, and it is the bot's to
    handle (its stop closes the worker); a worker interrupted mid-picture would only fail the
    message being sent with a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _warm_up() -> None:
    """In the worker process: load matplotlib before the first picture is asked for."""
    import bot.rendering.standings_png  # noqa: F401


def _draw_all(board: StandingsBoard, locale: str) -> tuple[list[bytes], float]:
    """In the worker process: every picture of the board and the CPU seconds they took."""
    from bot.rendering.standings_png import standings_pngs

    started = time.process_time()
    pictures = standings_pngs(board, locale)
    return pictures, time.process_time() - started


def _draw_rating_history(
    after: tuple[float, ...], title: str, axis: str
) -> tuple[list[bytes], float]:
    """In the worker process: a player's rating history (/profile)."""
    from bot.rendering.rating_png import rating_history_png

    started = time.process_time()
    picture = rating_history_png(after, title=title, axis=axis)
    return [picture], time.process_time() - started


def _draw_table(
    title: str, header: tuple[str, ...], rows: tuple[tuple[str, ...], ...], mine: int | None
) -> tuple[list[bytes], float]:
    """In the worker process: a series' rating table (/rating), the reader's row marked."""
    from bot.rendering.rating_png import table_pngs

    started = time.process_time()
    pictures = table_pngs(title, header, rows, mine)
    return pictures, time.process_time() - started


@dataclass
class PictureFigures:
    """What the pictures cost, for the benchmark: CPU seconds in the worker process."""

    drawn: int = 0
    reused: int = 0
    cpu_total: float = 0.0
    cpu_max: float = 0.0


class PictureWorker:
    """The process the pictures are drawn in: started with the first picture, started anew
    after it died, stopped by `close()`."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None

    def executor(self) -> ProcessPoolExecutor:
        """The worker process, started if it is not running."""
        if self._pool is None:
            # A fresh interpreter, not a fork of this one with its threads and connections.
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(
                max_workers=1, mp_context=context, initializer=_ignore_interrupts
            )
            self._pool.submit(_warm_up)  # the first picture queues behind it
        return self._pool

    def broken(self, pool: ProcessPoolExecutor) -> None:
        """`pool` died (killed, out of memory): the next picture starts a new process."""
        if self._pool is pool:
            self._pool = None

    async def close(self) -> None:
        """Stop the process (a picture asked for later starts it again)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)


class StandingsPainter:
    """Draws standings pictures outside the event loop's process, one drawing at a time.

    A bot's painter has a worker of its own, stopped with it (`close()`). A painter handed a
    `worker` draws there and leaves it running for its owner: the tests' bots share one per
    test process, since each worker starts a fresh interpreter importing matplotlib (1.5 s of
    CPU and more)."""

    def __init__(self, worker: PictureWorker | None = None) -> None:
        self._owned = worker is None
        self._worker = worker if worker is not None else PictureWorker()
        self._lock = asyncio.Lock()
        self._last: tuple[bytes, list[bytes]] | None = None
        self.figures = PictureFigures()

    async def draw_all(self, board: StandingsBoard, locale: str) -> list[bytes]:
        """Every picture of the board in `locale`, in order: the album a channel's post or
        /standings' button sends."""
        return await self._drawn(("all", board, locale), _draw_all, board, locale)

    async def draw_rating_history(self, after: tuple[float, ...], title: str, axis: str) -> bytes:
        """A player's rating history as one picture (/profile)."""
        request = ("history", after, title, axis)
        (picture,) = await self._drawn(request, _draw_rating_history, after, title, axis)
        return picture

    async def draw_table(
        self,
        title: str,
        header: tuple[str, ...],
        rows: tuple[tuple[str, ...], ...],
        mine: int | None,
    ) -> list[bytes]:
        """A table of cells (a series' rating) as pictures, row `mine` marked (/rating)."""
        request = ("table", title, header, rows, mine)
        return await self._drawn(request, _draw_table, title, header, rows, mine)

    async def _drawn(
        self,
        request: tuple[object, ...],
        work: Callable[..., tuple[list[bytes], float]],
        *args: object,
    ) -> list[bytes]:
        key = hashlib.sha256(pickle.dumps(request)).digest()
        # One at a time: a request waiting here for the same board finds it drawn.
        async with self._lock:
            if self._last is not None and self._last[0] == key:
                self.figures.reused += 1
                return self._last[1]
            pool = self._worker.executor()
            try:
                loop = asyncio.get_running_loop()
                pictures, cpu = await loop.run_in_executor(pool, work, *args)
            except BrokenProcessPool:
                self._worker.broken(pool)
                raise
            self._last = (key, pictures)
            self.figures.drawn += len(pictures)
            self.figures.cpu_total += cpu
            self.figures.cpu_max = max(self.figures.cpu_max, cpu / max(len(pictures), 1))
            return pictures

    async def close(self) -> None:
        """Stop the worker process if it is this painter's own (it is started again if a
        picture is asked for later); a worker handed in is left to its owner."""
        if self._owned:
            await self._worker.close()
