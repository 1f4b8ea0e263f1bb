"""The captain's screens' views: the team with its members, the captain's buttons, the
withdrawal's confirmation."""

from __future__ import annotations

from aiogram.types import InlineKeyboardMarkup
from aiogram.utils.keyboard import InlineKeyboardBuilder

from domain.layout import joined, lines, numbered
from domain.outgoing import Lines, Phrase
from domain.services.teams import TeamView
from handlers.callbacks import TeamAction, TeamButton
from handlers.middlewares import Texts


def team_text(view: TeamView, link: str | None) -> Lines:
    """The team with its members; `link` (the invite, for the captain) follows them."""
    members = [
        numbered(number, joined(member.nickname, " ★" if member.id == view.team.captain_id else ""))
        for number, member in enumerate(view.members, start=1)
    ]
    parts: list[Phrase] = [
        Phrase.of(
            "team-view",
            name=view.team.name,
            count=len(view.members),
            size=view.size,
            members=lines(members),
            complete=Phrase.of("team-complete") if view.complete else Phrase.of("team-incomplete"),
        )
    ]
    if link is not None:
        parts.append(Phrase.of("team-invite", link=link))
    return lines(parts, separator="\n\n")


def team_keyboard(view: TeamView, texts: Texts, captain: bool) -> InlineKeyboardMarkup:
    """The captain's buttons (remove a member, withdraw); none for anyone else."""
    keyboard = InlineKeyboardBuilder()
    if captain:
        for member in view.members:
            if member.id != view.team.captain_id:
                keyboard.button(
                    text=texts("team-remove", nickname=member.nickname),
                    callback_data=TeamAction(
                        team_id=view.team.id, action=TeamButton.REMOVE, member=member.id
                    ),
                )
        keyboard.button(
            text=texts("team-withdraw"),
            callback_data=TeamAction(team_id=view.team.id, action=TeamButton.WITHDRAW),
        )
    keyboard.adjust(1)
    return keyboard.as_markup()


def withdraw_keyboard(team_id: int, texts: Texts) -> InlineKeyboardMarkup:
    keyboard = InlineKeyboardBuilder()
    keyboard.button(
        text=texts("team-withdraw-yes"),
        callback_data=TeamAction(team_id=team_id, action=TeamButton.WITHDRAW_YES),
    )
    return keyboard.as_markup()
