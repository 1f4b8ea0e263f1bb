"""aiogram FSM storage in the database: wizard progress survives a restart with no Redis.

aiogram reads the conversation state of every update (after taking the sender's isolation
lock); the same statement also fetches the sender's user row, so that the middleware
remembering the sender (`handlers/middlewares.py`) needs no transaction of its own, and for a
command that shows the person his menu (/help, /start: `SenderReadingFSM`) his standing and
his menu's digest (`bot.db.sender_reads`): a /help's one read. The data read with the state
serves the handler's `get_data` in the same update (a wizard's step reads its answers so far
without another transaction).

An update's writes to its own conversation (`set_state`, `set_data`, `update_data`, each a
transaction of its own before) are held while it is handled and stored together in one
transaction when its handling ends (`ConversationWritesHeld`, a middleware inside aiogram's
isolation lock), also when the handler raised: what a wizard's step writes costs one
transaction, the sender's next update (waiting for the lock) reads what it stored, and the
update itself reads what it wrote from the held copy. The held changes are replayed on the
row as stored at the end (a merge merges with the stored data, as it did in its own
transaction). Writes outside an update's handling (or to another conversation) are stored at
once. Nothing is cached across updates (another replica may change either row at any time).
The price: a crash after an update's reply and before its end loses that step's writes (the
wizard resumes at the step before), where each write used to be stored as it was made.
"""

from __future__ import annotations

import copy
from collections.abc import Awaitable, Callable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from aiogram import BaseMiddleware
from aiogram.fsm.context import FSMContext
from aiogram.fsm.middleware import FSMContextMiddleware
from aiogram.fsm.state import State
from aiogram.fsm.storage.base import (
    BaseEventIsolation,
    BaseStorage,
    DefaultKeyBuilder,
    StateType,
    StorageKey,
)
from aiogram.types import TelegramObject
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.db.engine import one_read
from bot.db.models import ConversationRow
from bot.db.sender_reads import PersonFacts, read_sender
from domain.services.ports import Standing
from domain.services.users import UNREAD, Unread
from domain.users import User

# A write to a conversation: its new (state, data) from the current ones.
Change = Callable[[str | None, dict[str, Any]], tuple[str | None, dict[str, Any]]]


@dataclass
class _Conversation:
    """A conversation as the update being handled read it and changed it since; `held` are
    its changes not stored yet, in order (None: its writes are not held but stored at once)."""

    key: str
    state: str | None
    data: dict[str, Any]
    held: list[Change] | None = None


# The sender read with the conversation state of the update being handled: (telegram id, user
# or None when never stored). Each update is handled in its own task, so its own context.
_sender: ContextVar[tuple[int, User | None] | None] = ContextVar("sender", default=None)
# The conversation of the update being handled as it read and wrote it, so a handler's
# `get_state`/`get_data` after the state's read needs no transaction of its own.
_conversation: ContextVar[_Conversation | None] = ContextVar("conversation", default=None)
# Whether the update being handled shows the person his menu (`SenderReadingFSM`), and what
# was read for it with the state, each handed out once: his standing (with his telegram id)
# and his menu's digest (with its scope).
_wants_person: ContextVar[bool] = ContextVar("wants_person", default=False)
_standing: ContextVar[tuple[int, Standing] | None] = ContextVar("standing", default=None)
_menu: ContextVar[PersonFacts | None] = ContextVar("menu", default=None)


def sender_read_with_state(telegram_id: int) -> User | Unread | None:
    """The sender as read with this update's conversation state, once (UNREAD if not read)."""
    read = _sender.get()
    _sender.set(None)
    if read is None or read[0] != telegram_id:
        return UNREAD
    return read[1]


def standing_read_with_state(telegram_id: int) -> Standing | Unread:
    """The sender's standing as read with this update's state, once (UNREAD if not read)."""
    read = _standing.get()
    _standing.set(None)
    if read is None or read[0] != telegram_id:
        return UNREAD
    return read[1]


def menu_read_with_state(scope: str) -> str | Unread | None:
    """The digest of the menu at `scope` (the sender's chat) as read with this update's state,
    once: None when none is stored, UNREAD if not read."""
    read = _menu.get()
    _menu.set(None)
    if read is None or read.scope != scope:
        return UNREAD
    return read.menu_digest


Wants = Callable[[TelegramObject], bool]


class SenderReadingFSM(FSMContextMiddleware):
    """aiogram's FSM middleware, telling the storage whether the update (`wants_person`)
    shows the person his menu, so his state's read fetches what that needs as well."""

    def __init__(
        self, storage: SqlStorage, events_isolation: BaseEventIsolation, wants_person: Wants
    ) -> None:
        super().__init__(storage, events_isolation)
        self._wants_person = wants_person

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        wanted = _wants_person.set(self._wants_person(event))
        try:
            return await super().__call__(handler, event, data)
        finally:
            _wants_person.reset(wanted)


