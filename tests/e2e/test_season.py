"""The season through the running bot and the fake Telegram: an admin creates a series, the
organizer attaches two tournaments to it by the card's buttons and makes them rated; the same
person plays both; /profile and /rating show him, a correction in the first tournament moves
his rating and the series' table; a merge of two accounts by buttons (and one refused because
both played in one tournament); a hidden profile."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.app import Application
from domain.registration import Participant, ParticipantStatus
from domain.rounds import RoundSeating
from domain.services.rating_sync import after_game as rating_after_game
from domain.standings_board import participant_key
from domain.tournament import Tournament, TournamentState
from domain.users import User
from harness.fake_telegram import ChatMessage, FakeTelegram, FakeUser
from harness.sandbox import running_bot, sandbox_settings
from tests.e2e.lifecycle_screens import ADMIN_ID, answer, containing, press
from tests.unit.protocol_builders import protocol

pytestmark = pytest.mark.e2e

PLAYERS = range(501, 511)
# The player the tests follow: seat 1 (a civilian) in every game.
RAVEN = PLAYERS[0]
OUTSIDER = 599
# Raven's second account: the same person under the same nickname.
TWIN = 777
HOSTILE = "<b>&amp;"


def _now() -> datetime:
    return datetime.now(UTC)


def _nickname(user_id: int) -> str:
    return f"Ворон {HOSTILE}" if user_id in (RAVEN, TWIN) else f"Игрок{user_id}"


@dataclass
class Cup:
    id: int
    keys: list[str]
    games: list[int]


@pytest.fixture
async def app(
    fake_telegram: FakeTelegram, database_url: str, engine: AsyncEngine
) -> AsyncIterator[Application]:
    """The bot on SQLite and on PostgreSQL; the tests' admin is the tournaments' organizer.
    With `engine` the database is a copy of the migrated template: the bot finds nothing to
    migrate (migrating PostgreSQL at its start took 4-12 s a test)."""
    settings = sandbox_settings(fake_telegram, database_url, admin_ids=frozenset({ADMIN_ID}))
    async with running_bot(settings) as application:
        yield application


async def add_cup(
    app: Application, title: str, starts_on: date, players: range | list[int] = PLAYERS
) -> Cup:
    """A running cup of the admin's with ten players at one table and two rounds (unplayed)."""
    async with app.uow_factory() as uow:
        for user_id in (ADMIN_ID, *players):
            if await uow.users.get(user_id) is None:
                await uow.users.save(User(user_id, f"U{user_id}", None, None, "ru"))
        tournament = await uow.tournaments.add(
            Tournament(
                id=0,
                title=title,
                regulation_id="black-raven-cup",
                state=TournamentState.RUNNING,
                timezone="Asia/Omsk",
                created_by=ADMIN_ID,
                created_at=_now(),
                starts_on=starts_on,
                ends_on=starts_on,
                current_stage="qualifying",
            )
        )
        ids = []
        for user_id in players:
            participant = await uow.participants.add(
                Participant(
                    id=0,
                    tournament_id=tournament.id,
                    user_id=user_id,
                    nickname=_nickname(user_id),
                    club="Ворон",
                    city="Омск",
                    status=ParticipantStatus.REGISTERED,
                    registered_at=_now(),
                )
            )
            ids.append(participant.id)
        seating = RoundSeating((tuple(ids),))
        stage = await uow.rounds.add_stage(
            tournament.id, "qualifying", 7, _now(), [(seating, (None,)), (seating, (None,))]
        )
        assert stage is not None
        await uow.commit()
    return Cup(
        tournament.id, [participant_key(i) for i in ids], [r.games[0].id for r in stage.rounds]
    )


