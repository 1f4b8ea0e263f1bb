"""A protocol filled by presses, confirmed once, corrected with an audit, on both databases."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from decimal import Decimal

import pytest

from bot.db.uow import SqlUnitOfWorkFactory
from domain.actor import Actor
from domain.cards import Role, Side
from domain.protocol_screen import MODES, ROLE_TOOLS, Act, Mode, Press, seat_press
from domain.registration import Application
from domain.rounds import GameState
from domain.services.catalog import Services
from domain.services.protocols import NotYourTable, ProtocolView
from tests.factories import (
    CHANNEL,
    CHIEF_JUDGE,
    FIRST_PLAYER,
    NOW,
    ORGANIZER,
    Seeded,
    seed_tournament,
)
from tests.integration.test_rounds import seated, sent_messages


async def _published_game(
    uow_factory: SqlUnitOfWorkFactory, services: Services
) -> tuple[Seeded, int, int]:
    """A tournament whose round 1 is published: its first game's id and judge."""
    seeded = await seed_tournament(uow_factory)
    preview = await seated(services, seeded)
    await services.rounds_publication.publish_round(Actor(ORGANIZER, NOW), seeded.tournament.id, 1)
    await sent_messages(uow_factory)
    game = preview.stage.rounds[0].games[0]
    assert game.judge_id is not None
    return seeded, game.id, game.judge_id


def mode(name: Mode) -> Press:
    return Press(Act.MODE, value=MODES.index(name))


def role_tool(role: Role) -> Press:
    return Press(Act.ROLE_TOOL, value=ROLE_TOOLS.index(role))


class Judge:
    """Presses buttons the way the screen offers them: a seat's button carries its value."""

    def __init__(self, services: Services, game_id: int, user_id: int, at: datetime = NOW) -> None:
        """`at` is when the judge presses (the winner's press records the game's end)."""
        self._services, self.game_id, self.user_id = services, game_id, user_id
        self.at = at
        self.view: ProtocolView | None = None

    async def open(self) -> ProtocolView:
        self.view = await self._services.protocols.open_protocol(
            Actor(self.user_id, self.at), self.game_id
        )
        return self.view

    async def press(self, press: Press) -> ProtocolView:
        self.view = await self._services.protocols.press_protocol(
            Actor(self.user_id, self.at), self.game_id, press
        )
        return self.view

    async def tap(self, seat: int) -> ProtocolView:
        assert self.view is not None and self.view.screen is not None
        press = seat_press(self.view.screen, seat, self.view.regulation)
        assert press is not None
        return await self.press(press)

    async def fill_red_win(self) -> ProtocolView:
        """Don 10, sheriff 7, mafia 8 and 9; seat 1 killed first, names 8 9 10; red wins."""
        await self.open()
        for role, seats in ((Role.DON, [10]), (Role.SHERIFF, [7]), (Role.MAFIA, [8, 9])):
            await self.press(role_tool(role))
            for seat in seats:
                await self.tap(seat)
        await self.press(Press(Act.REST_CIVILIANS))
        await self.press(mode(Mode.KILL))
        await self.tap(1)
        await self.press(mode(Mode.BEST_MOVE))
        for seat in (8, 9, 10):
            await self.tap(seat)
        await self.press(mode(Mode.WINNER))
        return await self.press(Press(Act.WINNER, value=0))

    async def confirm(self) -> ProtocolView:
        return await self._services.protocols.confirm_protocol(
            Actor(self.user_id, NOW), self.game_id
        )


