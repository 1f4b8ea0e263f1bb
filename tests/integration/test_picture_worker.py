"""The picture worker of a bot, as the product runs it: a process of its own started by the
first picture (not by the bot), started anew after it was killed, stopped with the painter.
The tests' other bots share one worker instead (`harness.sandbox.shared_pictures`); here the
painter that shares one leaves it running when it closes."""

from __future__ import annotations

import multiprocessing
import os
import signal
from concurrent.futures.process import BrokenProcessPool

import pytest

from bot.rendering.pictures import PictureWorker, StandingsPainter
from tests.unit.test_standings_render import cup_board

PNG = b"\x89PNG"


def _children() -> set[int]:
    """The worker processes this test process runs now (the shared one among them)."""
    return {child.pid for child in multiprocessing.active_children() if child.pid is not None}


async def test_a_bot_s_worker_starts_with_the_first_picture_and_again_after_a_kill() -> None:
    before = _children()
    painter = StandingsPainter()
    try:
        assert _children() == before  # not started by the painter's making
        (first,) = await painter.draw_all(cup_board(10), "ru")
        (worker,) = _children() - before
        os.kill(worker, signal.SIGKILL)
        with pytest.raises(BrokenProcessPool):
            await painter.draw_all(cup_board(10, title="Другой"), "ru")
        # The next picture starts a new process.
        (again,) = await painter.draw_all(cup_board(10, title="Третий"), "ru")
        (restarted,) = _children() - before
    finally:
        await painter.close()
    assert first.startswith(PNG) and again.startswith(PNG)
    assert restarted != worker
    assert _children() == before  # stopped with the painter
    assert painter.figures.drawn == 2


async def test_a_painter_sharing_a_worker_leaves_it_running() -> None:
    worker = PictureWorker()
    try:
        before = _children()
        running = []
        for title in ("Первый", "Второй"):
            painter = StandingsPainter(worker)
            (picture,) = await painter.draw_all(cup_board(10, title=title), "ru")
            await painter.close()
            assert picture.startswith(PNG)
            running.append(_children() - before)
    finally:
        await worker.close()
    # One process drew for both painters and outlived them, until its owner closed it.
    assert len(running[0]) == 1 and running[1] == running[0]
    assert _children() == before
