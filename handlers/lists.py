"""Lists for the organizer and judges: participants and teams (paginated), fees, exports."""

from __future__ import annotations

from html import escape

from aiogram import F, Router
from aiogram.types import BufferedInputFile, CallbackQuery, Message
from aiogram.utils.keyboard import InlineKeyboardBuilder

from domain.actor import Actor
from domain.permissions import Action, allows
from domain.registration import Participant, ParticipantStatus
from domain.services.exports import export_csv, export_file
from domain.services.ports import UnitOfWorkFactory
from domain.services.registration import Roster, mark_paid, roster
from domain.teams import members
from handlers.callbacks import CardOpen, ExportChoice, PersonAction, RosterPage, TeamPage
from handlers.common import long_work, page, show
from handlers.middlewares import Texts

VIEWS = ("all", "waiting", "unpaid", "unreachable")


def _in_view(view: str, roster_: Roster, participant: Participant) -> bool:
    if view == "waiting":
        return participant.status is ParticipantStatus.WAITING
    if view == "unpaid":
        return participant.playing and not participant.paid
    if view == "unreachable":
        return participant.holds_place and (
            participant.user_id is None or participant.user_id in roster_.unreachable
        )
    return True


def person_line(roster_: Roster, participant: Participant, texts: Texts) -> str:
    """One participant as the lists show him: nickname, club, city, status and marks."""
    marks = [texts(f"status-{participant.status.value}")]
    if participant.paid:
        marks.append(texts("mark-paid"))
    if participant.checked_in:
        marks.append(texts("mark-checked-in"))
    if participant.user_id is None:
        marks.append(texts("mark-no-bot"))
    elif participant.user_id in roster_.unreachable:
        marks.append(texts("mark-unreachable"))
    where = f"{escape(participant.club)}, {escape(participant.city)}"
    return f"{escape(participant.nickname)} ({where}) — " + ", ".join(marks)


async def show_roster(
    callback: CallbackQuery,
    callback_data: RosterPage,
    actor: Actor,
    texts: Texts,
    uow_factory: UnitOfWorkFactory,
) -> None:
    view = callback_data.view if callback_data.view in VIEWS else "all"
    found = await roster(uow_factory, actor, callback_data.tid)
    chosen = [p for p in found.participants if _in_view(view, found, p)]
    shown, pages = page(chosen, callback_data.page)
    number = min(max(callback_data.page, 0), pages - 1)
    lines = [
        f"{number * 10 + index}. {person_line(found, p, texts)}"
        for index, p in enumerate(shown, start=1)
    ]
    text = texts(
        "roster-title",
        title=escape(found.tournament.title),
        view=texts(f"roster-view-{view}"),
        count=len(chosen),
        page=number + 1,
        pages=pages,
    )
    text += "\n" + ("\n".join(lines) if lines else texts("roster-empty"))
    keyboard = InlineKeyboardBuilder()
    for p in shown:
        keyboard.button(text=p.nickname, callback_data=PersonAction(pid=p.id, act="show"))
    keyboard.adjust(2)
    nav = InlineKeyboardBuilder()
    tid = callback_data.tid
    if number > 0:
        nav.button(text="◀", callback_data=RosterPage(tid=tid, view=view, page=number - 1))
    if number + 1 < pages:
        nav.button(text="▶", callback_data=RosterPage(tid=tid, view=view, page=number + 1))
    for other in VIEWS:
        if other != view:
            nav.button(
                text=texts(f"roster-view-{other}"),
                callback_data=RosterPage(tid=tid, view=other, page=0),
            )
    nav.button(text=texts("back-to-card"), callback_data=CardOpen(tid=tid))
    nav.adjust(2)
    keyboard.attach(nav)
    await show(callback, text, reply_markup=keyboard.as_markup())


