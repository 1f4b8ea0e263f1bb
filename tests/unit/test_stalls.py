"""The benchmark's loop monitor names what held the event loop (`harness.simulation.stalls`)."""

from __future__ import annotations

import asyncio
import gc
import json
import time
from dataclasses import asdict

from harness.simulation.stalls import STALL, LoopStalls, StallWatch


def _hold_the_loop(seconds: float) -> None:
    time.sleep(seconds)  # what a callback that never yields does to every update in flight


async def test_a_callback_holding_the_loop_is_a_stall_named_by_its_frame() -> None:
    async with StallWatch() as watch:
        await asyncio.sleep(0.05)
        _hold_the_loop(STALL * 4)
        for _ in range(200):  # the heartbeat notes it when it wakes: wait for it, generously
            if watch.stalls.count:
                break
            await asyncio.sleep(0.05)
    assert watch.stalls.count >= 1
    seconds, _, what = watch.stalls.longest[0]
    assert seconds >= STALL
    assert "_hold_the_loop" in what


async def test_a_garbage_collection_during_a_stall_is_named() -> None:
    # The test process keeps its start-up heap frozen (tests/conftest.py); a bot's collection
    # walks a whole heap, so this one does too: unfrozen while it runs.
    gc.unfreeze()
    try:
        await _collect_in_a_stall()
    finally:
        gc.freeze()


async def _collect_in_a_stall() -> None:
    async with StallWatch() as watch:
        await asyncio.sleep(0.05)
        junk: list[list[list[int]]] = [
            [[] for _ in range(50)] for _ in range(20_000)
        ]  # something for it to walk
        began = time.perf_counter()
        while time.perf_counter() - began < STALL * 2:
            gc.collect()
        del junk
        for _ in range(200):
            if watch.stalls.count:
                break
            await asyncio.sleep(0.05)
    assert any("gc generation 2" in what for _, _, what in watch.stalls.longest)


def test_the_stalls_of_several_processes_add_up_through_json() -> None:
    one, two = LoopStalls(), LoopStalls()
    one.add(0.07, 0.06, "a")
    two.add(0.2, 0.01, "b")  # the process waited for a core
    two.add(0.06, 0.055, "c")
    read = [LoopStalls(**json.loads(json.dumps(asdict(s)))) for s in (one, two)]
    together = LoopStalls.of_processes(read)
    assert (together.count, together.own) == (3, 2)
    assert [what for _, _, what in together.longest] == ["b", "a", "c"]
    # By the loop thread's CPU, the one that mostly waited for a core last.
    assert [what for _, _, what in together.longest_own] == ["a", "c", "b"]
    assert together.lines()[2] == "    200 / 10 ms: b"
