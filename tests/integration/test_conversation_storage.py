"""Wizard progress kept in the database outlives the storage object (a restart)."""

from __future__ import annotations

import asyncio
import contextvars
from typing import Any

import pytest
from aiogram.fsm.context import FSMContext
from aiogram.fsm.state import State, StatesGroup
from aiogram.fsm.storage.base import StorageKey
from aiogram.types import TelegramObject, Update
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.db.engine import create_session_factory
from bot.db.fsm_storage import ConversationWritesHeld, SqlStorage, sender_read_with_state
from bot.db.repositories.users import SqlUserRepository
from bot.db.transactions import counting
from domain.services.users import UNREAD
from domain.users import User


class Registration(StatesGroup):
    nickname = State()
    club = State()


KEY = StorageKey(bot_id=1, chat_id=42, user_id=42)
UPDATE = Update(update_id=1)


async def test_state_and_data_survive_a_new_storage(engine: AsyncEngine) -> None:
    before = SqlStorage(create_session_factory(engine))
    await before.set_state(KEY, Registration.club)
    await before.update_data(KEY, {"nickname": "Ворон"})

    after = SqlStorage(create_session_factory(engine))
    assert await after.get_state(KEY) == Registration.club.state
    assert await after.get_data(KEY) == {"nickname": "Ворон"}


async def test_conversations_are_per_person(engine: AsyncEngine) -> None:
    storage = SqlStorage(create_session_factory(engine))
    await storage.set_state(KEY, Registration.nickname)
    other = StorageKey(bot_id=1, chat_id=43, user_id=43)
    assert await storage.get_state(other) is None
    assert await storage.get_data(other) == {}


async def test_clearing_forgets_the_conversation(engine: AsyncEngine) -> None:
    storage = SqlStorage(create_session_factory(engine))
    await storage.set_state(KEY, Registration.nickname)
    await storage.set_data(KEY, {"nickname": "x"})
    await storage.set_state(KEY, None)
    await storage.set_data(KEY, {})
    assert await storage.get_state(KEY) is None
    assert await storage.get_data(KEY) == {}


async def test_clearing_a_conversation_that_was_never_stored_is_harmless(
    engine: AsyncEngine,
) -> None:
    storage = SqlStorage(create_session_factory(engine))
    context = FSMContext(storage, StorageKey(bot_id=1, chat_id=44, user_id=44))
    await context.clear()
    await context.set_state(Registration.nickname)
    await context.clear()
    assert await context.get_state() is None and await context.get_data() == {}


async def test_reading_the_state_reads_the_sender_in_the_same_transaction(
    engine: AsyncEngine,
) -> None:
    session_factory = create_session_factory(engine)
    async with session_factory() as session, session.begin():
        await SqlUserRepository(session).save(User(42, "Анна", None, None, "en"))
    storage = SqlStorage(session_factory)
    await storage.set_state(KEY, Registration.club)
    with counting() as read:
        assert await storage.get_state(KEY) == Registration.club.state
        assert sender_read_with_state(42) == User(42, "Анна", None, None, "en")
    assert read.transactions == 1
    # Handed out once, and only for the sender whose state was read.
    assert sender_read_with_state(42) is UNREAD
    await storage.get_state(KEY)
    assert sender_read_with_state(43) is UNREAD


async def test_a_sender_never_stored_is_read_as_none(engine: AsyncEngine) -> None:
    storage = SqlStorage(create_session_factory(engine))
    assert await storage.get_state(KEY) is None
    assert sender_read_with_state(42) is None


async def test_updating_the_data_merges_it_in_one_transaction(engine: AsyncEngine) -> None:
    storage = SqlStorage(create_session_factory(engine))
    await storage.set_data(KEY, {"nickname": "Ворон", "club": "Омск"})
    with counting() as update:
        merged = await storage.update_data(KEY, {"club": "Томск", "city": "Томск"})
    assert update.transactions == 1
    assert merged == {"nickname": "Ворон", "club": "Томск", "city": "Томск"}
    assert await storage.get_data(KEY) == merged


async def test_an_updates_writes_are_stored_together_at_its_end(engine: AsyncEngine) -> None:
    storage = SqlStorage(create_session_factory(engine))
    await storage.set_data(KEY, {"tid": 7})
    held = ConversationWritesHeld(storage)

    async def step(_: TelegramObject, data: dict[str, Any]) -> None:
        # A wizard's step: it merges an answer, moves on, and reads back what it wrote.
        context: FSMContext = data["state"]
        assert await context.update_data(nickname="Ворон") == {"tid": 7, "nickname": "Ворон"}
        await context.set_state(Registration.club)
        assert await context.get_state() == Registration.club.state
        assert await context.get_data() == {"tid": 7, "nickname": "Ворон"}

    context = FSMContext(storage, KEY)
    with counting() as update:
        await context.get_state()
        await held(step, UPDATE, {"state": context})
    assert update.transactions == 2  # the state's read and the writes' store
    # The next update (here another storage, as after a restart) reads what was stored.
    after = SqlStorage(create_session_factory(engine))
    assert await after.get_state(KEY) == Registration.club.state
    assert await after.get_data(KEY) == {"tid": 7, "nickname": "Ворон"}


async def test_what_an_update_wrote_before_it_failed_is_stored(engine: AsyncEngine) -> None:
    storage = SqlStorage(create_session_factory(engine))
    await storage.set_state(KEY, Registration.nickname)

    async def failing(_: TelegramObject, data: dict[str, Any]) -> None:
        await data["state"].clear()
        raise RuntimeError("the use case failed")

    context = FSMContext(storage, KEY)
    await context.get_state()
    with pytest.raises(RuntimeError):
        await ConversationWritesHeld(storage)(failing, UPDATE, {"state": context})
    assert await SqlStorage(create_session_factory(engine)).get_state(KEY) is None


async def test_a_held_merge_merges_with_the_data_as_stored_at_the_end(
    engine: AsyncEngine,
) -> None:
    session_factory = create_session_factory(engine)
    storage = SqlStorage(session_factory)
    await storage.set_data(KEY, {"tid": 7})

    async def step(_: TelegramObject, data: dict[str, Any]) -> None:
        await data["state"].update_data(nickname="Ворон")
        # Meanwhile another replica (a context of its own) stores an answer of the same
        # conversation.
        replica = SqlStorage(session_factory).update_data(KEY, {"club": "Омск"})
        await asyncio.create_task(replica, context=contextvars.Context())

    context = FSMContext(storage, KEY)
    await context.get_state()
    await ConversationWritesHeld(storage)(step, UPDATE, {"state": context})
    after = SqlStorage(session_factory)
    assert await after.get_state(KEY) is None
    stored = await after.get_data(KEY)
    assert stored == {"tid": 7, "club": "Омск", "nickname": "Ворон"}