class SqlStorage(BaseStorage):
    """One row per conversation key; an empty state with no data removes the row."""

    def __init__(self, session_factory: async_sessionmaker[AsyncSession]) -> None:
        self._session_factory = session_factory
        self._keys = DefaultKeyBuilder(with_bot_id=True, with_destiny=True)

    async def set_state(self, key: StorageKey, state: StateType = None) -> None:
        value = state.state if isinstance(state, State) else state
        await self._write(key, lambda _, data: (value, data))

    async def get_state(self, key: StorageKey) -> str | None:
        """The conversation's state: while this update holds its writes, as it holds it; else
        read (with the sender, and kept for the update's `get_data`)."""
        row_key = self._keys.build(key)
        known = _conversation.get()
        if known is not None and known.key == row_key and known.held is not None:
            return known.state
        wants_person, user_id = _wants_person.get(), key.user_id
        _wants_person.set(False)  # for the update's own state, its first read
        async with one_read(self._session_factory) as connection:
            read = await read_sender(connection, row_key, user_id, wants_person)
        _sender.set((user_id, read.user))
        if read.person is not None:
            _standing.set((user_id, read.person.standing))
            _menu.set(read.person)
        state, data = read.conversation or (None, {})
        _conversation.set(_Conversation(row_key, state, data))
        return state

    async def set_data(self, key: StorageKey, data: Mapping[str, Any]) -> None:
        # A copy as of now: a held write is stored after the handler may have changed `data`.
        written = copy.deepcopy(dict(data))
        await self._write(key, lambda state, _: (state, copy.deepcopy(written)))

    async def update_data(self, key: StorageKey, data: Mapping[str, Any]) -> dict[str, Any]:
        """Merge `data` into the stored data with no read of its own (aiogram's default reads
        in one transaction and writes in another)."""
        added = copy.deepcopy(dict(data))
        return await self._write(key, lambda state, old: (state, {**old, **copy.deepcopy(added)}))

    async def get_data(self, key: StorageKey) -> dict[str, Any]:
        """The conversation's data: as this update read it with the state (or wrote it since),
        else read."""
        row_key = self._keys.build(key)
        known = _conversation.get()
        if known is not None and known.key == row_key:
            return dict(known.data)
        async with one_read(self._session_factory) as connection:
            data = await connection.scalar(
                select(ConversationRow.data).where(ConversationRow.key == row_key)
            )
        return dict(data) if data is not None else {}

    async def close(self) -> None:
        """Nothing to release: sessions are opened per call."""

    async def store_held(self, key: StorageKey) -> None:
        """Store the changes this update held for its conversation `key`, in one transaction,
        and stop holding them."""
        known = _conversation.get()
        if known is None or known.key != self._keys.build(key) or known.held is None:
            return
        held, known.held = known.held, None
        if held:
            known.state, known.data = await self._store(known.key, held)

    def hold_writes(self, key: StorageKey) -> None:
        """Hold this update's writes to its conversation `key` (read by `get_state` just
        before) until `store_held`."""
        known = _conversation.get()
        if known is not None and known.key == self._keys.build(key):
            known.held = []

    async def _write(self, key: StorageKey, change: Change) -> dict[str, Any]:
        """Make `change` (held when this update holds its conversation's writes, else stored
        at once); the data as it now stands is returned."""
        row_key = self._keys.build(key)
        known = _conversation.get()
        if known is not None and known.key == row_key and known.held is not None:
            known.state, known.data = change(known.state, known.data)
            known.held.append(change)
            return dict(known.data)
        state, data = await self._store(row_key, [change])
        if known is not None and known.key == row_key:
            known.state, known.data = state, data
        return dict(data)

    async def _store(
        self, row_key: str, changes: list[Change]
    ) -> tuple[str | None, dict[str, Any]]:
        """Make `changes` in order on the row as stored, in one transaction; the state and data
        as stored are returned."""
        async with self._session_factory() as session, session.begin():
            row = await session.get(ConversationRow, row_key)
            state, data = (row.state, dict(row.data)) if row else (None, {})
            for change in changes:
                state, data = change(state, data)
            empty = state is None and not data
            if row is not None and empty:
                await session.delete(row)
            elif row is None and not empty:
                session.add(ConversationRow(key=row_key, state=state, data=data))
            elif row is not None:
                row.state, row.data = state, data
        return state, dict(data)


class ConversationWritesHeld(BaseMiddleware):
    """An update middleware (inside aiogram's FSM middleware, so inside the sender's isolation
    lock, after the state's read): the update's writes to its conversation are held while it
    is handled and stored in one transaction at its end, also when the handler raised (each
    write used to commit at once, so what was written before an error stays written). The
    lock is released only after, so the sender's next update reads what was stored."""

    def __init__(self, storage: SqlStorage) -> None:
        self._storage = storage

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        context: FSMContext | None = data.get("state")
        if context is None:  # no person (a channel's post): no conversation
            return await handler(event, data)
        self._storage.hold_writes(context.key)
        try:
            return await handler(event, data)
        finally:
            await self._storage.store_held(context.key)
