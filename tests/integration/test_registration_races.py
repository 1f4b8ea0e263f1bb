"""Registrations, team joins and withdrawals of one tournament at once, on PostgreSQL (READ
COMMITTED, where each would count the places, or a team's members, before the other
commits): the tournament never holds more players than its places, a team never more than
its size, and a freed place goes to the next in the waiting list once (each such use case
takes the tournament's lock before it counts: `SqlTournamentRepository.lock`). SQLite
serialises its writers with BEGIN IMMEDIATE already.

Each race runs `REPETITIONS` times on a fresh tournament: an interleaving that loses is not
met every time."""

from __future__ import annotations

import asyncio
from collections import Counter
from datetime import timedelta

import pytest

from bot.db.uow import SqlUnitOfWorkFactory
from domain.actor import Actor
from domain.lifecycle import Move
from domain.registration import Participant
from domain.services.catalog import Services
from domain.tournament import Tournament
from domain.validation import Invalid
from tests.integration.test_tournament_lifecycle import (
    ADMIN,
    ADMINS,
    NOW,
    _form,
    _open_tournament,
    _people,
    _register,
)

pytestmark = pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)

REPETITIONS = 10


async def _participants(uow_factory: SqlUnitOfWorkFactory, tournament_id: int) -> list[Participant]:
    async with uow_factory() as uow:
        return await uow.participants.of_tournament(tournament_id)


def _statuses(participants: list[Participant]) -> Counter[str]:
    return Counter(participant.status.value for participant in participants)


def _report(lost: dict[int, str]) -> str:
    return f"{len(lost)}/{REPETITIONS} races lost (by repetition): {lost}"


async def _cup(uow_factory: SqlUnitOfWorkFactory, capacity: int, teams: bool = False) -> Tournament:
    if teams:
        return await _open_tournament(
            uow_factory,
            "siberia-ural-teams",
            registration_deadline=NOW + timedelta(days=5),
            capacity=capacity,
        )
    return await _open_tournament(uow_factory, capacity=capacity)


