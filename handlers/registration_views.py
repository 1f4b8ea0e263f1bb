"""The registration screen's views: a tournament's registration as the person sees it, what
the link says to a replaced or excluded player, and the buttons he may press.
"""

from __future__ import annotations

from aiogram.types import InlineKeyboardMarkup
from aiogram.utils.keyboard import InlineKeyboardBuilder

from bot.rendering.phrases import ready
from domain.layout import lines
from domain.outgoing import Lines, Phrase
from domain.registration import ParticipantStatus
from domain.services.checkin import checkin_refusal
from domain.services.ports import Clock
from domain.services.registration import (
    Registration,
)
from handlers.callbacks import CheckIn, MyRegistration, RegistrationAction, TeamAction, TeamButton
from handlers.middlewares import Texts


def registration_text(registration: Registration, rating: str = "") -> Lines:
    """The player's view of his registration (with his `rating` line once registered)."""
    tournament, participant = registration.tournament, registration.participant
    head = Phrase.of("registration-tournament", title=tournament.title)
    if participant is None or not participant.holds_place:
        return lines([head, Phrase.of("registration-none")])
    mine = Phrase.of(
        "registration-mine",
        nickname=participant.nickname,
        club=participant.club,
        city=participant.city,
        status=Phrase(f"status-{participant.status.value}"),
        team=registration.team.name if registration.team else "-",
        checked_in=Phrase.of("yes") if participant.checked_in else Phrase.of("no"),
    )
    # The rating line arrives rendered (bot/rendering/season_text.py).
    return lines([head, mine, ready(rating)] if rating else [head, mine])


def left_text(registration: Registration) -> Phrase:
    """What the registration link says to a player the judges replaced or excluded."""
    participant = registration.participant
    assert participant is not None
    title = registration.tournament.title
    if participant.status is ParticipantStatus.EXCLUDED:
        return Phrase.of(
            "registration-excluded", tournament=title, reason=participant.reason or "-"
        )
    substitute = registration.substitute
    return Phrase.of(
        "registration-replaced",
        tournament=title,
        nickname=substitute.nickname if substitute is not None else "-",
    )


def registration_keyboard(registration: Registration, texts: Texts, clock: Clock):
    tournament, participant = registration.tournament, registration.participant
    tournament_id = tournament.id
    keyboard = InlineKeyboardBuilder()
    if participant is not None and participant.holds_place and not tournament.has_started:
        if participant.missing and checkin_refusal(tournament, clock.now()) is None:
            keyboard.button(
                text=texts("checkin-button"), callback_data=CheckIn(tournament_id=tournament_id)
            )
        keyboard.button(
            text=texts("registration-edit"),
            callback_data=MyRegistration(
                tournament_id=tournament_id, action=RegistrationAction.EDIT
            ),
        )
        if tournament.is_team_tournament:
            if registration.team is None:
                keyboard.button(
                    text=texts("team-create"),
                    callback_data=MyRegistration(
                        tournament_id=tournament_id, action=RegistrationAction.TEAM
                    ),
                )
            else:
                keyboard.button(
                    text=texts("team-mine"),
                    callback_data=TeamAction(team_id=registration.team.id, action=TeamButton.SHOW),
                )
        keyboard.button(
            text=texts("registration-withdraw"),
            callback_data=MyRegistration(
                tournament_id=tournament_id, action=RegistrationAction.WITHDRAW
            ),
        )
    keyboard.adjust(1)
    return keyboard.as_markup()


def summary_keyboard(tournament_id: int, texts: Texts) -> InlineKeyboardMarkup:
    """Under the typed registration: confirm it, or type it again."""
    keyboard = InlineKeyboardBuilder()
    keyboard.button(
        text=texts("registration-confirm"),
        callback_data=MyRegistration(
            tournament_id=tournament_id, action=RegistrationAction.CONFIRM
        ),
    )
    keyboard.button(
        text=texts("registration-redo"),
        callback_data=MyRegistration(tournament_id=tournament_id, action=RegistrationAction.REDO),
    )
    keyboard.adjust(1)
    return keyboard.as_markup()


def withdraw_keyboard(tournament_id: int, texts: Texts) -> InlineKeyboardMarkup:
    """The withdrawal's confirmation: yes, or back to the registration."""
    keyboard = InlineKeyboardBuilder()
    keyboard.button(
        text=texts("registration-withdraw-yes"),
        callback_data=MyRegistration(
            tournament_id=tournament_id, action=RegistrationAction.WITHDRAW_YES
        ),
    )
    keyboard.button(
        text=texts("registration-withdraw-no"),
        callback_data=MyRegistration(tournament_id=tournament_id, action=RegistrationAction.SHOW),
    )
    keyboard.adjust(1)
    return keyboard.as_markup()
