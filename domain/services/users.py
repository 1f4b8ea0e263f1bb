"""Use cases about the people who write to the bot."""

from __future__ import annotations

from dataclasses import replace

from domain.services.ports import UnitOfWorkFactory
from domain.users import User


async def remember_user(
    uow_factory: UnitOfWorkFactory,
    *,
    telegram_id: int,
    first_name: str,
    last_name: str | None,
    username: str | None,
    default_locale: str,
) -> User:
    """Store a person on first contact (speaking `default_locale`) and keep their names current.

    The language chosen with /lang is never overwritten by Telegram's client language.
    """
    async with uow_factory() as uow:
        known = await uow.users.get(telegram_id)
        if known is None:
            user = User(telegram_id, first_name, last_name, username, default_locale)
        else:
            user = replace(known, first_name=first_name, last_name=last_name, username=username)
        if user != known:
            await uow.users.save(user)
            await uow.commit()
        return user


async def choose_language(uow_factory: UnitOfWorkFactory, telegram_id: int, locale: str) -> User:
    """Remember the language a person chose; later messages (pushes too) use it."""
    async with uow_factory() as uow:
        user = await uow.users.get(telegram_id)
        if user is None:
            raise LookupError(f"user {telegram_id} has never written to the bot")
        user = replace(user, locale=locale)
        await uow.users.save(user)
        await uow.commit()
        return user


async def reopened_bot(uow_factory: UnitOfWorkFactory, telegram_id: int) -> None:
    """A person who had blocked the bot opened it again: messages to him go out once more
    (after the first refusal nothing more was sent to him, see `bot/delivery`)."""
    async with uow_factory() as uow:
        await uow.outbox.mark_reachable(telegram_id)
        await uow.commit()
