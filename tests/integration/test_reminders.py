"""Reminders stored as scheduled pushes by the use cases that change what they depend on, on
SQLite and PostgreSQL: replaced and cancelled by key, moved by the timetable."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

import pytest

from bot.db.uow import SqlUnitOfWorkFactory
from domain.actor import Actor
from domain.outgoing import ScheduledPush
from domain.rounds import TableGame
from domain.services import reminders, rounds
from domain.services.access import load_tournament
from domain.services.catalog import Services
from domain.tournament import Tournament, TournamentState
from domain.validation import Invalid
from tests.factories import CHIEF_JUDGE, NOW, ORGANIZER, Seeded, seed_tournament
from tests.integration.test_protocols import Judge

GAME_DAY = date(2026, 12, 21)


def timetable_text(first_game: str = "12:00") -> str:
    """The black-raven-cup's plan with times: qualifying on day 1, semifinal and final on day 2."""
    day_one = [first_game, "13:00", "14:00", "16:00", "17:00", "18:00"]
    lines = ["1 11:30 registration"]
    lines += [f"1 {clock} game qualifying" for clock in day_one[:3]]
    lines += ["1 15:00 lunch"]
    lines += [f"1 {clock} game qualifying" for clock in day_one[3:]]
    lines += ["1 19:00 results qualifying"]
    lines += [f"2 {h}:00 game semifinal" for h in (12, 13, 14)]
    lines += [f"2 {h}:00 game final" for h in (15, 16, 17)]
    return "\n".join(lines)


async def waiting(uow_factory: SqlUnitOfWorkFactory, seeded: Seeded) -> dict[str, datetime]:
    """The tournament's waiting reminders by key (without the tournament's prefix)."""
    prefix = f"reminder:{seeded.tournament.id}:"
    async with uow_factory() as uow:
        times = await uow.scheduled_pushes.due_times()
    return {k.removeprefix(prefix): t for k, t in times.items() if k.startswith(prefix)}


async def pushed(uow_factory: SqlUnitOfWorkFactory, seeded: Seeded, key: str) -> ScheduledPush:
    async with uow_factory() as uow:
        push = await uow.scheduled_pushes.get(f"reminder:{seeded.tournament.id}:{key}")
    assert push is not None
    return push


def open_with_fee(tournament: Tournament, deadline: datetime) -> Tournament:
    """The tournament taking registrations until `deadline`, with an entry fee to pay."""
    return replace(
        tournament,
        state=TournamentState.REGISTRATION_OPEN,
        current_stage=None,
        registration_deadline=deadline,
        entry_fee=Decimal(500),
    )


async def published_first_round(
    uow_factory: SqlUnitOfWorkFactory, services: Services
) -> tuple[Seeded, rounds.Round]:
    seeded = await seed_tournament(uow_factory)
    async with uow_factory() as uow:
        tournament = await uow.tournaments.get(seeded.tournament.id)
        assert tournament is not None
        await uow.tournaments.save(replace(tournament, starts_on=GAME_DAY))
        await uow.commit()
    tid = seeded.tournament.id
    await services.timetables.set_timetable(Actor(ORGANIZER, NOW), tid, timetable_text())
    await services.rounds_seating.start_stage(Actor(ORGANIZER, NOW), tid, seed=7, swaps=20_000)
    preview = await services.rounds_publication.publish_round(Actor(ORGANIZER, NOW), tid, 1)
    return seeded, preview.stage.rounds[0]


async def confirmed(services: Services, game: TableGame) -> None:
    """Its judge fills a red win in and confirms it."""
    assert game.judge_id is not None
    judge = Judge(services, game.id, game.judge_id)
    await judge.fill_red_win()
    await judge.confirm()


