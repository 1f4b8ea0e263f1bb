"""A protest accepted by annulling the game, where the tournament's regulation allows it: the
game stops counting, the protester, the table judge and the channel are told, and the live
table is edited; under a preset (no annulment) the chief judge is not offered it."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from domain.actor import Actor
from domain.protests import AuditKind
from domain.regulation import PRESETS_DIR
from harness.fake_telegram import FakeTelegram
from harness.sandbox import running_bot, sandbox_settings
from tests.e2e.test_protests_accept import _started
from tests.e2e.test_standings_push import _confirm_red_win, _live_edits
from tests.factories import (
    CHANNEL,
    CHIEF_JUDGE,
    NOW,
    ORGANIZER,
    seed_tournament,
)


def _cup_allowing_annulment() -> str:
    regulation = json.loads((PRESETS_DIR / "black-raven-cup.json").read_text())
    regulation["protest_annulment_allowed"] = True
    return json.dumps(regulation)


async def test_the_chief_judge_annuls_the_game_and_it_stops_counting(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}"
    channel = fake_telegram.channel(CHANNEL, "Кубок Ворона")
    async with running_bot(sandbox_settings(fake_telegram, url)) as app:
        seeded = await seed_tournament(app.uow_factory)
        tid = seeded.tournament.id
        async with app.uow_factory() as uow:
            tournament = await uow.tournaments.get(tid)
            assert tournament is not None
            allowing = replace(tournament, regulation_json=_cup_allowing_annulment())
            await uow.tournaments.save(allowing)
            await uow.commit()
        preview = await app.services.rounds_seating.start_stage(
            Actor(ORGANIZER, NOW), tid, seed=3, swaps=20_000
        )
        game = preview.stage.rounds[0].games[0]
        assert game.judge_id is not None
        judge = await _started(fake_telegram, game.judge_id, "Судья")
        protester = await _started(fake_telegram, seeded.user_of(game.players[0]), "Игрок")
        latecomer = await _started(fake_telegram, seeded.user_of(game.players[1]), "Второй")
        chief = await _started(fake_telegram, CHIEF_JUDGE, "Главный судья")
        await app.services.rounds_publication.publish_round(Actor(ORGANIZER, NOW), tid, 1)
        await _confirm_red_win(judge, 1)
        live = await channel.wait_for(lambda m: "сыграно игр: 1" in (m.text or ""))

        offer = await protester.wait_for(lambda m: "Протест" in str(m.buttons))
        await protester.press(offer, button_text="Протест")
        await protester.wait_for(lambda m: "Напишите, в чём суть протеста" in (m.text or ""))
        protester.send("За столом был посторонний, игра сорвана")
        card = await chief.wait_for(lambda m: "Протест · Кубок Ворона" in (m.text or ""))
        await chief.press(card, button_text="Удовлетворить и аннулировать игру")
        await chief.wait_for(lambda m: "решение об аннулировании" in (m.text or ""))
        chief.send("Игра сорвана посторонним")
        await chief.wait_for(lambda m: "Игра аннулирована" in (m.text or ""))

        for person in (protester, judge):
            told = await person.wait_for(lambda m: "игра аннулирована" in (m.text or ""))
            assert "Игра сорвана посторонним" in (told.text or "")
        await channel.wait_for(lambda m: "стол 1: игра аннулирована" in (m.text or ""))
        edited = await channel.wait_for(lambda m: "сыграно игр: 0" in (m.text or ""))
        # Another player of the game presses his button, still inside the window: refused.
        late_offer = await latecomer.wait_for(lambda m: "Протест" in str(m.buttons))
        refused = await latecomer.press(late_offer, button_text="Протест")
        assert refused.show_alert and "Игра аннулирована" in (refused.text or "")
        latecomer.send("/protest")
        await latecomer.wait_for(lambda m: "нет игр" in (m.text or ""))
        assert edited.message_id == live.message_id
        assert _live_edits(fake_telegram, live.message_id) == 1

        standings = await app.services.standings.current_standings(tid)
        assert all(row.figures.games == 0 for row in standings.players)
        # The game stays in the record: its protocol and seats are kept.
        async with app.uow_factory() as uow:
            assert await uow.protocols.protocol(game.id) is not None
            kept = await uow.rounds.game(game.id)
        assert kept is not None and kept.game.players == game.players
        log = await app.services.protests_organizer.audit_log(Actor(ORGANIZER, NOW), tid)
        assert AuditKind.GAME_ANNULLED in {entry.kind for entry in log.entries}


async def test_under_a_preset_the_annulment_is_not_offered(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}"
    fake_telegram.channel(CHANNEL, "Кубок Ворона")
    async with running_bot(sandbox_settings(fake_telegram, url)) as app:
        seeded = await seed_tournament(app.uow_factory)
        preview = await app.services.rounds_seating.start_stage(
            Actor(ORGANIZER, NOW), seeded.tournament.id, seed=3, swaps=20_000
        )
        game = preview.stage.rounds[0].games[0]
        assert game.judge_id is not None
        judge = await _started(fake_telegram, game.judge_id, "Судья")
        protester = await _started(fake_telegram, seeded.user_of(game.players[0]), "Игрок")
        chief = await _started(fake_telegram, CHIEF_JUDGE, "Главный судья")
        await app.services.rounds_publication.publish_round(
            Actor(ORGANIZER, NOW), seeded.tournament.id, 1
        )
        await _confirm_red_win(judge, 1)
        offer = await protester.wait_for(lambda m: "Протест" in str(m.buttons))
        await protester.press(offer, button_text="Протест")
        await protester.wait_for(lambda m: "Напишите, в чём суть протеста" in (m.text or ""))
        protester.send("За столом был посторонний, игра сорвана")
        card = await chief.wait_for(lambda m: "Протест · Кубок Ворона" in (m.text or ""))
        labels = [text for row in card.buttons for text, _ in row]
        assert "Удовлетворить и аннулировать игру" not in labels
        assert "Удовлетворить и исправить протокол" in labels