async def test_two_players_registering_for_the_last_place_at_once_get_one_place(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    lost: dict[int, str] = {}
    for repetition in range(REPETITIONS):
        cup = await _cup(uow_factory, capacity=2)
        base = 100 * repetition
        await _register(uow_factory, cup, base + 1)
        racers = (base + 2, base + 3)
        await _people(uow_factory, *(1000 + number for number in racers))
        answers = await asyncio.gather(
            *(
                services.registration.register(Actor(1000 + number, NOW), cup.id, _form(number))
                for number in racers
            )
        )
        stored = {p.user_id: p.status for p in await _participants(uow_factory, cup.id)}
        told = {
            1000 + number: answer.participant
            for number, answer in zip(racers, answers, strict=True)
        }
        # Each racer is told what is stored of him: a place or the waiting list.
        assert all(p is not None and stored[user] is p.status for user, p in told.items()), told
        counts = Counter(status.value for status in stored.values())
        if counts != {"registered": 2, "waiting": 1}:
            lost[repetition] = str(dict(counts))
    assert not lost, _report(lost)


async def test_two_players_joining_a_team_s_last_seat_at_once_leave_it_at_its_size(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    """One joins by registering through the team's link, the other (registered already) by
    joining it: the team holds three, and the other is told it is full."""
    lost: dict[int, str] = {}
    for repetition in range(REPETITIONS):
        cup = await _cup(uow_factory, capacity=30, teams=True)
        base = 100 * repetition
        captain, member, newcomer, joiner = base + 1, base + 2, base + 3, base + 4
        await _register(uow_factory, cup, captain)
        await _register(uow_factory, cup, joiner)
        await _people(uow_factory, 1000 + member, 1000 + newcomer)
        team = (await services.teams.create_team(Actor(1000 + captain, NOW), cup.id, "Сибирь")).team
        await services.registration.register(
            Actor(1000 + member, NOW), cup.id, _form(member), team_id=team.id
        )
        answers = await asyncio.gather(
            services.registration.register(
                Actor(1000 + newcomer, NOW), cup.id, _form(newcomer), team_id=team.id
            ),
            services.teams.join_team(Actor(1000 + joiner, NOW), team.id),
            return_exceptions=True,
        )
        refused = [a.code for a in answers if isinstance(a, Invalid)]
        in_team = [
            p.user_id
            for p in await _participants(uow_factory, cup.id)
            if p.team_id == team.id and p.holds_place
        ]
        if len(in_team) != 3 or refused != ["team-full"]:
            lost[repetition] = f"{len(in_team)} in the team, refusals {refused}"
    assert not lost, _report(lost)


async def test_two_withdrawals_at_once_give_their_places_to_the_first_two_waiting(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    lost: dict[int, str] = {}
    for repetition in range(REPETITIONS):
        cup = await _cup(uow_factory, capacity=2)
        base = 100 * repetition
        for number in range(base + 1, base + 5):  # two places, two waiting
            await _register(uow_factory, cup, number)
        answers = await asyncio.gather(
            *(
                services.registration.withdraw(Actor(1000 + number, NOW), cup.id)
                for number in (base + 1, base + 2)
            )
        )
        promoted = Counter(
            message.chat_id
            for notices in answers
            for message in notices
            if message.phrase is not None and message.phrase.key == "notice-promoted"
        )
        participants = await _participants(uow_factory, cup.id)
        counts = _statuses(participants)
        waiting = {1000 + base + 3, 1000 + base + 4}
        if counts["registered"] != 2 or promoted != Counter(waiting):
            lost[repetition] = f"{dict(counts)}, promotion notices {dict(promoted)}"
    assert not lost, _report(lost)


async def test_two_substitutions_at_once_give_a_no_show_one_substitute_and_a_player_one_seat(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    """The organizer and the chief judge (two presses at once): one no-show substituted by two
    waiting players, then one waiting player put in for two no-shows; in each race one of the
    two is refused."""
    organizer = Actor.of(ADMIN, NOW, ADMINS)
    lost: dict[int, str] = {}
    for repetition in range(REPETITIONS):
        cup = await _cup(uow_factory, capacity=3)
        base = 100 * repetition
        players = [await _register(uow_factory, cup, base + n) for n in range(1, 7)]
        await services.tournaments.move_tournament(organizer, cup.id, Move.CLOSE_REGISTRATION)
        for no_show in players[:3]:
            await services.checkin.mark_no_show(organizer, no_show.id)
        first, second, third = (p.id for p in players[:3])
        one_no_show = await asyncio.gather(
            *(
                services.checkin.substitute(organizer, first, waiting_id=waiting.id)
                for waiting in players[3:5]
            ),
            return_exceptions=True,
        )
        one_waiting = await asyncio.gather(
            *(
                services.checkin.substitute(organizer, no_show, waiting_id=players[5].id)
                for no_show in (second, third)
            ),
            return_exceptions=True,
        )
        stored = await _participants(uow_factory, cup.id)
        substitutes = Counter(p.substitute_for for p in stored if p.substitute_for is not None)
        refused = [a.code for a in (*one_no_show, *one_waiting) if isinstance(a, Invalid)]
        left = sorted(p.status.value for p in stored if p.id in (second, third))
        if (
            substitutes[first] != 1
            or substitutes[second] + substitutes[third] != 1
            or refused != ["substitute-already-replaced", "substitute-not-waiting"]
            or left != ["no_show", "replaced"]
        ):
            lost[repetition] = f"substitutes {dict(substitutes)}, refusals {refused}, left {left}"
    assert not lost, _report(lost)


async def test_a_player_checking_in_as_he_is_marked_a_no_show_gets_one_of_the_two(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    """Either he is present (and the mark is refused: he is not missing) or a no-show (and
    his check-in is refused), never both stored at once, nor either failing otherwise."""
    organizer = Actor.of(ADMIN, NOW, ADMINS)
    lost: dict[int, str] = {}
    for repetition in range(REPETITIONS):
        cup = await _cup(uow_factory, capacity=2)
        player = await _register(uow_factory, cup, 100 * repetition + 1)
        await services.tournaments.move_tournament(organizer, cup.id, Move.CLOSE_REGISTRATION)
        answers = await asyncio.gather(
            services.checkin.check_in(Actor(player.user_id, NOW), cup.id),
            services.checkin.mark_no_show(organizer, player.id),
            return_exceptions=True,
        )
        stored = next(p for p in await _participants(uow_factory, cup.id) if p.id == player.id)
        refused = [type(a).__name__ for a in answers if isinstance(a, BaseException)]
        one = stored.checked_in != (stored.status.value == "no_show")
        if not one or len(refused) != 1 or refused[0] not in ("Invalid", "Forbidden"):
            lost[repetition] = f"{stored.status.value}, checked in {stored.checked_in}: {answers}"
    assert not lost, _report(lost)
