"""With REDIS_URL set, conversation state lives in Redis and outlives the Dispatcher; a chat's
lock (one update of a chat handled at a time) lives a lease."""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path

from aiogram import Dispatcher
from aiogram.fsm.storage.base import BaseEventIsolation, StorageKey
from aiogram.fsm.storage.redis import DefaultKeyBuilder, RedisStorage

from bot.app import build_dispatcher
from bot.config import Settings
from bot.db.engine import create_engine, create_session_factory
from bot.db.uow import SqlUnitOfWorkFactory

REDIS_URL = "redis://127.0.0.1:6379/15"
# The shortest lease the settings take: the locks below run out within seconds.
LEASE_SECONDS = 3.0
# Far beyond a lease, far below aiogram's default lock of a minute.
WAIT_SECONDS = 10 * LEASE_SECONDS


async def test_wizard_state_survives_a_new_dispatcher(tmp_path: Path) -> None:
    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}",
        redis_url=REDIS_URL,
    )
    engine = create_engine(settings.database_url)
    sessions = create_session_factory(engine)
    key = StorageKey(bot_id=1, chat_id=int(uuid.uuid4().int % 10**9), user_id=7)
    try:
        first = build_dispatcher(settings, sessions, SqlUnitOfWorkFactory(sessions))
        assert isinstance(first.storage, RedisStorage)
        await first.storage.set_state(key, "Registration:club")
        await first.storage.set_data(key, {"nickname": "Ворон"})
        await first.storage.close()

        second = build_dispatcher(settings, sessions, SqlUnitOfWorkFactory(sessions))
        assert await second.storage.get_state(key) == "Registration:club"
        assert await second.storage.get_data(key) == {"nickname": "Ворон"}
        await second.storage.set_state(key, None)
        await second.storage.set_data(key, {})
        await second.storage.close()
    finally:
        await engine.dispose()


def _replica(tmp_path: Path) -> Dispatcher:
    """A bot process's dispatcher on the shared Redis (its database is not used here)."""
    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}",
        redis_url=REDIS_URL,
        lease_seconds=LEASE_SECONDS,
    )
    sessions = create_session_factory(create_engine(settings.database_url))
    return build_dispatcher(settings, sessions, SqlUnitOfWorkFactory(sessions))


def _isolation(dispatcher: Dispatcher) -> BaseEventIsolation:
    isolation: BaseEventIsolation = dispatcher.fsm.events_isolation
    return isolation


def _chat() -> StorageKey:
    return StorageKey(bot_id=1, chat_id=int(uuid.uuid4().int % 10**9), user_id=7)


async def test_a_chat_held_by_a_killed_replica_is_handled_elsewhere_within_a_lease(
    tmp_path: Path,
) -> None:
    key = _chat()
    killed, other = _replica(tmp_path), _replica(tmp_path)
    # The killed replica took the chat's lock for an update and never let it go (its lock is
    # kept referenced: collected, it would let go as a process killed does not).
    held = _isolation(killed).lock(key)
    await held.__aenter__()
    assert isinstance(other.storage, RedisStorage)
    lock_key = DefaultKeyBuilder().build(key, "lock")
    assert 0 < await other.storage.redis.pttl(lock_key) <= LEASE_SECONDS * 1000
    # The chat's next update, on another replica, waits for the lock a lease at most.
    async with asyncio.timeout(WAIT_SECONDS), _isolation(other).lock(key):
        assert await other.storage.redis.exists(lock_key)
    await held.__aexit__(None, None, None)
    for replica in (killed, other):
        await replica.storage.close()


async def test_an_update_handled_for_longer_than_a_lease_is_not_failed_for_it(
    tmp_path: Path,
) -> None:
    key = _chat()
    replica = _replica(tmp_path)
    assert isinstance(replica.storage, RedisStorage)
    lock_key = DefaultKeyBuilder().build(key, "lock")
    async with _isolation(replica).lock(key):
        async with asyncio.timeout(WAIT_SECONDS):
            while await replica.storage.redis.exists(lock_key):
                await asyncio.sleep(0.1)
    # Leaving the lock that ran out raised nothing: the update's handling ends as it went.
    await replica.storage.close()
