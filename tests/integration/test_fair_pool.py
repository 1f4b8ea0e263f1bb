"""PostgreSQL's pool (bot.db.fair_pool): units of work waiting for a connection get one in the
order they began to wait, a burst larger than the pool opens no connection beyond it and the
pool keeps those it opened, and a unit of work that stops waiting leaves the line."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, exc, text
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.db.engine import POSTGRES_POOL_SIZE, create_engine
from bot.db.fair_pool import FairQueuePool
from harness.fake_telegram import WAIT_LIMIT
from tests.conftest import _drop_postgres_database, make_database_url

pytestmark = pytest.mark.postgresql


@pytest.fixture
async def postgres_url(tmp_path: Path) -> AsyncIterator[str]:
    url = await make_database_url("postgresql", tmp_path)
    yield url
    await _drop_postgres_database(url)


def _pool(engine: AsyncEngine) -> FairQueuePool:
    pool = engine.sync_engine.pool
    assert isinstance(pool, FairQueuePool)
    return pool


async def _until(condition: Callable[[], bool]) -> None:
    async with asyncio.timeout(WAIT_LIMIT):
        while not condition():
            await asyncio.sleep(0)


def _opened(engine: AsyncEngine) -> list[Any]:
    """Each connection the engine's pool opens from now on."""
    opened: list[Any] = []
    event.listen(engine.sync_engine, "connect", lambda connection, _: opened.append(connection))
    return opened


async def test_the_bot_s_engine_has_a_fixed_fair_pool(postgres_url: str) -> None:
    engine = create_engine(postgres_url)
    try:
        assert _pool(engine).size() == POSTGRES_POOL_SIZE
    finally:
        await engine.dispose()


async def test_waiters_get_a_connection_in_the_order_they_asked(postgres_url: str) -> None:
    engine = create_engine(postgres_url, pool_size=1)
    pool, served = _pool(engine), []

    async def unit_of_work(name: str) -> None:
        async with engine.connect() as connection:
            served.append(name)
            await connection.scalar(text("SELECT 1"))

    try:
        holder = await engine.connect()
        waiters = []
        for number, name in enumerate(("first", "second", "third"), start=1):
            waiters.append(asyncio.create_task(unit_of_work(name)))
            await _until(lambda number=number: pool.waiting() == number)  # type: ignore[misc]
        # The holder gives its connection back and asks again at once, as an update's first
        # read and its unit of work do: it queues behind those already waiting.
        await holder.close()
        await unit_of_work("the holder again")
        await asyncio.gather(*waiters)
        assert served == ["first", "second", "third", "the holder again"]
    finally:
        await engine.dispose()


async def test_a_burst_opens_no_connection_beyond_the_pool_and_keeps_them(
    postgres_url: str,
) -> None:
    engine = create_engine(postgres_url, pool_size=3)
    pool, opened = _pool(engine), _opened(engine)
    most_waiting = 0

    async def press() -> None:
        nonlocal most_waiting
        most_waiting = max(most_waiting, pool.waiting())
        async with engine.begin() as connection:
            await connection.scalar(text("SELECT pg_backend_pid()"))

    try:
        await asyncio.gather(*(press() for _ in range(30)))
        assert most_waiting > 0  # the burst was larger than the pool
        assert len(opened) == 3
        await asyncio.gather(*(press() for _ in range(30)))
        assert len(opened) == 3  # the second burst opened none
        assert (pool.checkedin(), pool.checkedout()) == (3, 0)
    finally:
        await engine.dispose()


async def test_a_cancelled_waiter_leaves_the_line(postgres_url: str) -> None:
    engine = create_engine(postgres_url, pool_size=1)
    pool = _pool(engine)
    try:
        holder = await engine.connect()
        leaving = asyncio.create_task(engine.connect().start())
        await _until(lambda: pool.waiting() == 1)
        staying = asyncio.create_task(engine.connect().start())
        await _until(lambda: pool.waiting() == 2)
        leaving.cancel()
        with pytest.raises(asyncio.CancelledError):
            await leaving
        assert pool.waiting() == 1
        await holder.close()
        async with asyncio.timeout(WAIT_LIMIT):
            connection = await staying
        assert await connection.scalar(text("SELECT 1")) == 1
        await connection.close()
    finally:
        await engine.dispose()


async def test_a_waiter_out_of_time_gets_the_pool_s_timeout_and_leaves(postgres_url: str) -> None:
    engine = create_engine(postgres_url, pool_size=1, pool_timeout=0.5)
    pool = _pool(engine)
    try:
        holder = await engine.connect()
        with pytest.raises(exc.TimeoutError, match=r"none free within 0\.5 s"):
            await engine.connect()
        assert pool.waiting() == 0
        await holder.close()
        assert pool.checkedin() == 1  # given back to nobody who stopped waiting
        async with engine.connect() as connection:
            assert await connection.scalar(text("SELECT 1")) == 1
    finally:
        await engine.dispose()


async def test_a_refused_connection_hands_its_place_to_a_waiter(postgres_url: str) -> None:
    """While the database refuses connections, a unit of work waiting behind one being opened
    gets the refusal in its turn instead of waiting for a connection nobody will give back."""
    refuse = asyncio.Event()

    async def refused() -> Any:
        await refuse.wait()
        raise OSError("connection refused")

    engine = create_engine(postgres_url, pool_size=1, async_creator=refused)
    pool = _pool(engine)
    try:
        opening = asyncio.create_task(engine.connect().start())
        await _until(lambda: pool.opened() == 1)
        waiting = asyncio.create_task(engine.connect().start())
        await _until(lambda: pool.waiting() == 1)
        refuse.set()
        async with asyncio.timeout(WAIT_LIMIT):
            outcomes = await asyncio.gather(opening, waiting, return_exceptions=True)
        assert [str(outcome) for outcome in outcomes] == ["connection refused"] * 2
        assert pool.opened() == 0
    finally:
        await engine.dispose()
