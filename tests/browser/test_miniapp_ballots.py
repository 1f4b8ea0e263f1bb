"""Who voted for whom and technical fouls in the Mini App, in headless Chromium: under a
regulation with `game.record_ballots` the judge marks the seats voting for each candidate and
the server's log keeps every ballot; a technical foul is counted apart from the fouls."""

from __future__ import annotations

from dataclasses import replace

from domain.game_log import Ballot, CastVotes, Nominate, Proceed, TechnicalFoul, action_to_dict
from harness.simulation.live_game import LiveGameClient
from tests.browser.conftest import HeadlessBrowser
from tests.browser.test_miniapp import WAIT_MS, Judge
from tests.browser.test_miniapp_offline import ROLES, _open
from tests.e2e.conftest import fake_telegram
from tests.e2e.test_miniapp_api import Tables, tables
from tests.unit.test_game_log_ballots import BALLOTS

__all__ = ["fake_telegram", "tables"]


async def _record_ballots(tables: Tables) -> None:
    async with tables.app.uow_factory() as uow:
        tournament = await uow.tournaments.get(tables.seeded.tournament.id)
        assert tournament is not None
        await uow.tournaments.save(replace(tournament, regulation_json=BALLOTS.model_dump_json()))
        await uow.commit()


async def test_the_judge_records_who_voted_for_whom_and_a_technical_foul(
    tables: Tables, browser: HeadlessBrowser
) -> None:
    await _record_ballots(tables)
    shown, address = await _open(tables, browser)
    page = shown.page
    judge = Judge(shown)
    for action in (ROLES, Proceed(), Nominate(1, 8), Proceed(), Nominate(2, 3)):
        await judge.play(action)
    # A technical foul: the fouls mode, "Tech. foul", the seat.
    await judge.tap("#mode-fouls", saved=False)
    await judge.tap("#technical", saved=False)
    await judge.seat(6)
    await judge.tap("#mode-play", saved=False)
    assert "тех 1" in await page.inner_text('#seats button[data-seat="6"]')
    while await judge.phase() == "speeches":
        await judge.play(Proceed())
    for_eight = (1, 2, 4, 5, 6, 7, 10)
    for seat in for_eight:
        await judge.seat(seat, saved=False)
    assert "→ 8" in await page.inner_text('#seats button[data-seat="4"]')
    await judge.tap("#votes-submit")
    await page.wait_for_selector('body[data-phase="last_words"]', timeout=WAIT_MS)
    server = LiveGameClient.launched(address)
    try:
        _, view = await server.get()
    finally:
        await server.close()
    ballots = tuple(Ballot(s, 8 if s in for_eight else 3) for s in range(1, 11))
    assert view["log"][-1]["ballots"] == action_to_dict(CastVotes((7, 3), ballots))["ballots"]
    assert view["log"][-1]["counts"] == [7, 3]
    assert [e["kind"] for e in view["log"]].count(TechnicalFoul.kind) == 1
    assert view["seats"][5]["technical"] == 1 and view["seats"][5]["fouls"] == 0
    shown.assert_no_console_errors()
