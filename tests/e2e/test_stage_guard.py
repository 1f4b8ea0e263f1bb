"""The next stage starts (and the tournament finishes) only when the running stage is finished.

At every state of a running stage the organizer's card offers no move out of it and says what
is missing; the same move pressed on an old card is refused with that reason and changes
nothing. Once the last protest window has closed and the cut's tie is settled by a lot, the
card offers the move and it starts the next stage.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

from bot.app import Application
from bot.clock import FixedClock
from domain.actor import Actor
from domain.lifecycle import Move
from domain.services.ports import UnitOfWorkFactory
from domain.tournament import Tournament, TournamentState
from harness.fake_telegram import ChatMessage, FakeTelegram
from harness.fake_telegram.people import FakeUser
from harness.sandbox import running_bot, sandbox_settings
from harness.simulation.screens import containing, press
from tests.e2e.stage_play import draw_every_lot, play_stage
from tests.factories import (
    CHANNEL,
    CHIEF_JUDGE,
    FIRST_JUDGE,
    NOW,
    ORGANIZER,
    Seeded,
    seed_tournament,
)
from tests.integration.test_protocols import Judge

START = "Начать следующий этап"
FINISH = "Завершить турнир"
CARD = "Ссылка регистрации"
HELD = "пока недоступен"
TIMEOUT = 60.0


async def _card(organizer: FakeUser, tournament: int) -> ChatMessage:
    """The card as the organizer opens it now from /tournaments."""
    organizer.send("/tournaments")
    listing = await organizer.wait_for(containing("Ваши турниры"), TIMEOUT)
    return await press(organizer, listing, listing.buttons[0][0][0], CARD, TIMEOUT)


async def _held(organizer: FakeUser, old: ChatMessage, tournament: int, reason: str) -> None:
    """The card offers no move out of the stage and names `reason`; the old card's button is
    refused with it and the tournament stays in stage 1."""
    card = await _card(organizer, tournament)
    labels = [label for row in card.buttons for label, _ in row]
    assert START not in labels and FINISH not in labels
    assert HELD in (card.text or "") and reason in (card.text or ""), card.text
    refused = await organizer.press(old, button_text=START).answer(TIMEOUT)
    assert refused.show_alert and reason in (refused.text or ""), refused.text


async def _move_offered(
    app: Application, organizer: FakeUser, tournament: int, move: str, answer: str
) -> Tournament:
    """The card holds nothing back any more: the organizer presses `move` on it, the bot
    answers with `answer`; the tournament as it then stands."""
    card = await _card(organizer, tournament)
    assert HELD not in (card.text or "")
    await press(organizer, card, move, answer, TIMEOUT)
    async with app.uow_factory() as uow:
        moved = await uow.tournaments.get(tournament)
    assert moved is not None
    return moved


async def _registration_closed(uow_factory: UnitOfWorkFactory, tournament: int) -> None:
    async with uow_factory() as uow:
        found = await uow.tournaments.get(tournament)
        assert found is not None
        closed = replace(found, state=TournamentState.REGISTRATION_CLOSED, current_stage=None)
        await uow.tournaments.save(closed)
        await uow.commit()


@asynccontextmanager
async def _started(
    fake_telegram: FakeTelegram, tmp_path: Path, *, players: int, judges: int
) -> AsyncIterator[tuple[Application, FixedClock, FakeUser, Seeded, ChatMessage]]:
    """A cup whose organizer started stage 1 from the card of the closed registration: that
    card, with its "Start" button, is the old keyboard the tests press later."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}"
    fake_telegram.channel(CHANNEL, "Кубок Ворона")
    clock = FixedClock(NOW)
    organizer = fake_telegram.user(ORGANIZER, "Организатор")
    async with running_bot(sandbox_settings(fake_telegram, url), clock=clock) as app:
        seeded = await seed_tournament(app.uow_factory, players=players, judges=judges)
        await _registration_closed(app.uow_factory, seeded.tournament.id)
        old = await _card(organizer, seeded.tournament.id)
        await press(organizer, old, START, "идёт этап 1", TIMEOUT)
        yield app, clock, organizer, seeded, old


