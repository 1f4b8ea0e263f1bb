"""A press shows the protocol as stored, in one short transaction, on both databases."""

from __future__ import annotations

from bot.db.transactions import counting
from bot.db.uow import SqlUnitOfWorkFactory
from domain.actor import Actor
from domain.cards import Role
from domain.protocol_screen import Act, Mode, Press
from domain.services.catalog import Services
from domain.services.protocols import ProtocolView
from tests.factories import CHIEF_JUDGE
from tests.integration.test_protocols import Judge, _published_game, mode, role_tool

# A press reads the screen (the game with its tournament, the presser's role, the draft and
# the protocol), the seats with their nicknames, and writes the draft.
PRESS_STATEMENTS = 3


def _shown(view: ProtocolView) -> tuple[object, ...]:
    return (view.screen, view.confirmed, view.nicknames, view.chief_judge, view.game)


async def test_each_press_shows_what_the_next_opening_reads(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    """The screen a press answers with is drawn from what it wrote, not read back: it is the
    protocol as the judge's next opening (another device, a refresh) finds it."""
    _seeded, game_id, judge_id = await _published_game(uow_factory, services)
    judge, other_device = (
        Judge(services, game_id, judge_id),
        Judge(services, game_id, judge_id),
    )
    await judge.open()
    for press in (role_tool(Role.SHERIFF), Press(Act.ROLE, 7, 2), mode(Mode.FOULS)):
        pressed = await judge.press(press)
        assert _shown(pressed) == _shown(await other_device.open())
    refused = await judge.press(Press(Act.ROLE, 8, 2))  # a second sheriff
    assert refused.refused
    assert _shown(refused) == _shown(await other_device.open())


async def test_a_press_is_one_transaction_of_a_few_statements(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    """Thirty judges press at a round's start: each press holds the database for one short
    write transaction, the table judge's and the chief judge's alike."""
    _seeded, game_id, judge_id = await _published_game(uow_factory, services)
    for user in (judge_id, CHIEF_JUDGE):
        judge = Judge(services, game_id, user)
        await judge.open()
        with counting() as tally:
            view = await judge.press(mode(Mode.KILL))
        assert view.screen is not None and view.screen.mode is Mode.KILL
        assert tally.transactions == 1
        assert tally.statements <= PRESS_STATEMENTS + 2  # with BEGIN and COMMIT


async def test_the_refresh_and_a_refused_confirmation_read_as_a_press_does(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    """The screen's refresh button (an opening of the draft) and a confirmation the draft is
    not ready for read the screen in the press's two statements, and show what the first
    opening, which started the draft, showed."""
    _seeded, game_id, judge_id = await _published_game(uow_factory, services)
    for user in (judge_id, CHIEF_JUDGE):
        judge = Judge(services, game_id, user)
        first = await judge.open()
        with counting() as refresh:
            again = await judge.open()
        assert _shown(again) == _shown(first)
        with counting() as confirming:
            refused = await services.protocols.confirm_protocol(Actor(user, judge.at), game_id)
        assert refused.refused and _shown(refused) == _shown(first)
        for tally in (refresh, confirming):
            assert tally.transactions == 1
            assert tally.statements <= PRESS_STATEMENTS  # BEGIN and the two reads
