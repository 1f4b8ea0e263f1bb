"""/start, /help and /lang through the real Dispatcher, polling the fake Telegram over HTTP."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.app import MENU_COMMANDS, Application
from domain.users import User
from harness.fake_telegram import ChatMessage, FakeTelegram
from harness.sandbox import running_bot, sandbox_settings
from tests.e2e.lifecycle_screens import ADMIN_ID, answer, containing, payload_in, press
from tests.factories import CHIEF_JUDGE, FIRST_JUDGE, ORGANIZER, seed_tournament


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


async def test_a_menu_is_set_only_when_it_would_change_even_across_a_restart(
    fake_telegram: FakeTelegram, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    settings = sandbox_settings(fake_telegram, f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}")
    menus = fake_telegram.stats.calls
    dana = fake_telegram.user(109, "Дана", language_code="ru")
    async with running_bot(settings):
        assert menus["setMyCommands"] == 2  # everyone's, in Russian and in English
        for _ in range(3):
            dana.send("/help")
            await dana.wait_for()
        assert menus["setMyCommands"] == 3  # her own menu, once
        dana.send("/lang")
        await dana.press(await dana.wait_for(), button_text="English")
        assert menus["setMyCommands"] == 4  # in her new language
        assert fake_telegram.commands(scope={"type": "chat", "chat_id": 109})[:2] == [
            "start",
            "help",
        ]
    async with running_bot(settings):
        dana.send("/help")
        assert "What I can do" in (await dana.wait_for()).text
        assert menus["setMyCommands"] == 4  # a restart sets no menu Telegram shows already


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


async def test_help_and_the_menu_follow_each_persons_roles_in_a_tournament(
    app: Application, fake_telegram: FakeTelegram
) -> None:
    """Player, table judge, chief judge, organizer: each reads his own sections of /help, and
    his own menu holds the commands of his roles."""
    seeded = await seed_tournament(app.uow_factory, players=10, judges=1)
    # Each role's section opens with its heading on a line of its own.
    headings = {"Игрок": "Игрок", "Судья": "Судья стола", "Главный": "Главный судья"}
    headings["Орг"] = "Организатор"
    cases = [
        (seeded.players[0].user_id, "Игрок", {"/me", "/protest"}, set(), {"protocol"}),
        (
            FIRST_JUDGE,
            "Судья",
            {"/protocol", "Шпаргалка протокола", "Ночь 1 (первый отстрел)", "Промахи", "Допы"},
            {"protocol"},
            {"lot", "rounds", "new"},
        ),
        (CHIEF_JUDGE, "Главный", {"/lot", "/audit"}, {"protocol", "lot", "audit"}, {"new"}),
        (ORGANIZER, "Орг", {"/new", "/rounds", "/swap"}, {"new", "rounds", "audit"}, {"lot"}),
    ]
    for user_id, role, phrases, in_menu, not_in_menu in cases:
        assert user_id is not None
        person = fake_telegram.user(user_id, role)
        person.send("/help")
        reply = await person.wait_for(lambda m: "Что я умею" in (m.text or ""))
        text = reply.text or ""
        assert all(phrase in text for phrase in phrases), (role, text)
        shown = {name for name, heading in headings.items() if f"\n{heading}\n" in text}
        assert shown == {role}, (role, text)
        assert "Как начать" not in text
        menu = set(fake_telegram.commands(scope={"type": "chat", "chat_id": user_id}))
        assert in_menu <= menu and not (not_in_menu & menu), (role, menu)


async def test_a_judge_accepting_his_invitation_gets_the_protocol_in_his_menu(
    admin_app: Application, fake_telegram: FakeTelegram, cup_card: ChatMessage
) -> None:
    judge = fake_telegram.user(950, "Ольга")
    judge.send("/help")
    await judge.wait_for(containing("Как начать"))
    assert "protocol" not in fake_telegram.commands(scope={"type": "chat", "chat_id": 950})
    admin = fake_telegram.user(ADMIN_ID, "Орг")
    invite = await press(admin, cup_card, "Пригласить судью стола", "судьи стола")
    welcome = await answer(judge, f"/start {payload_in(invite)}", "судья (ведущий) стола")
    assert "стола турнира «Кубок <Сибири>»" in (welcome.text or "")
    await fake_telegram.wait_idle()  # the menu is set after the welcome
    menu = fake_telegram.commands(scope={"type": "chat", "chat_id": 950})
    assert "protocol" in menu and "rounds" not in menu
    judge.send("/help")
    reply = await judge.wait_for(containing("Шпаргалка протокола"))
    assert "Как начать" not in (reply.text or "")


async def test_a_player_s_tournaments_does_not_offer_new_which_he_cannot_use(
    admin_app: Application, fake_telegram: FakeTelegram
) -> None:
    player = fake_telegram.user(951, "Игрок")
    reply = await answer(player, "/tournaments", "не организуете и не судите")
    assert "/new" not in (reply.text or "")
    admin = fake_telegram.user(ADMIN_ID, "Орг")
    offered = await answer(admin, "/tournaments", "нет турниров")
    assert "/new" in (offered.text or "")
