"""Lists for the organizer and judges: participants and teams (paginated), fees, exports."""

from __future__ import annotations

from collections.abc import Callable

from aiogram import F, Router
from aiogram.types import BufferedInputFile, CallbackQuery, Message

from domain.actor import Actor
from domain.outgoing import Phrase
from domain.registration import Participant, ParticipantStatus
from domain.services.catalog import Services
from domain.services.registration import Roster
from handlers.callbacks import (
    ExportChoice,
    ExportKind,
    PersonAction,
    PersonButton,
    RosterPage,
    RosterView,
    TeamPage,
)
from handlers.common import long_work, page, show
from handlers.lists_views import (
    person_keyboard,
    person_text,
    roster_keyboard,
    roster_text,
    teams_keyboard,
    teams_text,
)
from handlers.middlewares import Texts


def _unreachable(roster_: Roster, participant: Participant) -> bool:
    return participant.holds_place and (
        participant.user_id is None or participant.user_id in roster_.unreachable
    )


# Whom each view of the list shows.
_CHOSEN: dict[RosterView, Callable[[Roster, Participant], bool]] = {
    RosterView.ALL: lambda _, participant: True,
    RosterView.WAITING: lambda _, p: p.status is ParticipantStatus.WAITING,
    RosterView.UNPAID: lambda _, p: p.playing and not p.paid,
    RosterView.UNREACHABLE: _unreachable,
}


async def show_roster(
    callback: CallbackQuery,
    callback_data: RosterPage,
    actor: Actor,
    texts: Texts,
    services: Services,
) -> None:
    view = callback_data.view
    found = await services.registration.roster(actor, callback_data.tournament_id)
    chosen = [p for p in found.participants if _CHOSEN[view](found, p)]
    shown, pages = page(chosen, callback_data.page)
    number = min(max(callback_data.page, 0), pages - 1)
    text = roster_text(found, view, chosen, shown, number, pages)
    keyboard = roster_keyboard(callback_data.tournament_id, view, shown, number, pages, texts)
    await show(callback, text, texts, reply_markup=keyboard)


async def show_teams(
    callback: CallbackQuery,
    callback_data: TeamPage,
    actor: Actor,
    texts: Texts,
    services: Services,
) -> None:
    found = await services.registration.roster(actor, callback_data.tournament_id)
    teams = [team for team in found.teams if not team.withdrawn]
    shown, pages = page(teams, callback_data.page)
    number = min(max(callback_data.page, 0), pages - 1)
    text = teams_text(found, teams, shown, number, pages)
    keyboard = teams_keyboard(callback_data.tournament_id, number, pages, texts)
    await show(callback, text, texts, reply_markup=keyboard)


async def show_person(
    callback: CallbackQuery,
    participant_id: int,
    actor: Actor,
    texts: Texts,
    services: Services,
) -> None:
    """One participant with the actions the viewer's roles allow."""
    participant = await services.registration.participant(participant_id)
    if participant is None:
        await callback.answer(texts("refused-not-found"), show_alert=True)
        return
    found = await services.registration.roster(actor, participant.tournament_id)
    text = person_text(found, participant)
    await show(callback, text, texts, reply_markup=person_keyboard(found, participant, texts))


async def person_screen(
    callback: CallbackQuery,
    callback_data: PersonAction,
    texts: Texts,
    services: Services,
    actor: Actor,
) -> None:
    await show_person(callback, callback_data.participant_id, actor, texts, services)


async def mark_fee(
    callback: CallbackQuery,
    callback_data: PersonAction,
    texts: Texts,
    services: Services,
    actor: Actor,
) -> None:
    """The participant's fee marked paid or unpaid; his screen again."""
    participant_id, paid = callback_data.participant_id, callback_data.action is PersonButton.PAID
    await services.registration.mark_paid(actor, participant_id, paid)
    await show_person(callback, participant_id, actor, texts, services)


async def export(
    callback: CallbackQuery,
    callback_data: ExportChoice,
    actor: Actor,
    texts: Texts,
    services: Services,
) -> None:
    async with long_work(callback, texts, replaced=False):  # a big tournament takes a while
        if callback_data.kind is ExportKind.CSV:
            tournament, text = await services.exports.export_csv(actor, callback_data.tournament_id)
            name = f"participants-{tournament.id}.csv"
        else:
            tournament, text = await services.exports.export_file(
                actor, callback_data.tournament_id
            )
            name = f"tournament-{tournament.id}.json"
        if isinstance(callback.message, Message):
            await callback.message.answer_document(
                BufferedInputFile(text.encode("utf-8"), filename=name),
                caption=texts.phrase(Phrase.of("export-ready", title=tournament.title)),
            )


def make_router() -> Router:
    """Participant and team lists, a participant's screen, fee marks and exports."""
    router = Router(name="lists")
    router.callback_query.register(show_roster, RosterPage.filter())
    router.callback_query.register(show_teams, TeamPage.filter())
    router.callback_query.register(
        person_screen, PersonAction.filter(F.action == PersonButton.SHOW)
    )
    fees = {PersonButton.PAID, PersonButton.UNPAID}
    router.callback_query.register(mark_fee, PersonAction.filter(F.action.in_(fees)))
    router.callback_query.register(export, ExportChoice.filter())
    return router