async def test_a_stage_cannot_be_skipped_at_any_state_of_it(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    async with _started(fake_telegram, tmp_path, players=30, judges=3) as started:
        app, clock, organizer, seeded, old = started
        tid = seeded.tournament.id

        await _held(organizer, old, tid, "этап 1 ещё не рассажен")
        seated = await app.services.rounds_seating.start_stage(Actor(ORGANIZER, NOW), tid, seed=3)
        stage = seated.stage
        count = len(stage.rounds)
        await _held(
            organizer,
            old,
            tid,
            "не опубликованы туры " + ", ".join(str(n) for n in range(1, count + 1)),
        )
        for number in range(1, count + 1):
            await app.services.rounds_publication.publish_round(Actor(ORGANIZER, NOW), tid, number)
        tables = len(stage.rounds[0].games)
        others = (count - 1) * tables
        await _held(
            organizer, old, tid, f"тур 1: не подтверждены протоколы столов 1, 2, 3, и ещё {others}"
        )
        games = [game for round_ in stage.rounds for game in round_.games]
        for game in games[:-1]:
            assert game.judge_id is not None
            judge = Judge(app.services, game.id, game.judge_id)
            await judge.fill_red_win()
            await judge.confirm()
        await _held(organizer, old, tid, f"тур {count}: не подтверждён протокол стола {tables}")
        last = games[-1]
        assert last.judge_id is not None
        judge = Judge(app.services, last.id, last.judge_id)
        await judge.fill_red_win()
        await judge.confirm()

        first = games[0]
        protester = seeded.user_of(first.players[0])
        filed = await app.services.protests_filing.file_protest(
            Actor(protester, NOW), first.id, "Судья не засчитал фол игроку 3", None
        )
        await _held(organizer, old, tid, "тур 1: ждёт решения протест на игру стола 1")
        await app.services.protests_deciding.decide_protest(
            Actor(CHIEF_JUDGE, NOW),
            filed.id,
            accept=False,
            text="Фолы записаны верно.",
        )
        # Every game was confirmed at NOW: the windows close 10 minutes later (18:10 in Omsk).
        await _held(organizer, old, tid, "окно протестов последних игр этапа открыто до 18:10")

        clock.moment = NOW + timedelta(minutes=10)
        standings = await app.services.standings.current_standings(tid)
        if standings.cuts[0].needs_lot:  # the seating decides whether the cut line ties
            await _held(organizer, old, tid, "главный судья должен провести жребий")
        await draw_every_lot(app.uow_factory, tid, clock.moment)

        moved = await _move_offered(app, organizer, tid, START, "идёт этап 2")
        assert moved.current_stage == "semifinal"


async def test_the_card_offers_no_next_stage_its_cut_cannot_fill(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    """20 players play the qualifying; one is excluded, so the cut sends 19 to a semifinal of
    2 tables: the card does not offer the move, says why, and an old card's press is refused
    without moving the tournament."""
    async with _started(fake_telegram, tmp_path, players=20, judges=2) as started:
        app, clock, organizer, seeded, old = started
        tid = seeded.tournament.id
        await play_stage(app.services, tid, NOW)
        clock.moment = NOW + timedelta(minutes=10)
        await draw_every_lot(app.uow_factory, tid, clock.moment)
        card = await _card(organizer, tid)
        assert START in [label for row in card.buttons for label, _ in row]
        await app.services.checkin.exclude(
            Actor(CHIEF_JUDGE, clock.moment),
            seeded.players[0].id,
            "Подсказки партнёру жестами",
        )
        await _held(organizer, old, tid, "Игроков 19, а нужно 20: 2 стола по 10 игроков.")
        async with app.uow_factory() as uow:
            stayed = await uow.tournaments.get(tid)
        assert stayed is not None and stayed.current_stage == "qualifying"


async def test_the_tournament_finishes_only_when_its_final_is_finished(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    """The same guard for "Finish the tournament": the final played to its last protocol, the
    card waits for the final's protest windows (and says until when), a typed finish is
    refused with that reason, and from the windows' close the card offers it."""
    async with _started(fake_telegram, tmp_path, players=30, judges=3) as started:
        app, clock, organizer, seeded, _ = started
        tid = seeded.tournament.id
        for stage in ("semifinal", "final"):
            await play_stage(app.services, tid, clock.moment)
            clock.moment += timedelta(minutes=10)
            await draw_every_lot(app.uow_factory, tid, clock.moment)
            moved = await app.services.tournaments.move_tournament(
                Actor(ORGANIZER, clock.moment), tid, Move.START_STAGE
            )
            assert isinstance(moved, Tournament) and moved.current_stage == stage
        await play_stage(app.services, tid, clock.moment)
        # The final's games were confirmed at NOW + 20 min: their windows close at 18:30 (Omsk).
        reason = "окно протестов последних игр этапа открыто до 18:30"
        card = await _card(organizer, tid)
        labels = [label for row in card.buttons for label, _ in row]
        assert FINISH not in labels and START not in labels
        assert HELD in (card.text or "") and reason in (card.text or ""), card.text
        refused = await app.services.tournaments.move_tournament(
            Actor(ORGANIZER, clock.moment), tid, Move.FINISH
        )
        assert not isinstance(refused, Tournament)

        clock.moment += timedelta(minutes=10)
        await draw_every_lot(app.uow_factory, tid, clock.moment)
        judges = [fake_telegram.user(FIRST_JUDGE, "Судья"), fake_telegram.user(CHIEF_JUDGE, "ГС")]
        for judge in judges:
            judge.send("/help")
            await judge.wait_for(containing("Что я умею"), TIMEOUT)
        finished = await _move_offered(app, organizer, tid, FINISH, "завершён")
        assert finished.state is TournamentState.FINISHED
        # The finished tournament's judges have nothing left to judge: their menus lose it.
        await fake_telegram.wait_idle()
        for judge in judges:
            menu = fake_telegram.commands(scope={"type": "chat", "chat_id": judge.id})
            assert "protocol" not in menu and "lot" not in menu and "help" in menu, menu
