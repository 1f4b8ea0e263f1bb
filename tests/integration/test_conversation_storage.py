"""Wizard progress kept in the database outlives the storage object (a restart)."""

from __future__ import annotations

from aiogram.fsm.state import State, StatesGroup
from aiogram.fsm.storage.base import StorageKey
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.db.engine import create_session_factory
from bot.db.fsm_storage import SqlStorage, sender_read_with_state
from bot.db.repositories.users import SqlUserRepository
from bot.db.transactions import counting
from domain.services.users import UNREAD
from domain.users import User


class Registration(StatesGroup):
    nickname = State()
    club = State()


KEY = StorageKey(bot_id=1, chat_id=42, user_id=42)


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
    from aiogram.fsm.context import FSMContext

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