async def play(app: Application, cup: Cup, game: int, winner: str) -> None:
    """Game `game` (0 or 1) of the cup confirmed with `winner` (seat 1 is a civilian: red),
    as the judge's confirmation stores it: the protocol and the rating's update together."""
    game_id = cup.games[game]
    async with app.uow_factory() as uow:
        await uow.protocols.advance_game(game_id, 0, _now() + timedelta(minutes=10))
        await uow.protocols.store(game_id, protocol(cup.keys, winner=winner), ADMIN_ID, _now())
        await rating_after_game(uow, cup.id, game_id)
        await uow.commit()


async def correct(app: Application, cup: Cup, game: int, winner: str) -> None:
    """The chief judge's correction of a confirmed game, as his confirmation stores it: the
    protocol anew, the ratings recomputed from that game on."""
    game_id = cup.games[game]
    async with app.uow_factory() as uow:
        await uow.protocols.store(game_id, protocol(cup.keys, winner=winner), ADMIN_ID, _now())
        await rating_after_game(uow, cup.id, game_id)
        await uow.commit()


async def _card(admin: FakeUser, title: str) -> ChatMessage:
    listed = await answer(admin, "/tournaments", expect="Ваши турниры")
    label = next(b for row in listed.buttons for b, _ in row if b.startswith(title))
    return await press(admin, listed, label, expect="Серия:")


async def in_series(admin: FakeUser, title: str, series: str) -> None:
    """The organizer attaches his tournament to the series and makes it rated, by the card."""
    card = await _card(admin, title)
    assert "Серия: нет · не рейтинговый" in (card.text or "")
    choice = await press(admin, card, "Серия турнира", expect="К какой серии")
    card = await press(admin, choice, series, expect="Серия: " + series)
    card = await press(admin, card, "Сделать рейтинговым", expect="· рейтинговый")
    assert f"Серия: {series} · рейтинговый" in (card.text or "")


async def season(app: Application, fake: FakeTelegram) -> tuple[FakeUser, Cup, Cup]:
    """The series «Сезон 2026» with two rated cups; Raven won game 1 of the first as red."""
    admin = fake.user(ADMIN_ID, "Админ", language_code="ru")
    created = await answer(admin, "/series Сезон 2026", expect="создана")
    await admin.wait_for(containing("Турниров: 0"))
    assert "Серия «Сезон 2026» создана." in (created.text or "")
    first = await add_cup(app, "Кубок Весны", date(2026, 3, 1))
    second = await add_cup(app, "Кубок Осени", date(2026, 9, 1))
    await in_series(admin, "Кубок Весны", "Сезон 2026")
    await in_series(admin, "Кубок Осени", "Сезон 2026")
    await play(app, first, 0, "red")
    await play(app, second, 0, "red")
    return admin, first, second


def _rating_of(text: str) -> int:
    line = next(line for line in text.splitlines() if line.startswith("Рейтинг:"))
    return int(line.split()[1].strip("<b>/"))


async def test_the_same_person_across_two_tournaments_and_a_correction(
    app: Application, fake_telegram: FakeTelegram
) -> None:
    _, first, _ = await season(app, fake_telegram)
    raven = fake_telegram.user(RAVEN, "Ворон", language_code="ru")
    shown = await answer(raven, "/profile", expect="Турниры")
    text = shown.text or ""
    assert text.startswith("Ворон &lt;b&gt;&amp;amp;") is False  # Telegram shows it unescaped
    assert f"Ворон {HOSTILE}" in text
    assert "Кубок Весны" in text and "Кубок Осени" in text
    assert "мирный: игр 2, побед 2 (100%)" in text
    before = _rating_of(text)
    assert before > 1000
    table = await answer(raven, "/rating", expect="Рейтинг серии")
    mine = next(line for line in (table.text or "").splitlines() if "▶" in line)
    assert f"Ворон {HOSTILE}"[:15] in mine
    # The chief judge corrects game 1 of the first cup: black won it after all.
    await correct(app, first, 0, "black")
    again = await answer(raven, "/profile", expect="Турниры")
    after = _rating_of(again.text or "")
    assert after < before
    table_again = await answer(raven, "/rating", expect="Рейтинг серии")
    assert table_again.text != table.text
    assert "Ваше место:" in (table_again.text or "")
    # The picture of the table and of the history.
    await raven.press(table_again, button_text="Картинкой")
    photo = (await raven.wait_for(lambda m: m.photo is not None)).photo
    assert photo is not None and (photo.content or b"").startswith(b"\x89PNG")
    await fake_telegram.wait_idle()
    await raven.press(again, button_text="История рейтинга картинкой")
    picture = (await raven.wait_for(lambda m: m.photo is not None)).photo
    assert picture is not None and (picture.content or b"").startswith(b"\x89PNG")
    me = await answer(raven, "/me", expect="Рейтинг:")
    assert f"Рейтинг: {after}" in (me.text or "")


