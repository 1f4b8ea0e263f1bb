"""Loading a tournament for a person and checking what their roles allow, in one place."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime

from domain.lifecycle import Move
from domain.lifecycle import apply as apply_move
from domain.permissions import Action, Forbidden, Role, require, roles_of
from domain.registration import deadline_passed
from domain.services.ports import UnitOfWork
from domain.tournament import Tournament


class NotFound(LookupError):
    """The tournament, team, participant or link does not exist (or no longer does)."""


@dataclass(frozen=True, slots=True)
class Notice:
    """A message the bot pushes to a person on its own initiative (text id and arguments)."""

    user_id: int
    key: str
    args: tuple[tuple[str, str | int], ...] = ()

    @classmethod
    def of(cls, user_id: int, key: str, **args: str | int) -> Notice:
        """A notice from keyword arguments; `str` arguments are escaped when rendered."""
        return cls(user_id, key, tuple(sorted(args.items())))


async def load_tournament(uow: UnitOfWork, tournament_id: int, now: datetime) -> Tournament:
    """The tournament, with a registration whose deadline came closed on the way."""
    tournament = await uow.tournaments.get(tournament_id)
    if tournament is None:
        raise NotFound(f"tournament {tournament_id}")
    if deadline_passed(tournament, now):
        tournament = apply_move(tournament, Move.CLOSE_REGISTRATION)
        await uow.tournaments.save(tournament)
    return tournament


async def roles_in(
    uow: UnitOfWork, tournament: Tournament, user_id: int, admin_ids: Collection[int]
) -> frozenset[Role]:
    """A person's roles towards a tournament."""
    participant = await uow.participants.of_person(tournament.id, user_id)
    return roles_of(
        is_admin=user_id in admin_ids,
        is_organizer=tournament.created_by == user_id,
        staff=await uow.staff.roles(tournament.id, user_id),
        is_player=participant is not None and participant.holds_place,
    )


async def authorize(
    uow: UnitOfWork,
    tournament_id: int,
    user_id: int,
    admin_ids: Collection[int],
    action: Action,
    now: datetime,
) -> Tournament:
    """The tournament, if the person's roles allow the action (`Forbidden` otherwise)."""
    tournament = await load_tournament(uow, tournament_id, now)
    require(await roles_in(uow, tournament, user_id, admin_ids), action)
    return tournament


def same_tournament(tournament: Tournament, tournament_id: int | None) -> None:
    """Refuse an object of another tournament (a forged button)."""
    if tournament_id != tournament.id:
        raise NotFound("not part of this tournament")


__all__ = ["Forbidden", "NotFound", "Notice", "authorize", "load_tournament", "roles_in"]
