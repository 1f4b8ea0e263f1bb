"""Loading a tournament for a person and checking what their roles allow, in one place."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Protocol, TypeVar

from domain.actor import Actor
from domain.lifecycle import Move
from domain.lifecycle import apply as apply_move
from domain.outgoing import OutgoingMessage, Phrase
from domain.permissions import Action, Forbidden, Role, require, roles_of
from domain.registration import deadline_passed
from domain.services.ports import UnitOfWork
from domain.services.rating_sync import set_category
from domain.tournament import Tournament


class NotFound(LookupError):
    """The tournament, team, participant or link does not exist (or no longer does)."""


class _OfTournament(Protocol):
    @property
    def tournament_id(self) -> int: ...


Found = TypeVar("Found", bound=_OfTournament)


async def read_locked(
    uow: UnitOfWork, read: Callable[[], Awaitable[Found | None]], what: str
) -> Found:
    """What `read` finds (a participant, a team), read anew under its tournament's lock: two
    decisions on it at once would each read it before the other commits (PostgreSQL), so the
    first reading only tells whose tournament to lock. `NotFound` names `what` if it is gone."""
    found = await read()
    if found is not None:
        await uow.tournaments.lock(found.tournament_id)
        found = await read()  # anew: its tournament stays, its state may not
    if found is None:
        raise NotFound(what)
    return found


def notice(user_id: int, tournament_id: int, key: str, **args: str | int) -> OutgoingMessage:
    """A message pushed to a person, rendered in their language (`str` arguments escaped)."""
    return OutgoingMessage(
        chat_id=user_id, phrase=Phrase.of(key, **args), tournament_id=tournament_id
    )


async def record(uow: UnitOfWork, messages: list[OutgoingMessage]) -> list[OutgoingMessage]:
    """Put messages into the outbox in the use case's transaction; they leave after commit."""
    for message in messages:
        await uow.outbox.add(message)
    return messages


async def load_tournament(uow: UnitOfWork, tournament_id: int, now: datetime) -> Tournament:
    """The tournament, with a registration whose deadline came closed on the way; `now` is
    the moment the use case acts at (its reminders are replanned as of it)."""
    uow.acted_at = now
    tournament = await uow.tournaments.get(tournament_id)
    if tournament is None:
        raise NotFound(f"tournament {tournament_id}")
    if deadline_passed(tournament, now):
        tournament = apply_move(tournament, Move.CLOSE_REGISTRATION)
        await uow.tournaments.save(tournament)
        await set_category(uow, tournament.id)
    return tournament


async def roles_in(uow: UnitOfWork, actor: Actor, tournament: Tournament) -> frozenset[Role]:
    """A person's roles towards a tournament."""
    participant = await uow.participants.of_person(tournament.id, actor.user_id)
    return roles_of(
        is_admin=actor.is_admin,
        is_organizer=tournament.created_by == actor.user_id,
        staff=await uow.staff.roles(tournament.id, actor.user_id),
        is_player=participant is not None and participant.holds_place,
    )


async def authorize(
    uow: UnitOfWork,
    actor: Actor,
    tournament_id: int,
    action: Action,
) -> Tournament:
    """The tournament, if the person's roles allow the action (`Forbidden` otherwise)."""
    tournament = await load_tournament(uow, tournament_id, actor.now)
    require(await roles_in(uow, actor, tournament), action)
    return tournament


def same_tournament(tournament: Tournament, tournament_id: int | None) -> None:
    """Refuse an object of another tournament (a forged button)."""
    if tournament_id != tournament.id:
        raise NotFound("not part of this tournament")


__all__ = ["Forbidden", "NotFound", "authorize", "load_tournament", "notice", "record", "roles_in"]
