"""Staffing screens: an admin appoints organizers, an organizer invites the judges, by link."""

from __future__ import annotations

from aiogram import Bot, F, Router
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.types import CallbackQuery, Message

from bot.telegram.menus import CommandMenus
from domain.actor import Actor
from domain.invites import split_payload
from domain.outgoing import Phrase
from domain.permissions import StaffRole
from domain.services.access import NotFound
from domain.services.catalog import Services
from domain.users import User
from handlers.callbacks import JudgeInvite
from handlers.common import deep_link
from handlers.middlewares import Texts
from handlers.staff_views import ROLE_TEXTS
from handlers.start import refresh_person_menu


async def appoint_organizer(
    message: Message,
    actor: Actor,
    texts: Texts,
    services: Services,
    bot: Bot,
) -> None:
    invite = await services.staff.invite_organizer(actor)
    await message.answer(texts("staff-organizer-link", link=await deep_link(bot, invite.payload)))


async def invite_staff(
    callback: CallbackQuery,
    callback_data: JudgeInvite,
    actor: Actor,
    texts: Texts,
    services: Services,
    bot: Bot,
) -> None:
    role = callback_data.role
    invite = await services.staff.invite_judge(actor, callback_data.tournament_id, role)
    link = await deep_link(bot, invite.payload)
    if isinstance(callback.message, Message):
        await callback.message.answer(texts(f"staff-link-{role.value}", link=link))
    await callback.answer()


async def accept(
    message: Message,
    command: CommandObject,
    user: User,
    texts: Texts,
    services: Services,
    bot: Bot,
    actor: Actor,
    menus: CommandMenus,
) -> None:
    parts = split_payload(command.args or "")
    if parts is None:
        raise NotFound("invite")
    appointment = await services.staff.accept_staff_invite(actor, parts[1])
    if appointment.invite.kind is not parts[0]:
        raise NotFound("invite")
    title = appointment.tournament_title or ""
    await message.answer(texts.phrase(Phrase.of(ROLE_TEXTS[appointment.invite.kind], title=title)))
    # The new role's commands (/protocol, /rounds...) join the person's menu.
    await refresh_person_menu(bot, menus, user, services, actor)


def make_router() -> Router:
    """Organizer appointment and judge invitations."""
    router = Router(name="staff")
    router.message.filter(F.chat.type == "private")
    router.message.register(
        accept, CommandStart(deep_link=True, magic=F.args.regexp(r"^[cjo][A-Za-z0-9_-]+$"))
    )
    router.message.register(appoint_organizer, Command("organizer"))
    router.callback_query.register(invite_staff, JudgeInvite.filter(F.role.in_(set(StaffRole))))
    return router
