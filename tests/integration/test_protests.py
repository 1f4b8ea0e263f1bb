"""Protests on SQLite and PostgreSQL: the window by the second, strangers, two protests on one
game, a rejection and an accepted protest whose correction changes the standings, the switch,
and the audit log."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from decimal import Decimal

import pytest

from bot.db.uow import SqlUnitOfWorkFactory
from domain.actor import Actor
from domain.cards import Side
from domain.intents import FileProtest
from domain.protests import AuditKind, ProtestStatus
from domain.protocol_screen import Act, Mode, Press
from domain.services.catalog import Services
from domain.validation import Invalid
from tests.factories import CHANNEL, CHIEF_JUDGE, NOW, ORGANIZER, Seeded
from tests.integration.test_protocols import Judge, _published_game, mode
from tests.integration.test_rounds import sent_messages

CLOSES = NOW + timedelta(minutes=10)
REASON = "Судья не засчитал фол игроку 3"


async def _confirmed(
    uow_factory: SqlUnitOfWorkFactory, services: Services
) -> tuple[Seeded, int, tuple[int, ...]]:
    """A red win confirmed at NOW: the tournament, the game and its players (participants)."""
    seeded, game_id, judge_id = await _published_game(uow_factory, services)
    judge = Judge(services, game_id, judge_id)
    await judge.fill_red_win()
    view = await judge.confirm()
    return seeded, game_id, view.game.game.players


async def test_each_player_gets_his_result_with_a_protest_button_taken_away_at_the_close(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    seeded, game_id, players = await _confirmed(uow_factory, services)
    offers = [
        m for m in await sent_messages(uow_factory) if m.phrase and m.phrase.key == "protest-offer"
    ]
    assert sorted(m.chat_id for m in offers) == sorted(seeded.user_of(p) for p in players)
    assert all(m.buttons[0][0].intent == FileProtest(game_id) for m in offers)
    # Omsk is UTC+6: the window closes at 18:10 on the tournament's clock.
    assert offers[0].phrase is not None and offers[0].phrase.arguments["time"] == "18:10"
    async with uow_factory() as uow:
        assert await uow.scheduled_pushes.take_due(CLOSES - timedelta(seconds=1)) == []
        due = await uow.scheduled_pushes.take_due(CLOSES)
    # The channel's live table is refreshed at the same moment (its result stops being
    # provisional); every player's offer loses its button.
    closing = [p for p in due if p.message.chat_id > 0]
    assert [p.message.chat_id for p in due if p.message.chat_id < 0] == [CHANNEL]
    assert len(closing) == 10
    assert all(p.message.buttons == () and p.message.edit_key for p in closing)


async def test_a_protest_at_the_last_second_is_taken_and_one_second_later_refused(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    seeded, game_id, players = await _confirmed(uow_factory, services)
    first, second = (seeded.user_of(p) for p in players[:2])
    last_second = CLOSES - timedelta(seconds=1)
    filed = await services.protests_filing.file_protest(
        Actor(first, last_second), game_id, REASON, None
    )
    assert filed.status is ProtestStatus.PENDING and filed.filed_at == last_second
    with pytest.raises(Invalid) as late:
        await services.protests_filing.file_protest(
            Actor(second, last_second + timedelta(seconds=1)), game_id, REASON, None
        )
    assert (late.value.code, late.value.args_) == ("protest-window-closed", {"time": "18:10"})
    # The chief judge got the protest with the protocol and the table judge's name.
    to_chief = [m for m in await sent_messages(uow_factory) if m.chat_id == CHIEF_JUDGE]
    assert [m.phrase.key for m in to_chief if m.phrase] == ["protest-to-chief"]
    assert to_chief[0].phrase is not None
    arguments = to_chief[0].phrase.arguments
    assert arguments["reason"] == REASON and arguments["winner"] == "red"
    assert str(arguments["judge"]).startswith("U")


async def test_a_stranger_and_an_organizer_may_not_protest(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    seeded, game_id, players = await _confirmed(uow_factory, services)
    outsider = next(p for p in seeded.players if p.id not in players)
    for person in (ORGANIZER, CHIEF_JUDGE, outsider.user_id):
        assert person is not None
        with pytest.raises(Invalid) as refused:
            await services.protests_filing.file_protest(Actor(person, NOW), game_id, REASON, None)
        assert refused.value.code == "protest-not-your-game"
    async with uow_factory() as uow:
        assert await uow.protests.of_game(game_id) == []


async def test_two_protests_on_one_game(
    uow_factory: SqlUnitOfWorkFactory, services: Services
) -> None:
    seeded, game_id, players = await _confirmed(uow_factory, services)
    first, second = (seeded.user_of(p) for p in players[:2])
    # The same player filing twice at once: one protest is stored, the other refused.
    results = await asyncio.gather(
        *(
            services.protests_filing.file_protest(Actor(first, NOW), game_id, REASON, None)
            for _ in range(2)
        ),
        return_exceptions=True,
    )
    assert sorted(type(r).__name__ for r in results) == ["Invalid", "Protest"]
    # Another player of the game protests too: both wait for the chief judge.
    await services.protests_filing.file_protest(
        Actor(second, NOW), game_id, "Лучший ход записан неверно", None
    )
    async with uow_factory() as uow:
        stored = await uow.protests.of_game(game_id)
        assert await uow.protests.open_games(seeded.tournament.id) == {game_id}
    assert sorted(p.user_id for p in stored) == sorted([first, second])
    # Rejecting one leaves the game provisional while the other is pending.
    later = CLOSES + timedelta(minutes=5)
    await services.protests_deciding.decide_protest(
        Actor(CHIEF_JUDGE, later), stored[0].id, accept=False, text="Фол был"
    )
    board = await services.standings.standings_of_tournament(
        Actor(ORGANIZER, later), seeded.tournament.id
    )
    assert board is not None and board.provisional_games == 1
    with pytest.raises(Invalid) as twice:
        await services.protests_deciding.decide_protest(
            Actor(CHIEF_JUDGE, later), stored[0].id, accept=True, text="Нет"
        )
    assert twice.value.code == "protest-already-decided"


async def test_a_rejection_is_final_told_and_lifts_the_provisional_mark(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    seeded, game_id, players = await _confirmed(uow_factory, services)
    protester = seeded.user_of(players[0])
    filed = await services.protests_filing.file_protest(
        Actor(protester, NOW), game_id, REASON, None
    )
    await sent_messages(uow_factory)
    later = CLOSES + timedelta(minutes=5)
    # A table judge is not the one who decides.
    with pytest.raises(PermissionError):
        await services.protests_deciding.decide_protest(
            Actor(seeded.judges[0], later), filed.id, accept=False, text="Нет"
        )
    await services.protests_deciding.decide_protest(
        Actor(CHIEF_JUDGE, later),
        filed.id,
        accept=False,
        text="Фол был зафиксирован верно",
    )
    told = await sent_messages(uow_factory)
    rejected = [m.chat_id for m in told if m.phrase and m.phrase.key == "protest-rejected"]
    async with uow_factory() as uow:
        game = await uow.rounds.game(game_id)
    assert game is not None
    assert sorted(rejected) == sorted([protester, game.game.judge_id])
    assert any(m.chat_id == CHANNEL and m.edit_key for m in told)
    board = await services.standings.standings_of_tournament(
        Actor(ORGANIZER, later), seeded.tournament.id
    )
    assert board is not None and board.provisional_games == 0


async def test_an_accepted_protest_corrects_the_protocol_and_changes_the_standings(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    seeded, game_id, players = await _confirmed(uow_factory, services)
    protester = seeded.user_of(players[9])
    filed = await services.protests_filing.file_protest(
        Actor(protester, NOW), game_id, REASON, None
    )
    later = CLOSES + timedelta(minutes=5)
    before = await services.standings.current_standings(seeded.tournament.id)
    points = {row.id: row.points for row in before.players}
    assert points[str(players[0])] == Decimal("2.3") and points[str(players[9])] == 0
    await services.protests_deciding.decide_protest(
        Actor(CHIEF_JUDGE, later), filed.id, accept=True, text="Победа чёрных"
    )
    # Accepted but not yet corrected: the result is still provisional.
    board = await services.standings.standings_of_tournament(
        Actor(ORGANIZER, later), seeded.tournament.id
    )
    assert board is not None and board.provisional_games == 1
    chief = Judge(services, game_id, CHIEF_JUDGE)
    await services.protocols.start_correction(Actor(CHIEF_JUDGE, later), game_id)
    await chief.press(mode(Mode.WINNER))
    await chief.press(Press(Act.WINNER, value=1))
    await chief.press(mode(Mode.SUMMARY))
    done = await services.protocols.confirm_protocol(Actor(CHIEF_JUDGE, later), game_id)
    assert done.confirmed is not None and done.confirmed.winner is Side.BLACK
    after = await services.standings.current_standings(seeded.tournament.id)
    points = {row.id: row.points for row in after.players}
    assert points[str(players[0])] == Decimal("0.3") and points[str(players[9])] == Decimal(2)
    board = await services.standings.standings_of_tournament(
        Actor(ORGANIZER, later), seeded.tournament.id
    )
    assert board is not None and board.provisional_games == 0
    async with uow_factory() as uow:
        settled = await uow.protests.get(filed.id)
    assert settled is not None and settled.status is ProtestStatus.CORRECTED
    told = await sent_messages(uow_factory)
    keys = [(m.chat_id, m.phrase.key) for m in told if m.phrase]
    assert (protester, "protest-corrected") in keys
    assert (CHANNEL, "protocol-result-corrected") in keys
    log = await services.protests_organizer.audit_log(Actor(ORGANIZER, later), seeded.tournament.id)
    assert [e.kind for e in log.entries] == [
        AuditKind.PROTEST_FILED,
        AuditKind.PROTEST_ACCEPTED,
        AuditKind.PROTOCOL_CORRECTED,
    ]
    assert log.entries[2].text.startswith("red → black")


async def test_the_organizer_switches_protests_off_and_back_on(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    seeded, game_id, judge_id = await _published_game(uow_factory, services)
    tid = seeded.tournament.id
    with pytest.raises(PermissionError):
        await services.protests_organizer.switch_protests(Actor(CHIEF_JUDGE, NOW), tid, False)
    off = await services.protests_organizer.switch_protests(Actor(ORGANIZER, NOW), tid, False)
    assert (off.regulation_minutes, off.minutes) == (10, None)
    judge = Judge(services, game_id, judge_id)
    await judge.fill_red_win()
    view = await judge.confirm()
    assert view.game.game.protest_until is None
    player = seeded.user_of(view.game.game.players[0])
    with pytest.raises(Invalid) as refused:
        await services.protests_filing.file_protest(Actor(player, NOW), game_id, REASON, None)
    assert refused.value.code == "protest-no-window"
    back = await services.protests_organizer.switch_protests(Actor(ORGANIZER, NOW), tid, None)
    assert back.minutes == 10
    log = await services.protests_organizer.audit_log(Actor(ORGANIZER, NOW), tid)
    assert [e.kind for e in log.entries] == [AuditKind.PROTESTS_SWITCHED] * 2
    assert log.minutes == 10