async def test_a_protocol_filled_by_presses_is_confirmed_scored_and_posted(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    seeded, game_id, judge_id = await _published_game(uow_factory, services)
    judge = Judge(services, game_id, judge_id)
    view = await judge.fill_red_win()
    assert view.missing == ()
    scores = view.scores
    assert scores is not None
    # A red win: +2 to each red player, the first victim's best move names three blacks.
    assert scores[0].total == Decimal("2.3")
    assert scores[9].total == 0
    done = await judge.confirm()
    assert done.notice == "protocol-screen-confirmed"
    assert done.game.game.state is GameState.CONFIRMED
    assert done.game.game.protest_until == NOW + timedelta(minutes=10)
    assert done.confirmed is not None and done.confirmed.winner is Side.RED
    standings = await services.standings.current_standings(seeded.tournament.id)
    leader = standings.players[0]
    assert leader.id == str(done.game.game.players[0])
    assert leader.points == Decimal("2.3")
    posts = [m for m in await sent_messages(uow_factory) if m.chat_id == CHANNEL]
    assert [m.phrase.key for m in posts if m.phrase] == ["protocol-result"]


async def test_an_impossible_press_is_refused_and_changes_nothing(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    _, game_id, judge_id = await _published_game(uow_factory, services)
    judge = Judge(services, game_id, judge_id)
    await judge.open()
    await judge.tap(10)
    await judge.press(role_tool(Role.DON))  # the tool moved on to the sheriff by itself
    refused = await judge.tap(3)
    assert [error.code for error in refused.refused] == ["protocol-role-count"]
    assert refused.screen is not None
    assert [seat.role for seat in refused.screen.draft.seats][2] is None
    # The draft lives in the database: opening it again shows the one don.
    again = await judge.open()
    assert again.screen is not None and again.screen.draft.seats[9].role is Role.DON


async def test_a_stranger_and_another_tables_judge_are_refused(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    seeded, game_id, judge_id = await _published_game(uow_factory, services)
    other_judge = next(j for j in seeded.judges if j != judge_id)
    for intruder in (FIRST_PLAYER, other_judge, ORGANIZER):
        with pytest.raises(NotYourTable):
            await services.protocols.press_protocol(
                Actor(intruder, NOW), game_id, Press(Act.WINNER, value=1)
            )
    view = await Judge(services, game_id, judge_id).open()
    assert view.screen is not None and view.screen.draft.winner is None


async def test_two_confirmations_at_the_same_moment_store_one_result(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    seeded, game_id, judge_id = await _published_game(uow_factory, services)
    await Judge(services, game_id, judge_id).fill_red_win()
    table_judge = Judge(services, game_id, judge_id)
    chief = Judge(services, game_id, CHIEF_JUDGE)
    results = await asyncio.gather(table_judge.confirm(), chief.confirm(), table_judge.confirm())
    notices = sorted(view.notice or "" for view in results)
    assert notices == [
        "protocol-screen-already-confirmed",
        "protocol-screen-already-confirmed",
        "protocol-screen-confirmed",
    ]
    posts = [m for m in await sent_messages(uow_factory) if m.chat_id == CHANNEL]
    # One result post and one edit of the live table.
    assert sorted(m.phrase.key if m.phrase else m.edit_key or "" for m in posts) == [
        "protocol-result",
        f"standings:{seeded.tournament.id}",
    ]
    standings = await services.standings.current_standings(seeded.tournament.id)
    assert standings.players[0].figures.games == 1


async def test_results_of_two_tables_confirmed_together_both_count(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    seeded = await seed_tournament(uow_factory)
    preview = await seated(services, seeded)
    await services.rounds_publication.publish_round(Actor(ORGANIZER, NOW), seeded.tournament.id, 1)
    judges = [
        Judge(services, game.id, game.judge_id or 0) for game in preview.stage.rounds[0].games
    ]
    for judge in judges:
        await judge.fill_red_win()
    await asyncio.gather(*(judge.confirm() for judge in judges))
    standings = await services.standings.current_standings(seeded.tournament.id)
    assert sum(row.figures.games for row in standings.players) == 20


async def test_the_chief_judge_corrects_a_confirmed_protocol_with_an_audit(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    seeded, game_id, judge_id = await _published_game(uow_factory, services)
    judge = Judge(services, game_id, judge_id)
    await judge.fill_red_win()
    confirmed = await judge.confirm()
    with pytest.raises(NotYourTable):
        await services.protocols.start_correction(Actor(judge_id, NOW), game_id)
    late = await judge.press(Press(Act.WINNER, value=1))
    assert late.notice == "protocol-screen-already-confirmed"
    chief = Judge(services, game_id, CHIEF_JUDGE)
    await services.protocols.start_correction(Actor(CHIEF_JUDGE, NOW), game_id)
    chief.view = await chief.open()
    assert chief.view.correcting
    await chief.press(mode(Mode.WINNER))
    await chief.press(Press(Act.WINNER, value=1))
    corrected = await chief.confirm()
    assert corrected.notice == "protocol-screen-corrected"
    assert corrected.confirmed is not None and corrected.confirmed.winner is Side.BLACK
    # A correction does not reopen the protest window.
    assert corrected.game.game.protest_until == confirmed.game.game.protest_until
    audit = await services.protocols.corrections(Actor(CHIEF_JUDGE, NOW), game_id)
    assert [(c.corrected_by, c.before.winner, c.after.winner) for c in audit] == [
        (CHIEF_JUDGE, Side.RED, Side.BLACK)
    ]
    standings = await services.standings.current_standings(seeded.tournament.id)
    don = str(confirmed.game.game.players[9])
    assert next(row for row in standings.players if row.id == don).points == 2
    posts = [
        m.phrase.key for m in await sent_messages(uow_factory) if m.phrase and m.chat_id == CHANNEL
    ]
    assert posts == ["protocol-result", "protocol-result-corrected"]


async def test_a_substitute_shows_in_the_standings_without_another_result(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    seeded, game_id, judge_id = await _published_game(uow_factory, services)
    judge = Judge(services, game_id, judge_id)
    await judge.fill_red_win()
    done = await judge.confirm()
    tid = seeded.tournament.id
    leaver = done.game.game.players[0]
    await services.checkin.exclude(Actor(CHIEF_JUDGE, NOW), leaver, "поведение")
    await services.checkin.substitute(
        Actor(ORGANIZER, NOW), leaver, newcomer=Application("Запасной", "Клуб", "Омск")
    )
    # No protocol was confirmed since: the standings still follow the change at once.
    standings = await services.standings.current_standings(tid)
    rows = {row.name: row for row in standings.players}
    assert rows["Запасной"].figures.games == 0
    # The excluded player keeps the points of the game he played, listed below everyone still in.
    last = standings.players[-1]
    assert last.id == str(leaver) and last.excluded and last.points == Decimal("2.3")
    assert all(not row.excluded for row in standings.players[:-1])
    board = await services.standings.standings_of_tournament(Actor(ORGANIZER, NOW), tid)
    assert board is not None and board.standings == standings
