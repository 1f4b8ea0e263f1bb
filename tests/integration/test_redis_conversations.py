"""With REDIS_URL set, conversation state lives in Redis and outlives the Dispatcher."""

from __future__ import annotations

import uuid
from pathlib import Path

from aiogram.fsm.storage.base import StorageKey
from aiogram.fsm.storage.redis import RedisStorage

from bot.app import build_dispatcher
from bot.config import Settings
from bot.db.engine import create_engine, create_session_factory
from bot.db.uow import SqlUnitOfWorkFactory

REDIS_URL = "redis://127.0.0.1:6379/15"


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
