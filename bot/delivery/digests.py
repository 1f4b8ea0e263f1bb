"""What the organizer is told about the messages that did not reach: a message that will
never go, at once with its reason; the unreachable and uncertain ones of a tournament as one
digest once its broadcast is over, not one message per person."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime

from bot.db.repositories.outbox import Claimed, Problem
from bot.db.uow import SqlUnitOfWork
from bot.delivery.limits import is_private_chat
from domain.outgoing import DeliveryStatus, OutgoingMessage, Phrase


async def tell_failed(uow: SqlUnitOfWork, claimed: Claimed, error: str) -> None:
    """A message that will never go (it cannot be rendered, Telegram rejects it) is the
    organizer's to know about at once, with the reason, not only a line in the log."""
    about = claimed.message
    if about.tournament_id is None:
        return
    tournament = await uow.tournaments.get(about.tournament_id)
    if tournament is None or tournament.created_by == about.chat_id:
        return  # the organizer cannot be told about their own chat
    name = await _name_in(uow, tournament.id, about.chat_id)
    await uow.outbox.add(
        OutgoingMessage(
            chat_id=tournament.created_by,
            phrase=Phrase.of(
                "delivery-failed",
                tournament=tournament.title,
                name=name,
                channel="no" if is_private_chat(about.chat_id) else "yes",
                reason=error[:200],
            ),
            tournament_id=tournament.id,
            dedupe_key=f"delivery:{tournament.id}:failed:{claimed.id}",
        )
    )


async def _name_in(uow: SqlUnitOfWork, tournament_id: int, chat_id: int) -> str:
    """How the organizer knows the person: his nickname in the tournament, else (a judge, say)
    his Telegram name, else the chat's number."""
    participant = await uow.participants.of_person(tournament_id, chat_id)
    if participant is not None:
        return participant.nickname
    person = await uow.users.get(chat_id)
    return person.display_name if person else str(chat_id)


async def send_digests(uow: SqlUnitOfWork, now: datetime) -> bool:
    """One message per tournament whose broadcast is over, naming whom it did not reach;
    whether any problem was left to report (then digests are due again)."""
    problems = await uow.outbox.unreported()
    by_tournament: dict[int, list[Problem]] = defaultdict(list)
    for problem in problems:
        by_tournament[problem.tournament_id].append(problem)
    busy = await uow.outbox.busy_tournaments(list(by_tournament))
    for tournament_id, items in by_tournament.items():
        if tournament_id in busy:
            continue
        digest = await _digest(uow, tournament_id, items)
        if digest is not None:
            await uow.outbox.add(digest)
        await uow.outbox.mark_reported([item.id for item in items], now)
    return bool(problems)


async def _digest(
    uow: SqlUnitOfWork, tournament_id: int, problems: list[Problem]
) -> OutgoingMessage | None:
    tournament = await uow.tournaments.get(tournament_id)
    if tournament is None:
        return None
    names: dict[DeliveryStatus, list[str]] = defaultdict(list)
    channel: dict[DeliveryStatus, int] = defaultdict(int)
    for problem in problems:
        if problem.chat_id == tournament.created_by:
            continue  # the organizer cannot be told about their own chat
        if not is_private_chat(problem.chat_id):
            channel[problem.status] = 1
            continue
        name = await _name_in(uow, tournament.id, problem.chat_id)
        if name not in names[problem.status]:
            names[problem.status].append(name)
    unreachable, uncertain = names[DeliveryStatus.UNREACHABLE], names[DeliveryStatus.UNCERTAIN]
    if not (unreachable or uncertain or channel):
        return None
    return OutgoingMessage(
        chat_id=tournament.created_by,
        phrase=Phrase.of(
            "delivery-digest",
            tournament=tournament.title,
            unreachable=", ".join(unreachable),
            unreachable_count=len(unreachable),
            uncertain=", ".join(uncertain),
            uncertain_count=len(uncertain),
            channel_unreachable=channel[DeliveryStatus.UNREACHABLE],
            channel_uncertain=channel[DeliveryStatus.UNCERTAIN],
        ),
        tournament_id=tournament.id,
        dedupe_key=f"delivery-digest:{tournament.id}:{problems[-1].id}",
    )
