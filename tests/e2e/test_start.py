"""/start, /help and /lang through the real Dispatcher, polling the fake Telegram over HTTP."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.app import MENU_COMMANDS, Application
from bot.fake_telegram import FakeTelegram
from bot.sandbox import running_bot, sandbox_settings
from domain.users import User


@pytest.fixture
async def app(fake_telegram: FakeTelegram, tmp_path) -> AsyncIterator[Application]:  # type: ignore[no-untyped-def]
    url = f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}"
    async with running_bot(sandbox_settings(fake_telegram, url)) as application:
        yield application


async def test_start_greets_a_russian_speaker_in_russian(
    app: Application, fake_telegram: FakeTelegram
) -> None:
    anna = fake_telegram.user(101, "Анна <script>", language_code="ru")
    anna.send("/start")
    reply = await anna.wait_for()
    assert "Привет, Анна <script>!" in reply.text
    async with app.uow_factory() as uow:
        assert await uow.users.get(101) == User(101, "Анна <script>", None, None, "ru")


async def test_start_with_an_unknown_link_says_it_is_invalid(
    app: Application, fake_telegram: FakeTelegram
) -> None:
    anna = fake_telegram.user(102, "Анна")
    anna.send("/start reg-doesnotexist")
    reply = await anna.wait_for()
    assert "ссылка недействительна" in reply.text


async def test_help_tells_a_newcomer_how_to_start_and_his_id(
    app: Application, fake_telegram: FakeTelegram
) -> None:
    anna = fake_telegram.user(103, "Анна")
    anna.send("/help")
    reply = await anna.wait_for()
    for command in ("/help", "/lang", "/organizer"):
        assert command in reply.text
    assert "ссылку регистрации" in reply.text and "Ваш Telegram id: 103" in reply.text
    # No role yet: his own menu is everyone's.
    menu = fake_telegram.commands(scope={"type": "chat", "chat_id": 103})
    assert menu == list(MENU_COMMANDS)


async def test_a_non_admin_creating_a_tournament_is_told_how_to_become_an_organizer(
    app: Application, fake_telegram: FakeTelegram
) -> None:
    oleg = fake_telegram.user(107, "Олег")
    oleg.send("/new")
    reply = await oleg.wait_for()
    assert "/organizer" in reply.text and "107" in reply.text
    assert "Новый турнир" not in reply.text


async def test_an_admin_gets_his_commands_in_help_and_in_his_menu(
    fake_telegram: FakeTelegram, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    url = f"sqlite+aiosqlite:///{tmp_path / 'admin.sqlite3'}"
    async with running_bot(sandbox_settings(fake_telegram, url, admin_ids=[900])):
        admin = fake_telegram.user(900, "Админ")
        admin.send("/help")
        reply = await admin.wait_for()
        assert "Администратор" in reply.text and "/organizer" in reply.text
        assert "Как начать" not in reply.text
        menu = fake_telegram.commands(scope={"type": "chat", "chat_id": 900})
        assert {"organizer", "new", "tournaments"} <= set(menu)
        assert "protocol" not in menu


async def test_lang_switches_every_later_answer_to_english(
    app: Application, fake_telegram: FakeTelegram
) -> None:
    anna = fake_telegram.user(104, "Анна", language_code="ru")
    anna.send("/lang")
    question = await anna.wait_for()
    answer = await anna.press(question, button_text="English")
    assert answer.text == "Done: the bot speaks English."
    assert (await anna.wait_for()).text == "Done: the bot speaks English."
    anna.send("/help")
    assert "What I can do" in (await anna.wait_for()).text


async def test_english_back_to_russian(app: Application, fake_telegram: FakeTelegram) -> None:
    bob = fake_telegram.user(105, "Bob", language_code="en")
    bob.send("/lang")
    question = await bob.wait_for()
    await bob.press(question, button_text="English")
    await bob.wait_for()
    bob.send("/lang")
    question = await bob.wait_for()
    await bob.press(question, button_text="Русский")
    assert "по-русски" in (await bob.wait_for()).text


async def test_the_command_menu_is_set_in_both_languages(
    app: Application, fake_telegram: FakeTelegram
) -> None:
    for language_code in ("", "en"):
        menu = fake_telegram.commands(language_code=language_code)
        assert menu[:3] == ["start", "help", "lang"]
        assert menu == list(MENU_COMMANDS)


async def test_a_failing_update_gets_an_apology_in_the_users_language(
    app: Application, fake_telegram: FakeTelegram
) -> None:
    # The database file vanishes under the running bot: every query now fails.
    await app.engine.dispose()
    database = app.settings.sqlite_path
    assert database is not None
    files = list(database.parent.glob(database.name + "*"))
    for file in files:
        file.rename(file.with_name("gone-" + file.name))
    bob = fake_telegram.user(106, "Bob", language_code="en")
    bob.send("/start")
    reply = await bob.wait_for()
    assert reply.text.startswith("Something went wrong")
    assert "Traceback" not in reply.text


async def test_a_bot_whose_database_vanished_stops_at_once_saying_so(
    fake_telegram: FakeTelegram, tmp_path, caplog: pytest.LogCaptureFixture
) -> None:  # type: ignore[no-untyped-def]
    database = tmp_path / "bot.sqlite3"
    async with running_bot(sandbox_settings(fake_telegram, f"sqlite+aiosqlite:///{database}")):
        anna = fake_telegram.user(107, "Анна")
        anna.send("/start")
        await anna.wait_for()
        for file in tmp_path.glob("bot.sqlite3*"):
            file.unlink()
    # The stop did not wait for the database (its pool waits two minutes for a connection):
    # one line says why, nothing failed on the way, and no empty database was made instead.
    lines = [
        r.getMessage() for r in caplog.records if r.name == "bot.app" and r.levelname == "ERROR"
    ]
    assert lines == [
        f"stopping without the database: the SQLite database {database} is gone; the "
        "messages in flight are settled by the next start"
    ]
    assert not [r for r in caplog.records if r.exc_info]
    assert not database.exists()


async def test_an_english_telegram_client_is_greeted_in_english(
    app: Application, fake_telegram: FakeTelegram
) -> None:
    bob = fake_telegram.user(107, "Bob", language_code="en-GB")
    bob.send("/start")
    assert (await bob.wait_for()).text.startswith("Hello, Bob!")
    carla = fake_telegram.user(108, "Carla", language_code="de")
    carla.send("/start")
    assert (await carla.wait_for()).text.startswith("Привет, Carla!")
