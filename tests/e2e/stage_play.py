"""Helpers (no tests here): a whole stage played straight through the use cases, as the
judges and the chief judge would by buttons, for the tests of what follows a stage."""

from __future__ import annotations

from datetime import datetime

from domain.actor import Actor
from domain.rounds import SeatedStage
from domain.services.catalog import Services, build_services
from domain.services.ports import UnitOfWorkFactory
from domain.validation import Invalid
from tests.factories import CHIEF_JUDGE, ORGANIZER
from tests.integration.test_protocols import Judge


async def play_stage(services: Services, tournament: int, now: datetime) -> SeatedStage:
    """Seat the running stage, publish every round and confirm every game (a red win), all
    at `now`."""
    stage = (
        await services.rounds_seating.start_stage(Actor(ORGANIZER, now), tournament, seed=3)
    ).stage
    for round_ in stage.rounds:
        await services.rounds_publication.publish_round(
            Actor(ORGANIZER, now), tournament, round_.number
        )
        for game in round_.games:
            assert game.judge_id is not None
            judge = Judge(services, game.id, game.judge_id, now)
            await judge.fill_red_win()
            await judge.confirm()
    return stage


async def draw_every_lot(uow_factory: UnitOfWorkFactory, tournament: int, now: datetime) -> None:
    """The chief judge decides every tie the bot asks a lot for, by the tournament's seed."""
    services = build_services(uow_factory)
    while True:
        try:
            await services.tie_decisions.draw_lot(
                Actor(CHIEF_JUDGE, now), tournament, None, fresh_seed="f00d"
            )
        except Invalid as error:  # every tie is decided
            assert error.code == "lot-nothing-to-decide"
            return