async def show_teams(
    callback: CallbackQuery,
    callback_data: TeamPage,
    actor: Actor,
    texts: Texts,
    uow_factory: UnitOfWorkFactory,
) -> None:
    found = await roster(uow_factory, actor, callback_data.tid)
    size = found.tournament.regulation.team_size or 0
    teams = [team for team in found.teams if not team.withdrawn]
    shown, pages = page(teams, callback_data.page)
    number = min(max(callback_data.page, 0), pages - 1)
    lines = []
    for team in shown:
        crew = members(team, found.participants)
        names = ", ".join(escape(p.nickname) for p in crew)
        lines.append(f"<b>{escape(team.name)}</b> {len(crew)}/{size}: {names}")
    text = texts("teams-title", count=len(teams), page=number + 1, pages=pages)
    text += "\n" + ("\n".join(lines) if lines else texts("roster-empty"))
    keyboard = InlineKeyboardBuilder()
    tid = callback_data.tid
    if number > 0:
        keyboard.button(text="◀", callback_data=TeamPage(tid=tid, page=number - 1))
    if number + 1 < pages:
        keyboard.button(text="▶", callback_data=TeamPage(tid=tid, page=number + 1))
    keyboard.button(text=texts("back-to-card"), callback_data=CardOpen(tid=tid))
    await show(callback, text, reply_markup=keyboard.as_markup())


async def show_person(
    callback: CallbackQuery,
    participant_id: int,
    actor: Actor,
    texts: Texts,
    uow_factory: UnitOfWorkFactory,
) -> None:
    """One participant with the actions the viewer's roles allow."""
    async with uow_factory() as uow:
        participant = await uow.participants.get(participant_id)
    if participant is None:
        await callback.answer(texts("refused-not-found"), show_alert=True)
        return
    found = await roster(uow_factory, actor, participant.tournament_id)
    text = person_line(found, participant, texts)
    if participant.reason:
        text += "\n" + texts("person-reason", reason=escape(participant.reason))
    keyboard = InlineKeyboardBuilder()
    pid = participant.id
    if allows(found.roles, Action.MARK_PAID) and participant.holds_place:
        act = "unpaid" if participant.paid else "paid"
        keyboard.button(text=texts(f"person-{act}"), callback_data=PersonAction(pid=pid, act=act))
    if allows(found.roles, Action.MARK_NO_SHOW) and participant.missing:
        keyboard.button(
            text=texts("person-no-show"), callback_data=PersonAction(pid=pid, act="noshow")
        )
    if allows(found.roles, Action.SUBSTITUTE) and participant.replaceable:
        keyboard.button(
            text=texts("person-substitute"), callback_data=PersonAction(pid=pid, act="sub")
        )
    if allows(found.roles, Action.EXCLUDE) and participant.playing:
        keyboard.button(
            text=texts("person-exclude"), callback_data=PersonAction(pid=pid, act="excl")
        )
    keyboard.button(
        text=texts("back-to-list"),
        callback_data=RosterPage(tid=participant.tournament_id, view="all", page=0),
    )
    keyboard.adjust(1)
    await show(callback, text, reply_markup=keyboard.as_markup())


async def person_action(
    callback: CallbackQuery,
    callback_data: PersonAction,
    texts: Texts,
    uow_factory: UnitOfWorkFactory,
    actor: Actor,
) -> None:
    if callback_data.act in ("paid", "unpaid"):
        await mark_paid(uow_factory, actor, callback_data.pid, callback_data.act == "paid")
    await show_person(callback, callback_data.pid, actor, texts, uow_factory)


async def export(
    callback: CallbackQuery,
    callback_data: ExportChoice,
    actor: Actor,
    texts: Texts,
    uow_factory: UnitOfWorkFactory,
) -> None:
    async with long_work(callback, texts, replaced=False):  # a big tournament takes a while
        if callback_data.kind == "csv":
            tournament, text = await export_csv(uow_factory, actor, callback_data.tid)
            name = f"participants-{tournament.id}.csv"
        else:
            tournament, text = await export_file(uow_factory, actor, callback_data.tid)
            name = f"tournament-{tournament.id}.json"
        if isinstance(callback.message, Message):
            await callback.message.answer_document(
                BufferedInputFile(text.encode("utf-8"), filename=name),
                caption=texts("export-ready", title=escape(tournament.title)),
            )


def make_router() -> Router:
    """Participant and team lists, a participant's screen, fee marks and exports."""
    router = Router(name="lists")
    router.callback_query.register(show_roster, RosterPage.filter())
    router.callback_query.register(show_teams, TeamPage.filter())
    router.callback_query.register(
        person_action, PersonAction.filter(F.act.in_({"show", "paid", "unpaid"}))
    )
    router.callback_query.register(export, ExportChoice.filter(F.kind.in_({"csv", "file"})))
    return router
