"""Reads a unit of work keeps (`bot.db.repositories.memo`): read once per transaction, never
stale, on SQLite and PostgreSQL."""

from __future__ import annotations

from dataclasses import replace

from bot.db.transactions import counting
from bot.db.uow import SqlUnitOfWorkFactory
from domain.actor import Actor
from domain.registration import Participant, ParticipantStatus
from domain.services.catalog import Services
from tests.factories import NOW, ORGANIZER, seed_tournament


async def test_a_second_read_in_the_same_unit_of_work_asks_the_database_nothing(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    seeded = await seed_tournament(uow_factory, players=20, judges=2)
    await services.rounds_seating.start_stage(Actor(ORGANIZER, NOW), seeded.tournament.id, seed=7)
    async with uow_factory() as uow:
        first = await uow.tournaments.get(seeded.tournament.id)
        places = await uow.rounds.game_places(seeded.tournament.id)
        with counting() as tally:
            assert await uow.tournaments.get(seeded.tournament.id) == first
            assert await uow.rounds.game_places(seeded.tournament.id) == places
            assert await uow.rounds.game_places(seeded.tournament.id, "qualifying") == places
        assert tally.statements == 0


async def test_a_second_read_in_the_same_unit_of_work_sees_the_first_ones_writes(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    seeded = await seed_tournament(uow_factory, players=20, judges=2)
    preview = await services.rounds_seating.start_stage(
        Actor(ORGANIZER, NOW), seeded.tournament.id, seed=7
    )
    game = preview.stage.rounds[0].games[0]
    tournament_id = seeded.tournament.id
    async with uow_factory() as uow:
        tournament = await uow.tournaments.get(tournament_id)
        assert tournament is not None
        await uow.tournaments.save(replace(tournament, title="Renamed"))
        renamed = await uow.tournaments.get(tournament_id)
        assert renamed is not None and renamed.title == "Renamed"

        before = {p.game_id: p for p in await uow.rounds.game_places(tournament_id)}
        assert not before[game.id].confirmed
        closes = NOW.replace(hour=13)
        assert await uow.protocols.advance_game(game.id, game.version, closes)
        after = {p.game_id: p for p in await uow.rounds.game_places(tournament_id)}
        assert after[game.id].protest_until == closes

        registered = await uow.participants.of_tournament(tournament_id)
        await uow.participants.add(
            Participant(
                0, tournament_id, None, "Late", "Club", "City", ParticipantStatus.REGISTERED, NOW
            )
        )
        nicknames = [p.nickname for p in await uow.participants.of_tournament(tournament_id)]
        assert nicknames == [*(p.nickname for p in registered), "Late"]
        await uow.commit()
    # What another unit of work commits meanwhile is seen by the reader's next transaction
    # (one after the other: SQLite's one connection).
    async with uow_factory() as reader:
        assert (await reader.tournaments.get(tournament_id)) == renamed
        await reader.commit()
        async with uow_factory() as writer:
            await writer.tournaments.save(replace(renamed, title="Elsewhere"))
            await writer.commit()
        again = await reader.tournaments.get(tournament_id)
        assert again is not None and again.title == "Elsewhere"
