"""The organizer's call to check in, recorded once per press, on SQLite and PostgreSQL."""

from __future__ import annotations

from dataclasses import replace

from bot.db.uow import SqlUnitOfWorkFactory
from domain.actor import Actor
from domain.services.catalog import Services
from domain.tournament import TournamentState
from tests.factories import NOW, ORGANIZER, seed_tournament
from tests.integration.test_rounds import sent_messages


async def test_a_press_handled_twice_calls_each_player_once(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    seeded = await seed_tournament(uow_factory, players=12)
    async with uow_factory() as uow:
        closed = replace(
            seeded.tournament, state=TournamentState.REGISTRATION_CLOSED, current_stage=None
        )
        await uow.tournaments.save(closed)
        await uow.commit()
    organizer = Actor(ORGANIZER, NOW)
    # The same press handled a second time, as when its replica was killed after the call was
    # committed and before the webhook ledger heard of it: no player is called twice.
    await services.checkin.call_for_checkin(organizer, closed.id, "press-1")
    await services.checkin.call_for_checkin(organizer, closed.id, "press-1")
    called = [message.chat_id for message in await sent_messages(uow_factory)]
    assert sorted(called) == sorted(p.user_id for p in seeded.players)
    # A new press calls them again.
    await services.checkin.call_for_checkin(organizer, closed.id, "press-2")
    assert len(await sent_messages(uow_factory)) == 12
