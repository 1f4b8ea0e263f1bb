"""Who is told what on the way to and through the tournament day: the captain about his team's
members, a replaced no-show about his substitute (and the registration link remembers it)."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

from sqlalchemy import select

from bot.app import Application
from bot.db.models import OutboxRow
from bot.delivery.worker import BLOCKED
from domain.actor import Actor
from domain.outgoing import DeliveryStatus, OutgoingMessage
from domain.registration import Application as Entry
from domain.services.registration import Roster
from domain.services.tournaments import registration_link
from domain.tournament import TournamentState
from domain.users import User
from harness.fake_telegram import FakeTelegram
from harness.sandbox import running_bot, sandbox_settings
from harness.simulation.screens import register_player
from tests.e2e.lifecycle_screens import (
    ADMIN_ID,
    answer,
    containing,
    create_tournament,
    payload_in,
    press,
)
from tests.factories import NOW, ORGANIZER, seed_tournament

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

        await app.services.checkin.mark_no_show(Actor(ORGANIZER, NOW), absent.id)
        newcomer = Entry("Запасной", "Ворон", "Омск")
        await app.services.checkin.substitute(Actor(ORGANIZER, NOW), absent.id, newcomer=newcomer)
        told = await player.wait_for(containing("неявившегося"), TIMEOUT)
        assert "играет Запасной" in (told.text or "") and "Кубок Ворона" in (told.text or "")

        # The registration link, opened again, says so instead of asking for a nickname.
        player.send(f"/start {invite.payload}")
        again = await player.wait_for(None, TIMEOUT)
        assert "играет Запасной" in (again.text or "")
        assert "игровой ник" not in (again.text or "")


async def _statuses(app: Application, chat_id: int) -> list[tuple[DeliveryStatus, str | None]]:
    async with app.uow_factory() as uow:
        rows = await uow.session.execute(
            select(OutboxRow.status, OutboxRow.error)
            .where(OutboxRow.chat_id == chat_id)
            .order_by(OutboxRow.id)
        )
        return [(DeliveryStatus(status), error) for status, error in rows]


async def _settled(app: Application, chat_id: int, count: int) -> list[DeliveryStatus]:
    """Wait until `count` messages to the chat are settled; their statuses in order."""
    async with asyncio.timeout(TIMEOUT):
        while True:
            statuses = [status for status, _ in await _statuses(app, chat_id)]
            done = [
                s for s in statuses if s not in (DeliveryStatus.PENDING, DeliveryStatus.SENDING)
            ]
            if len(done) >= count:
                return statuses
            await asyncio.sleep(0.05)


async def _listed(app: Application, tournament_id: int) -> Roster:
    """The organizer's lists of the tournament."""
    return await app.services.registration.roster(Actor(ORGANIZER, NOW), tournament_id)


async def test_a_player_who_blocked_the_bot_gets_nothing_more_until_he_opens_it(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}"
    organizer = fake_telegram.user(ORGANIZER, "Организатор")
    organizer.send("/start")
    async with running_bot(sandbox_settings(fake_telegram, url)) as app:
        seeded = await seed_tournament(app.uow_factory, players=10, judges=1, channel=None)
        tid = seeded.tournament.id
        blocker = seeded.players[0]
        assert blocker.user_id is not None
        player = fake_telegram.user(blocker.user_id, "Блокировщик")
        player.send("/start")
        await player.wait_for(None, TIMEOUT)
        player.block_bot()

        def push(text: str) -> OutgoingMessage:
            return OutgoingMessage(chat_id=blocker.user_id or 0, text=text, tournament_id=tid)

        async with app.uow_factory() as uow:
            for number in range(3):
                await uow.outbox.add(push(f"Напоминание {number}"))
            await uow.commit()
        statuses = await _settled(app, blocker.user_id, 3)
        assert statuses == [DeliveryStatus.UNREACHABLE] * 3
        # One refusal from Telegram: the two later messages were not even tried.
        assert fake_telegram.stats.forbidden == 1
        errors = [error for _, error in await _statuses(app, blocker.user_id)]
        assert errors[1:] == [BLOCKED, BLOCKED]
        told = await organizer.wait_for(containing("Не получают сообщения бота"), TIMEOUT)
        # Named by his tournament nickname, not his Telegram name.
        assert f"/start): {blocker.nickname}." in (told.text or "")
        assert blocker.user_id in (await _listed(app, tid)).unreachable

        # He opens the bot again: the next message reaches him, and he is reachable in lists.
        player.send("/start")
        await player.wait_for(None, TIMEOUT)
        async with asyncio.timeout(TIMEOUT):
            while (
                blocker.user_id
                in (await app.services.registration.roster(Actor(ORGANIZER, NOW), tid)).unreachable
            ):
                await asyncio.sleep(0.05)
        async with app.uow_factory() as uow:
            await uow.outbox.add(push("Игра 2: стол 1, место 4"))
            await uow.commit()
        arrived = await player.wait_for(containing("Игра 2"), TIMEOUT)
        assert "место 4" in (arrived.text or "")
        assert not [m for m in player.messages if "Напоминание" in (m.text or "")]
        assert len([m for m in organizer.messages if "Не получают" in (m.text or "")]) == 1


async def test_the_captain_hears_when_a_waiting_list_place_completes_his_team(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}"
    settings = sandbox_settings(fake_telegram, url, admin_ids=frozenset({ADMIN_ID}))
    async with running_bot(settings) as app:
        admin = fake_telegram.user(ADMIN_ID, "Организатор")
        card = await create_tournament(fake_telegram, admin, capacity=10)
        card = await press(admin, card, "Открыть регистрацию", "регистрация открыта")
        captain, first, second, solo = (fake_telegram.user(710 + n, f"Игрок {n}") for n in range(4))
        mine = await register_player(captain, payload_in(card), "Капитан", "Ворон")
        await press(captain, mine, "Создать команду", "Название команды")
        view = await answer(captain, "Вороны", "Ссылка для игроков команды")
        link = payload_in(view)
        await register_player(first, link, "Первый", "Ворон", expect="команда: Вороны")
        await captain.wait_for(containing("Первый вступил в команду"), TIMEOUT)
        # The last places go to players without a team; the third member has to wait.
        async with app.uow_factory() as uow:
            (tournament,) = await uow.tournaments.of_person(ADMIN_ID)
            for number in range(7):
                await uow.users.save(User(800 + number, f"U{number}", None, None, "ru"))
            await uow.commit()
        for number in range(7):
            entry = Entry(f"Гость{number}", "Сова", "Томск")
            await app.services.registration.register(Actor(800 + number, NOW), tournament.id, entry)
        await register_player(solo, payload_in(card), "Одиночка", "Сова")
        await register_player(second, link, "Второй", "Ворон", expect="листе ожидания")
        waiting = await captain.wait_for(containing("Второй вступил в команду"), TIMEOUT)
        assert "полная" not in (waiting.text or "")

        mine = await answer(solo, f"/start {payload_in(card)}", "Статус: зарегистрирован")
        sure = await press(solo, mine, "Сняться с турнира", "Точно сняться")
        await press(solo, sure, "Да, сняться", "Вы сняты с турнира")
        await second.wait_for(containing("Освободилось место"), TIMEOUT)
        complete = await captain.wait_for(containing("получил место из листа ожидания"), TIMEOUT)
        assert (complete.text or "") == (
            "Второй получил место из листа ожидания — команда «Вороны» полная!"
        )
