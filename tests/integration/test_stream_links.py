"""The organizer's stream links on both databases: opened with a token, delayed, revoked,
opened again with a new token; only the organizer may; each change and each stored action
of the live game tells the game's listeners after the commit (and the first one the
tournament's pages, which link the game being played)."""

from __future__ import annotations

import pytest

from bot.db.uow import SqlUnitOfWorkFactory
from domain.actor import Actor
from domain.game_log import Proceed
from domain.permissions import Forbidden
from domain.services.access import NotFound
from domain.services.catalog import Services
from domain.validation import Invalid
from tests.factories import NOW, ORGANIZER
from tests.integration.test_protocols import _published_game


async def test_a_stream_link_is_opened_delayed_revoked_and_renewed(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    _seeded, game_id, judge = await _published_game(uow_factory, services)
    games: list[frozenset[int]] = []
    uow_factory.add_game_listener(games.append)
    organizer = Actor(ORGANIZER, NOW)
    screen = await services.live_tables.stream_screen(organizer, game_id)
    assert screen.link is None and not screen.open
    # Nothing to revoke or delay before a link is opened.
    assert (await services.live_tables.revoke_stream(organizer, game_id)).link is None
    screen = await services.live_tables.open_stream(organizer, game_id, "first")
    assert screen.open and screen.link is not None and screen.link.delay_seconds == 60
    screen = await services.live_tables.set_stream_delay(organizer, game_id, 120)
    assert screen.link is not None and screen.link.delay_seconds == 120
    with pytest.raises(Invalid):
        await services.live_tables.set_stream_delay(organizer, game_id, 3601)
    screen = await services.live_tables.revoke_stream(organizer, game_id)
    assert not screen.open
    # A new link: a new token, the delay kept.
    screen = await services.live_tables.open_stream(organizer, game_id, "second")
    _log, stored = await services.live_tables.game_feed(game_id)
    assert stored is not None and stored.token == "second" and stored.delay_seconds == 120
    assert not stored.revoked and stored.opens("second") and not stored.opens("first")
    assert games == [frozenset({game_id})] * 4
    # The table's judge is not the organizer; an unknown game is not found.
    with pytest.raises(Forbidden):
        await services.live_tables.open_stream(Actor(judge, NOW), game_id, "mine")
    with pytest.raises(NotFound):
        await services.live_tables.stream_screen(organizer, 999_999)


async def test_the_live_games_actions_tell_the_game_and_its_first_one_the_tournament(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    seeded, game_id, judge = await _published_game(uow_factory, services)
    games: list[frozenset[int]] = []
    tournaments: list[frozenset[int]] = []
    uow_factory.add_game_listener(games.append)
    uow_factory.add_change_listener(tournaments.append)
    view = await services.public.public_tournament(seeded.tournament.id, NOW)
    assert view is not None and view.table_of_game(game_id) is not None
    assert not view.table_of_game(game_id)[1].live  # type: ignore[index]
    first = await services.live_games.record(Actor(judge, NOW), game_id, Proceed(), 0)
    await services.live_games.record(Actor(judge, NOW), game_id, Proceed(), first.version)
    assert games == [frozenset({game_id})] * 2
    assert tournaments == [frozenset({seeded.tournament.id})]
    view = await services.public.public_tournament(seeded.tournament.id, NOW)
    assert view is not None
    _round, table = view.table_of_game(game_id)  # type: ignore[misc]
    assert table.live and table.game_id == game_id
    assert [entry.action for entry in (await services.live_tables.game_feed(game_id))[0]] == [
        Proceed(),
        Proceed(),
    ]
