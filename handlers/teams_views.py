"""The captain's screens' views: the team with its members, the captain's buttons, the
withdrawal's confirmation and the words the buttons' `act` carries."""

from __future__ import annotations

from html import escape

from aiogram.types import InlineKeyboardMarkup
from aiogram.utils.keyboard import InlineKeyboardBuilder

from domain.services.teams import TeamView
from handlers.callbacks import TeamAction
from handlers.middlewares import Texts

SHOW, REMOVE, WITHDRAW, WITHDRAW_YES = "show", "remove", "withdraw", "withdraw_yes"


def team_text(view: TeamView, texts: Texts, link: str | None) -> str:
    """The team with its members; `link` (the invite, for the captain) follows them."""
    lines = [
        f"{number}. {escape(member.nickname)}" + (" ★" if member.id == view.team.captain_id else "")
        for number, member in enumerate(view.members, start=1)
    ]
    text = texts(
        "team-view",
        name=escape(view.team.name),
        count=len(view.members),
        size=view.size,
        members="\n".join(lines),
        complete=texts("team-complete") if view.complete else texts("team-incomplete"),
    )
    if link is not None:
        text += "\n\n" + texts("team-invite", link=link)
    return text


def team_keyboard(view: TeamView, texts: Texts, captain: bool) -> InlineKeyboardMarkup:
    """The captain's buttons (remove a member, withdraw); none for anyone else."""
    keyboard = InlineKeyboardBuilder()
    if captain:
        for member in view.members:
            if member.id != view.team.captain_id:
                keyboard.button(
                    text=texts("team-remove", nickname=member.nickname),
                    callback_data=TeamAction(team=view.team.id, act=REMOVE, member=member.id),
                )
        keyboard.button(
            text=texts("team-withdraw"), callback_data=TeamAction(team=view.team.id, act=WITHDRAW)
        )
    keyboard.adjust(1)
    return keyboard.as_markup()


def withdraw_keyboard(team_id: int, texts: Texts) -> InlineKeyboardMarkup:
    keyboard = InlineKeyboardBuilder()
    keyboard.button(
        text=texts("team-withdraw-yes"), callback_data=TeamAction(team=team_id, act=WITHDRAW_YES)
    )
    return keyboard.as_markup()
