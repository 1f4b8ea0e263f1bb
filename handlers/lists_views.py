"""The lists' views: a participant's line, the roster's and the teams' pages with their
buttons, a participant's screen, and the words a participant's buttons' `act` carries (the
tournament day's screens press them too)."""

from __future__ import annotations

from collections.abc import Sequence

from aiogram.types import InlineKeyboardMarkup
from aiogram.utils.keyboard import InlineKeyboardBuilder

from domain.layout import bold, joined, lines, numbered
from domain.outgoing import Lines, Phrase
from domain.permissions import Action, allows
from domain.registration import Participant, awaiting_substitute
from domain.services.registration import Roster
from domain.teams import Team, members
from handlers.callbacks import (
    CardOpen,
    PersonAction,
    PersonButton,
    RosterPage,
    RosterView,
    TeamPage,
)
from handlers.middlewares import Texts


def person_line(roster_: Roster, participant: Participant) -> Phrase:
    """One participant as the lists show him: nickname, club, city, status and marks."""
    marks = [Phrase(f"status-{participant.status.value}")]
    if participant.paid:
        marks.append(Phrase.of("mark-paid"))
    if participant.checked_in:
        marks.append(Phrase.of("mark-checked-in"))
    if participant.user_id is None:
        marks.append(Phrase.of("mark-no-bot"))
    elif participant.user_id in roster_.unreachable:
        marks.append(Phrase.of("mark-unreachable"))
    where = f"{participant.club}, {participant.city}"
    return joined(f"{participant.nickname} ({where}) — ", joined(*marks, separator=", "))


def roster_text(
    found: Roster,
    view: RosterView,
    chosen: list[Participant],
    shown: Sequence[Participant],
    number: int,
    pages: int,
) -> Lines:
    """Page `number` of the participants `view` chose; `shown` are this page's."""
    listed = [
        numbered(number * 10 + index, person_line(found, p))
        for index, p in enumerate(shown, start=1)
    ]
    title = Phrase.of(
        "roster-title",
        title=found.tournament.title,
        view=Phrase(f"roster-view-{view}"),
        count=len(chosen),
        page=number + 1,
        pages=pages,
    )
    return lines([title, lines(listed) if listed else Phrase.of("roster-empty")])


def roster_keyboard(
    tournament_id: int,
    view: str,
    shown: Sequence[Participant],
    number: int,
    pages: int,
    texts: Texts,
) -> InlineKeyboardMarkup:
    """A button per participant shown, then the pages, the other views and the way back."""
    keyboard = InlineKeyboardBuilder()
    for p in shown:
        keyboard.button(
            text=p.nickname,
            callback_data=PersonAction(participant_id=p.id, action=PersonButton.SHOW),
        )
    keyboard.adjust(2)
    nav = InlineKeyboardBuilder()
    if number > 0:
        nav.button(
            text="◀",
            callback_data=RosterPage(tournament_id=tournament_id, view=view, page=number - 1),
        )
    if number + 1 < pages:
        nav.button(
            text="▶",
            callback_data=RosterPage(tournament_id=tournament_id, view=view, page=number + 1),
        )
    for other in RosterView:
        if other != view:
            nav.button(
                text=texts(f"roster-view-{other}"),
                callback_data=RosterPage(tournament_id=tournament_id, view=other, page=0),
            )
    nav.button(text=texts("back-to-card"), callback_data=CardOpen(tournament_id=tournament_id))
    nav.adjust(2)
    keyboard.attach(nav)
    return keyboard.as_markup()


def teams_text(
    found: Roster, teams: list[Team], shown: Sequence[Team], number: int, pages: int
) -> Lines:
    """Page `number` of the teams still in; `shown` are this page's."""
    size = found.tournament.regulation.team_size or 0
    listed = []
    for team in shown:
        crew = members(team, found.participants)
        names = ", ".join(p.nickname for p in crew)
        listed.append(joined(bold(team.name), f" {len(crew)}/{size}: {names}"))
    title = Phrase.of("teams-title", count=len(teams), page=number + 1, pages=pages)
    return lines([title, lines(listed) if listed else Phrase.of("roster-empty")])


def teams_keyboard(
    tournament_id: int, number: int, pages: int, texts: Texts
) -> InlineKeyboardMarkup:
    keyboard = InlineKeyboardBuilder()
    if number > 0:
        keyboard.button(
            text="◀", callback_data=TeamPage(tournament_id=tournament_id, page=number - 1)
        )
    if number + 1 < pages:
        keyboard.button(
            text="▶", callback_data=TeamPage(tournament_id=tournament_id, page=number + 1)
        )
    keyboard.button(text=texts("back-to-card"), callback_data=CardOpen(tournament_id=tournament_id))
    return keyboard.as_markup()


def person_text(found: Roster, participant: Participant) -> Lines:
    parts = [person_line(found, participant)]
    if participant.reason:
        parts.append(Phrase.of("person-reason", reason=participant.reason))
    return lines(parts)


def person_keyboard(found: Roster, participant: Participant, texts: Texts) -> InlineKeyboardMarkup:
    """The actions on one participant the viewer's roles allow, then the way back."""
    keyboard = InlineKeyboardBuilder()
    participant_id = participant.id
    if allows(found.roles, Action.MARK_PAID) and participant.holds_place:
        action = PersonButton.UNPAID if participant.paid else PersonButton.PAID
        keyboard.button(
            text=texts(f"person-{action}"),
            callback_data=PersonAction(participant_id=participant_id, action=action),
        )
    if allows(found.roles, Action.MARK_NO_SHOW) and participant.missing:
        keyboard.button(
            text=texts("person-no-show"),
            callback_data=PersonAction(participant_id=participant_id, action=PersonButton.NO_SHOW),
        )
    if allows(found.roles, Action.SUBSTITUTE) and participant.id in {
        p.id for p in awaiting_substitute(found.participants)
    }:
        keyboard.button(
            text=texts("person-substitute"),
            callback_data=PersonAction(
                participant_id=participant_id, action=PersonButton.SUBSTITUTE
            ),
        )
    if allows(found.roles, Action.EXCLUDE) and participant.playing:
        keyboard.button(
            text=texts("person-exclude"),
            callback_data=PersonAction(participant_id=participant_id, action=PersonButton.EXCLUDE),
        )
    keyboard.button(
        text=texts("back-to-list"),
        callback_data=RosterPage(
            tournament_id=participant.tournament_id, view=RosterView.ALL, page=0
        ),
    )
    keyboard.adjust(1)
    return keyboard.as_markup()