async def test_a_merge_by_buttons_and_one_refused_for_an_overlap(
    app: Application, fake_telegram: FakeTelegram
) -> None:
    admin, first, _ = await season(app, fake_telegram)
    # Raven's second account played a cup of its own under the same nickname.
    third = await add_cup(app, "Кубок Зимы", date(2026, 12, 1), [TWIN, *PLAYERS[1:]])
    assert third.id
    listed = await answer(admin, "/merge Ворон", expect="остаётся")
    assert len([b for row in listed.buttons for b, _ in row]) == 2
    keep_label = listed.buttons[0][0][0]
    chosen = await press(admin, listed, keep_label, expect="присоединить")
    preview = await press(admin, chosen, chosen.buttons[0][0][0], expect="Объединение")
    assert "Остаётся" in (preview.text or "") and "Присоединяется" in (preview.text or "")
    done = await press(admin, preview, "✅ Объединить", expect="Готово")
    assert "рейтинги пересчитаны" in (done.text or "")
    # Two accounts that both played «Кубок Весны» cannot be merged.
    refused = await answer(admin, "/merge Игрок50", expect="остаётся")
    chosen = await press(admin, refused, "Игрок502 (Ворон)", expect="присоединить")
    preview = await press(admin, chosen, "Игрок503 (Ворон)", expect="Объединение")
    assert "Объединить нельзя" in (preview.text or "") and "Кубок Весны" in (preview.text or "")
    assert [b for row in preview.buttons for b, _ in row] == ["Отмена"]
    cancelled = await press(admin, preview, "Отмена", expect="отменено")
    assert cancelled.buttons == ()
    assert first.id


async def test_a_hidden_profile_shows_only_its_nickname(
    app: Application, fake_telegram: FakeTelegram
) -> None:
    await season(app, fake_telegram)
    raven = fake_telegram.user(RAVEN, "Ворон", language_code="ru")
    own = await answer(raven, "/profile", expect="Турниры")
    hidden = await press(raven, own, "Скрыть мой профиль", expect="Ваш профиль скрыт")
    # He still sees his own profile whole, and the button that shows it again.
    assert "Турниры" in (hidden.text or "")
    assert "Открыть мой профиль" in [b for row in hidden.buttons for b, _ in row]
    outsider = fake_telegram.user(OUTSIDER, "Гость", language_code="ru")
    found = await answer(outsider, "/profile Ворон", expect="Игроки по запросу")
    shown = await press(outsider, found, found.buttons[0][0][0], expect="скрыл")
    assert (shown.text or "").splitlines() == [f"Ворон {HOSTILE}", "Игрок скрыл свой профиль."]
    assert shown.buttons == ()
    table = await answer(outsider, "/rating", expect="Рейтинг серии")
    assert "Вас в этой серии пока нет." in (table.text or "")
    nothing = await answer(outsider, "/profile", expect="Профиля пока нет")
    assert "/profile ник" in (nothing.text or "")
    unknown = await answer(outsider, "/profile Никто <b>", expect="не нашлось")
    assert "Игроков с ником «Никто <b>» не нашлось." in (unknown.text or "")
