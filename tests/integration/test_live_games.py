"""The live game stored action by action with the protocol draft it makes, on both databases:
resumed from the database, guarded against a stale device, confirmed like the inline protocol."""

from __future__ import annotations

import json
from datetime import timedelta

from bot.db.uow import SqlUnitOfWorkFactory
from domain.actor import Actor
from domain.game_log import Foul, Nominate, Phase, Proceed
from domain.regulation import load_preset
from domain.rounds import GameState
from domain.services.catalog import Services, build_services
from harness.simulation.live_game import live_actions
from tests.e2e.test_miniapp_api import PLAN
from tests.factories import NOW
from tests.integration.test_protocols import _published_game
from tests.integration.test_tournament_export import _import, fresh_uow_factory

__all__ = ["fresh_uow_factory"]


async def test_every_action_is_stored_and_the_draft_follows_the_log(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    _seeded, game_id, judge = await _published_game(uow_factory, services)
    fresh = await services.live_games.open_live(Actor(judge, NOW), game_id)
    assert fresh.version == 0 and fresh.state.phase is Phase.INTRODUCTION
    version = 0
    for minute, action in enumerate((Proceed(), Foul(3), Nominate(1, 9))):
        view = await services.live_games.record(
            Actor(judge, NOW + timedelta(minutes=minute)), game_id, action, version
        )
        assert view.refused is None and not view.stale
        version = view.version
    # Read back from the database: the same log, the same game, each action with its moment.
    again = await services.live_games.open_live(Actor(judge, NOW), game_id)
    assert again.state == view.state and again.version == version == 3
    assert [entry.at for entry in again.entries] == [NOW + timedelta(minutes=m) for m in range(3)]
    assert again.entries[1].by == judge
    # The inline protocol screen shows the same fouls.
    inline = await services.protocols.open_protocol(Actor(judge, NOW), game_id)
    assert inline.screen is not None and inline.screen.draft.seats[2].fouls == 1
    # A device one version behind changes nothing.
    stale = await services.live_games.record(Actor(judge, NOW), game_id, Proceed(), 1)
    assert stale.stale and stale.version == 3
    undone = await services.live_games.undo(Actor(judge, NOW), game_id, 3)
    assert undone.version == 4 and undone.state.nominations == ()


async def test_a_game_played_live_is_confirmed_with_its_log_kept(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    _seeded, game_id, judge = await _published_game(uow_factory, services)
    regulation = load_preset("black-raven-cup")
    version = 0
    for index, action in enumerate(live_actions(PLAN, regulation)):
        view = await services.live_games.record(
            Actor(judge, NOW + timedelta(seconds=index)), game_id, action, version
        )
        assert view.refused is None, (action, view.refused)
        version = view.version
    assert view.scores is not None and view.missing == ()
    confirmed = await services.live_games.confirm(Actor(judge, NOW + timedelta(hours=1)), game_id)
    assert confirmed.confirmed and confirmed.notice == "protocol-screen-confirmed"
    assert confirmed.game.game.state is GameState.CONFIRMED
    stored = await services.protocols.open_protocol(Actor(judge, NOW), game_id)
    assert stored.confirmed is not None and stored.confirmed.winner is PLAN.winner
    # The end of the game is when the judge confirmed the end in the Mini App.
    finish = next(e for e in confirmed.entries if e.action.kind == "finish")
    assert stored.confirmed.ended_at == finish.at
    kept = await services.live_games.open_live(Actor(judge, NOW), game_id)
    assert len(kept.entries) == len(live_actions(PLAN, regulation))


async def test_the_tournament_file_carries_the_live_log_to_another_installation(
    uow_factory: SqlUnitOfWorkFactory, fresh_uow_factory: SqlUnitOfWorkFactory, services: Services
) -> None:
    seeded, game_id, judge = await _published_game(uow_factory, services)
    regulation = load_preset("black-raven-cup")
    version = 0
    for action in live_actions(PLAN, regulation):
        version = (
            await services.live_games.record(Actor(judge, NOW), game_id, action, version)
        ).version
    await services.live_games.confirm(Actor(judge, NOW), game_id)
    text = await services.exports.dump_tournament(seeded.tournament.id)
    (game,) = json.loads(text)["games"]
    assert len(game["log"]) == len(live_actions(PLAN, regulation))
    assert {entry["kind"] for entry in game["log"]} >= {"roles", "foul", "shot", "finish"}
    moved = await _import(fresh_uow_factory, text)
    assert json.loads(await build_services(fresh_uow_factory).exports.dump_tournament(moved))[
        "games"
    ] == [game]