async def test_a_published_round_reminds_each_player_and_judge_and_the_timetable_moves_them(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    seeded, first = await published_first_round(uow_factory, services)
    plan = await waiting(uow_factory, seeded)
    seats = {key: at for key, at in plan.items() if key.startswith(f"round:{first.id}:")}
    assert len(seats) == 20
    # Game 1 at 12:00 in Omsk (UTC+6) on 21 December: reminders at 05:45 UTC.
    assert set(seats.values()) == {datetime(2026, 12, 21, 5, 45, tzinfo=UTC)}
    game = first.games[0]
    assert plan[f"protocol:{game.id}"] == datetime(2026, 12, 21, 7, 15, tzinfo=UTC)
    assert plan[f"chief:{first.id}:{CHIEF_JUDGE}"] == datetime(2026, 12, 21, 7, 30, tzinfo=UTC)
    player = game.players[3]
    reminder = await pushed(uow_factory, seeded, f"round:{first.id}:{player}")
    assert reminder.message.chat_id == seeded.user_of(player)
    assert reminder.message.phrase is not None
    assert reminder.message.phrase.arguments["seat"] == 4
    assert reminder.message.phrase.arguments["time"] == "12:00"

    await services.timetables.set_timetable(
        Actor(ORGANIZER, NOW), seeded.tournament.id, timetable_text("12:30")
    )
    moved = await waiting(uow_factory, seeded)
    assert set(moved) == set(plan)
    assert moved[f"round:{first.id}:{player}"] == datetime(2026, 12, 21, 6, 15, tzinfo=UTC)
    # Game 1 still ends when game 2 starts at 13:00.
    assert moved[f"protocol:{game.id}"] == plan[f"protocol:{game.id}"]
    reminder = await pushed(uow_factory, seeded, f"round:{first.id}:{player}")
    assert reminder.message.phrase is not None
    assert reminder.message.phrase.arguments["time"] == "12:30"


async def test_a_timetable_that_cannot_be_read_changes_nothing(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    seeded, _ = await published_first_round(uow_factory, services)
    before = await waiting(uow_factory, seeded)
    with pytest.raises(Invalid):
        await services.timetables.set_timetable(
            Actor(ORGANIZER, NOW), seeded.tournament.id, timetable_text("25:00")
        )
    assert await waiting(uow_factory, seeded) == before


async def test_a_confirmed_protocol_cancels_its_judges_reminder(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    seeded, first = await published_first_round(uow_factory, services)
    game, other = first.games
    await confirmed(services, game)
    plan = await waiting(uow_factory, seeded)
    assert f"protocol:{game.id}" not in plan
    assert f"protocol:{other.id}" in plan
    assert not any(f"round:{first.id}:{p}" in plan for p in game.players)
    chief = await pushed(uow_factory, seeded, f"chief:{first.id}:{CHIEF_JUDGE}")
    assert chief.message.phrase is not None
    assert chief.message.phrase.arguments["tables"] == str(other.table)


async def test_a_confirmed_protocol_leaves_the_reminders_a_whole_replan_would_leave(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    # A confirmation replans its round alone: the other round's reminders stay as they were,
    # and planning the whole tournament again afterwards changes nothing.
    seeded, first = await published_first_round(uow_factory, services)
    tid = seeded.tournament.id
    second = (await services.rounds_publication.publish_round(Actor(ORGANIZER, NOW), tid, 2)).stage
    before = await waiting(uow_factory, seeded)
    game = first.games[0]
    await confirmed(services, game)
    after = await waiting(uow_factory, seeded)
    assert f"protocol:{game.id}" not in after
    judges = {f"protocol:{table.id}" for table in first.games}

    def of_other_rounds(plan: dict[str, datetime]) -> dict[str, datetime]:
        mine = (f"round:{first.id}:", f"chief:{first.id}:")
        return {k: t for k, t in plan.items() if not k.startswith(mine) and k not in judges}

    assert f"protocol:{second.rounds[1].games[0].id}" in of_other_rounds(before)
    assert of_other_rounds(after) == of_other_rounds(before)
    async with uow_factory() as uow:
        await reminders.replan_reminders(uow, tid, NOW)
        assert uow.scheduled_pushes.changed is False
    assert await waiting(uow_factory, seeded) == after


async def test_a_paid_mark_cancels_the_reminder_and_a_sent_one_is_not_made_again(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    seeded = await seed_tournament(uow_factory)
    deadline = NOW + timedelta(days=3)
    async with uow_factory() as uow:
        tournament = await uow.tournaments.get(seeded.tournament.id)
        assert tournament is not None
        await uow.tournaments.save(open_with_fee(tournament, deadline))
        await reminders.replan_reminders(uow, tournament.id, NOW)
        await uow.commit()
    first, second = seeded.players[:2]
    plan = await waiting(uow_factory, seeded)
    assert plan[f"unpaid:{first.id}"] == deadline - timedelta(days=1)
    assert plan["deadline"] == deadline

    await services.registration.mark_paid(Actor(ORGANIZER, NOW), first.id, True)
    plan = await waiting(uow_factory, seeded)
    assert f"unpaid:{first.id}" not in plan
    assert f"unpaid:{second.id}" in plan

    # The scheduler moves the due reminders into the outbox; a later replan leaves them sent.
    reminded = deadline - timedelta(hours=12)
    async with uow_factory() as uow:
        taken = await uow.scheduled_pushes.take_due(reminded)
        await reminders.replan_reminders(uow, seeded.tournament.id, reminded)
        await uow.commit()
    assert len(taken) == len(seeded.players) - 1
    assert set(await waiting(uow_factory, seeded)) == {"deadline"}

    # At the deadline registration closes by itself and nothing of it is left waiting.
    assert await services.tournaments.close_due_registrations(deadline) == [seeded.tournament.id]
    assert await waiting(uow_factory, seeded) == {}


async def test_a_use_case_that_calls_nothing_gets_its_reminders_replanned(
    uow_factory: SqlUnitOfWorkFactory,
) -> None:
    # A new use case only loads the tournament and writes what reminders depend on (a deadline
    # moved, a fee marked paid); the unit of work replans them before it commits.
    seeded = await seed_tournament(uow_factory)
    first, second = seeded.players[:2]
    deadline = NOW + timedelta(days=3)
    async with uow_factory() as uow:
        tournament = await load_tournament(uow, seeded.tournament.id, NOW)
        await uow.tournaments.save(open_with_fee(tournament, deadline))
        await uow.participants.save(replace(first, paid=True))
        await uow.commit()
    plan = await waiting(uow_factory, seeded)
    assert plan["deadline"] == deadline
    assert plan[f"unpaid:{second.id}"] == deadline - timedelta(days=1)
    assert f"unpaid:{first.id}" not in plan

    # Nothing is replanned by a transaction left uncommitted.
    async with uow_factory() as uow:
        await load_tournament(uow, seeded.tournament.id, NOW)
        await uow.participants.save(replace(second, paid=True))
    assert f"unpaid:{second.id}" in await waiting(uow_factory, seeded)


async def test_a_replan_with_nothing_changed_rewrites_no_reminder(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    # A check-in or a paid mark replans; unchanged reminders must not be rewritten, or the
    # scheduler would rebuild its jobs after every tap.
    seeded, _ = await published_first_round(uow_factory, services)
    async with uow_factory() as uow:
        first = await reminders.replan_reminders(uow, seeded.tournament.id, NOW)
        assert uow.scheduled_pushes.changed is False
        again = await reminders.replan_reminders(uow, seeded.tournament.id, NOW)
    assert first == again and len(first) > 20


async def test_a_rounds_replan_reads_its_seats_and_every_substitute(
    uow_factory: SqlUnitOfWorkFactory,
) -> None:
    # Who plays a seat may be a substitute of a substitute: the round's replan reads them all.
    seeded = await seed_tournament(uow_factory, players=12)
    seated, gone, other = seeded.players[0], seeded.players[1], seeded.players[2]
    async with uow_factory() as uow:
        first = await uow.participants.add(
            replace(gone, id=0, user_id=None, nickname="Sub", substitute_for=gone.id)
        )
        second = await uow.participants.add(
            replace(gone, id=0, user_id=None, nickname="Sub2", substitute_for=first.id)
        )
        found = await uow.participants.seated_and_substitutes(
            seeded.tournament.id, [seated.id, gone.id]
        )
    assert [p.id for p in found] == [seated.id, gone.id, first.id, second.id]
    assert other.id not in {p.id for p in found}
