"""Use cases about the people who write to the bot."""

from __future__ import annotations

from dataclasses import replace
from enum import StrEnum

from domain.actor import Actor
from domain.permissions import StaffRole
from domain.services.ports import Standing, UnitOfWorkFactory
from domain.users import User


class PersonRole(StrEnum):
    """What a person is to the bot, in any of his tournaments: what /help and his command menu
    show him."""

    PLAYER = "player"
    TABLE_JUDGE = "table_judge"
    CHIEF_JUDGE = "chief_judge"
    ORGANIZER = "organizer"
    ADMIN = "admin"


_STAFF_ROLES = {
    StaffRole.TABLE_JUDGE: PersonRole.TABLE_JUDGE,
    StaffRole.CHIEF_JUDGE: PersonRole.CHIEF_JUDGE,
}


class Unread:
    """Marks a person not read yet by the caller (`UserService.remember_user(known=...)`)."""


UNREAD = Unread()


class UserService:
    """A person's account: his roles, his language, the staff of a tournament."""

    def __init__(self, uow: UnitOfWorkFactory) -> None:
        self._uow = uow

    async def roles_of(
        self, actor: Actor, known: Standing | Unread = UNREAD
    ) -> tuple[PersonRole, ...]:
        """The person's roles in the order of `PersonRole`: player of any tournament, judge or
        chief judge of one not finished yet (a finished tournament's judge has nothing left to
        judge), an organizer (appointed, or the author of a tournament), an admin. `known` is
        his standing when the caller has just read it in this update (no transaction then)."""
        roles: set[PersonRole] = set()
        if actor.is_admin:
            roles.add(PersonRole.ADMIN)
        standing = known
        if isinstance(standing, Unread):
            async with self._uow() as uow:
                standing = await uow.staff.standing(actor.user_id)
        if standing.organizer:
            roles.add(PersonRole.ORGANIZER)
        roles.update(_STAFF_ROLES[role] for role in standing.judging)
        if standing.plays:
            roles.add(PersonRole.PLAYER)
        return tuple(role for role in PersonRole if role in roles)

    async def known(self, telegram_id: int) -> User | None:
        """The person as the bot knows him, None before he first wrote to it."""
        async with self._uow() as uow:
            return await uow.users.get(telegram_id)

    async def staff_of(self, tournament_id: int) -> list[User]:
        """The tournament's judges and chief judge the bot knows, to set their menus again."""
        async with self._uow() as uow:
            people = [
                await uow.users.get(user_id)
                for user_id, _ in await uow.staff.of_tournament(tournament_id)
            ]
        return [person for person in people if person is not None]

    async def remember_user(
        self,
        *,
        telegram_id: int,
        first_name: str,
        last_name: str | None,
        username: str | None,
        default_locale: str,
        known: User | Unread | None = UNREAD,
    ) -> User:
        """Store a person on first contact (speaking `default_locale`) and keep their names current.

        The language chosen with /lang is never overwritten by Telegram's client language.
        `known` is the stored person (None: never stored) when the caller has just read him in
        this update: a person whose names did not change then costs no transaction at all.
        """
        names = (telegram_id, first_name, last_name, username, default_locale)
        if not isinstance(known, Unread):
            user = _contacted(known, *names)
            if user == known:
                return user
        async with self._uow() as uow:
            stored = await uow.users.get(telegram_id)
            user = _contacted(stored, *names)
            if user != stored:
                await uow.users.save(user)
                await uow.commit()
            return user

    async def choose_language(self, telegram_id: int, locale: str) -> User:
        """Remember the language a person chose; later messages (pushes too) use it."""
        async with self._uow() as uow:
            user = await uow.users.get(telegram_id)
            if user is None:
                raise LookupError(f"user {telegram_id} has never written to the bot")
            user = replace(user, locale=locale)
            await uow.users.save(user)
            await uow.commit()
            return user

    async def reopened_bot(self, telegram_id: int) -> None:
        """A person who had blocked the bot opened it again: messages to him go out once more
        (after the first refusal nothing more was sent to him, see `bot/delivery`)."""
        async with self._uow() as uow:
            await uow.outbox.mark_reachable(telegram_id)
            await uow.commit()


def _contacted(
    known: User | None,
    telegram_id: int,
    first_name: str,
    last_name: str | None,
    username: str | None,
    default_locale: str,
) -> User:
    if known is None:
        return User(telegram_id, first_name, last_name, username, default_locale)
    return replace(known, first_name=first_name, last_name=last_name, username=username)
