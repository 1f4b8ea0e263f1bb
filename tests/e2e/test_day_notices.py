"""Who is told what on the way to and through the tournament day: the captain about his team's
members, a replaced no-show about his substitute (and the registration link remembers it)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from bot.fake_telegram import FakeTelegram
from bot.sandbox import running_bot, sandbox_settings
from bot.simulation.screens import register_player
from domain.registration import Application
from domain.services.checkin import mark_no_show, substitute
from domain.services.tournaments import registration_link
from domain.tournament import TournamentState
from tests.e2e.lifecycle_screens import (
    ADMIN_ID,
    answer,
    containing,
    create_tournament,
    payload_in,
    press,
)
from tests.integration.test_rounds_setup import NOW, ORGANIZER, seed_tournament

TIMEOUT = 60.0


async def test_the_captain_hears_of_each_member_joining_and_leaving(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}"
    settings = sandbox_settings(fake_telegram, url, admin_ids=frozenset({ADMIN_ID}))
    async with running_bot(settings):
        admin = fake_telegram.user(ADMIN_ID, "Организатор")
        card = await create_tournament(fake_telegram, admin)
        card = await press(admin, card, "Открыть регистрацию", "регистрация открыта")
        captain, first, second = (fake_telegram.user(700 + n, f"Игрок {n}") for n in range(3))
        mine = await register_player(captain, payload_in(card), "Капитан", "Ворон")
        await press(captain, mine, "Создать команду", "Название команды")
        view = await answer(captain, "Вороны", "Ссылка для игроков команды")
        link = payload_in(view)

        await register_player(first, link, "Первый", "Ворон", expect="команда: Вороны")
        joined = await captain.wait_for(containing("вступил в команду"), TIMEOUT)
        assert "Первый вступил в команду «Вороны»" in (joined.text or "")
        assert "полная" not in (joined.text or "")
        await register_player(second, link, "Второй", "Ворон", expect="команда: Вороны")
        complete = await captain.wait_for(containing("команда полная"), TIMEOUT)
        assert "Второй" in (complete.text or "")

        mine = await answer(first, f"/start {payload_in(card)}", "Статус: зарегистрирован")
        sure = await press(first, mine, "Сняться с турнира", "Точно сняться")
        await press(first, sure, "Да, сняться", "Вы сняты с турнира")
        left = await captain.wait_for(containing("покинул команду"), TIMEOUT)
        assert "Первый покинул команду «Вороны»: в ней 2 из 3" in (left.text or "")


async def test_a_replaced_no_show_is_told_by_whom_and_the_link_remembers_it(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}"
    async with running_bot(sandbox_settings(fake_telegram, url)) as app:
        seeded = await seed_tournament(app.uow_factory, players=10, judges=1)
        async with app.uow_factory() as uow:
            closed = replace(
                seeded.tournament, state=TournamentState.REGISTRATION_CLOSED, current_stage=None
            )
            await uow.tournaments.save(closed)
            invite = await registration_link(uow, closed, NOW)
            await uow.commit()
        absent = seeded.players[3]
        assert absent.user_id is not None
        player = fake_telegram.user(absent.user_id, "Неявка")
        player.send("/start")
        await player.wait_for(None, TIMEOUT)

        await mark_no_show(app.uow_factory, absent.id, ORGANIZER, (), NOW)
        newcomer = Application("Запасной", "Ворон", "Омск")
        await substitute(app.uow_factory, absent.id, ORGANIZER, (), NOW, newcomer=newcomer)
        told = await player.wait_for(containing("неявившегося"), TIMEOUT)
        assert "играет Запасной" in (told.text or "") and "Кубок Ворона" in (told.text or "")

        # The registration link, opened again, says so instead of asking for a nickname.
        player.send(f"/start {invite.payload}")
        again = await player.wait_for(None, TIMEOUT)
        assert "играет Запасной" in (again.text or "")
        assert "игровой ник" not in (again.text or "")
