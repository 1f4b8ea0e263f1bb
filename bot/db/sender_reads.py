"""The read an update begins with, in one statement: its conversation state, its sender and,
for a command that shows the person his menu, what that needs.

aiogram reads the conversation state of every update (`bot.db.fsm_storage`); the sender's user
row comes in the same statement (the middleware remembering the sender needs no read of its
own), and for a /help or a /start (`SenderReadingFSM`'s question, handed in by the composition
root) his standing (what his roles are made of) and the digest of the command menu his chat
shows (`bot.telegram.menus`) come too: a /help reads in one statement what took three
transactions, and that statement begins no transaction of its own (`bot.db.engine.one_read`).
Nothing is kept across updates: each update reads afresh, so another replica's or a restart's
writes are seen by the next update.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import BigInteger, Select, bindparam, literal, select
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.db.models import CommandMenuRow, ConversationRow, UserRow
from bot.db.models.menus import chat_scope_key
from bot.db.repositories.staff import standing_facts, standing_of
from domain.services.ports import Standing
from domain.users import User


@dataclass(frozen=True)
class PersonFacts:
    """What a command showing the person's menu needs: his standing, and the digest of the
    menu his chat shows (`scope`; None: none was ever set)."""

    standing: Standing
    scope: str
    menu_digest: str | None


@dataclass(frozen=True)
class SenderRead:
    """An update's first read: its conversation (None: no row), the sender (None: never
    stored) and, when asked for, his `PersonFacts`."""

    conversation: tuple[str | None, dict[str, Any]] | None
    user: User | None
    person: PersonFacts | None


async def read_sender(
    connection: AsyncConnection, conversation_key: str, user_id: int, with_person: bool
) -> SenderRead:
    """The conversation `conversation_key` and the sender `user_id` (and, `with_person`, his
    `PersonFacts`) in one statement, run on `connection` (`bot.db.engine.one_read`'s)."""
    scope = chat_scope_key(user_id)
    statement = _WITH_PERSON if with_person else _SENDER
    values = {"conversation_key": conversation_key, "user_id": user_id, "scope": scope}
    row = (await connection.execute(statement, values)).one()
    conversation = None if row.key is None else (row.state, dict(row.data))
    user = None
    if row.telegram_id is not None:
        user = User(row.telegram_id, row.first_name, row.last_name, row.username, row.locale)
    person = None
    if with_person:
        person = PersonFacts(standing_of(row._mapping), scope, row.digest)
    return SenderRead(conversation, user, person)


def _statement(with_person: bool) -> Select[Any]:
    """One row whatever is stored: the conversation's and the user's columns (NULL when
    missing), then the person's facts `with_person`; built once, its values bound."""
    user_id = bindparam("user_id", type_=BigInteger)
    columns: list[Any] = [
        ConversationRow.key,
        ConversationRow.state,
        ConversationRow.data,
        UserRow.telegram_id,
        UserRow.first_name,
        UserRow.last_name,
        UserRow.username,
        UserRow.locale,
    ]
    if with_person:
        digest = select(CommandMenuRow.digest).where(CommandMenuRow.scope == bindparam("scope"))
        columns += [*standing_facts(user_id), digest.scalar_subquery().label("digest")]
    one = select(literal(1).label("one")).subquery("one")
    return (
        select(*columns)
        .select_from(one)
        .outerjoin(ConversationRow, ConversationRow.key == bindparam("conversation_key"))
        .outerjoin(UserRow, UserRow.telegram_id == user_id)
    )


_SENDER, _WITH_PERSON = _statement(with_person=False), _statement(with_person=True)
