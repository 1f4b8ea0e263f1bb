"""Standings through the running bot and the fake Telegram: the channel's live message and
closing posts, /standings with its picture and CSV, and /me, in Russian and English."""

from __future__ import annotations

import asyncio
import csv
import io
import multiprocessing
from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from bot.app import Application
from bot.rendering.pictures import StandingsPainter
from domain.outgoing import DeliveryStatus
from domain.registration import Participant, ParticipantStatus
from domain.rounds import RoundSeating
from domain.services.standings import played_games
from domain.services.standings_posts import publish_closing_standings, publish_live_standings
from domain.standings_board import RoundClosed, participant_key
from domain.tournament import Tournament, TournamentState
from domain.users import User
from harness.fake_telegram import WAIT_LIMIT, ChatMessage, FakeTelegram
from harness.sandbox import running_bot, sandbox_settings
from tests.unit.protocol_builders import protocol

ORGANIZER = 1
CHANNEL = -100_900
PLAYERS = range(301, 311)
OUTSIDER = 399
HOSTILE = "<b>&amp;"


def _now() -> datetime:
    # Read when used: a time taken at import goes stale when the suite runs for long.
    return datetime.now(UTC)


def _nickname(user_id: int) -> str:
    return f"Ворон {HOSTILE}" if user_id == PLAYERS[0] else f"Игрок{user_id}"


@pytest.fixture
async def app(fake_telegram: FakeTelegram, migrated_sqlite_url: str) -> AsyncIterator[Application]:
    async with running_bot(sandbox_settings(fake_telegram, migrated_sqlite_url)) as application:
        yield application


async def _running_cup(app: Application, fake: FakeTelegram) -> tuple[int, list[str], list[int]]:
    """A running cup with its channel, ten players and two rounds at one table (not played)."""
    fake.channel(CHANNEL, "Кубок")
    async with app.uow_factory() as uow:
        for user_id in (ORGANIZER, *PLAYERS):
            locale = "en" if user_id == PLAYERS[1] else "ru"
            await uow.users.save(User(user_id, f"U{user_id}", None, None, locale))
        tournament = await uow.tournaments.add(
            Tournament(
                id=0,
                title="Кубок Ворона",
                regulation_id="black-raven-cup",
                state=TournamentState.RUNNING,
                timezone="Asia/Omsk",
                created_by=ORGANIZER,
                created_at=_now(),
                channel_id=CHANNEL,
                current_stage="qualifying",
            )
        )
        ids = []
        for user_id in PLAYERS:
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
    games = [r.games[0].id for r in stage.rounds]
    return tournament.id, [participant_key(i) for i in ids], games


async def _confirm(
    app: Application, tournament_id: int, game_id: int, keys: list[str], winner: str
) -> None:
    """What the judge's confirmation does for the standings: the protocol, then the push."""
    async with app.uow_factory() as uow:
        assert await uow.protocols.advance_game(game_id, 0, _now() + timedelta(minutes=10))
        await uow.protocols.store(game_id, protocol(keys, winner=winner), ORGANIZER, _now())
        tournament = await uow.tournaments.get(tournament_id)
        assert tournament is not None
        await publish_live_standings(
            uow,
            tournament_id,
            await played_games(uow, tournament),
            protocol_key=f"game:{game_id}",
            now=_now(),
        )
        await uow.commit()


async def _settled(app: Application) -> None:
    async with asyncio.timeout(WAIT_LIMIT):
        while True:
            async with app.uow_factory() as uow:
                counts = await uow.outbox.status_counts()
            if not counts.get(DeliveryStatus.PENDING) and not counts.get(DeliveryStatus.SENDING):
                assert set(counts) <= {DeliveryStatus.SENT}
                return
            await asyncio.sleep(0.05)


async def _close_round(app: Application, tournament_id: int, number: int) -> None:
    """Publishes the closing standings of qualifying round `number`, as the round's last
    confirmation does."""
    async with app.uow_factory() as uow:
        tournament = await uow.tournaments.get(tournament_id)
        assert tournament is not None
        await publish_closing_standings(
            uow,
            tournament_id,
            await played_games(uow, tournament),
            None,
            RoundClosed("qualifying", number),
            now=_now(),
        )
        await uow.commit()


async def test_the_channel_keeps_one_pinned_live_table_and_gets_a_post_closing_the_round(
    app: Application, fake_telegram: FakeTelegram
) -> None:
    tournament_id, keys, games = await _running_cup(app, fake_telegram)
    await _confirm(app, tournament_id, games[0], keys, "red")
    await _settled(app)
    (live,) = fake_telegram.messages(CHANNEL)
    assert live.pinned and not live.edited
    assert "сыграно игр: 1" in (live.text or "")
    assert f"Ворон {HOSTILE}" in (live.text or "")
    await _confirm(app, tournament_id, games[1], keys, "black")
    await _settled(app)
    (live,) = fake_telegram.messages(CHANNEL)
    assert live.pinned and live.edited
    assert "сыграно игр: 2" in (live.text or "")
    # Every player won once: 2 points each, all provisional while the window is open.
    assert "2*" in (live.text or "")
    await _close_round(app, tournament_id, 2)
    await _settled(app)
    live_again, picture, table = fake_telegram.messages(CHANNEL)
    assert live_again.message_id == live.message_id
    assert picture.photo is not None and not picture.pinned
    assert "тур 2 завершён" in (picture.text or "")
    assert (table.text or "").startswith("Кубок Ворона: тур 2 завершён")


async def _answers(user, count: int) -> list[ChatMessage]:  # type: ignore[no-untyped-def]
    return [await user.wait_for() for _ in range(count)]


async def test_standings_in_a_private_chat_in_russian_with_picture_and_csv(
    app: Application, fake_telegram: FakeTelegram
) -> None:
    tournament_id, keys, games = await _running_cup(app, fake_telegram)
    await _confirm(app, tournament_id, games[0], keys, "red")
    player = fake_telegram.user(PLAYERS[2], "Игрок", language_code="ru")
    player.send("/standings")
    (table,) = await _answers(player, 1)
    assert (table.text or "").startswith("Турнирная таблица: Кубок Ворона")
    assert f"Ворон {HOSTILE}" in (table.text or "")
    await player.press(table, button_text="Для Excel (CSV, «;»)")
    document = (await player.wait_for(lambda m: m.document is not None)).document
    assert document is not None and document.content is not None
    rows = list(csv.reader(io.StringIO(document.content.decode("utf-8-sig")), delimiter=";"))
    assert len(rows) == 11 and rows[0][2] == "Ник или команда"
    assert f"Ворон {HOSTILE}" in {row[2] for row in rows}
    await fake_telegram.wait_idle()  # the keyboard is back once the file is out
    await player.press(table, button_text="Картинкой")
    photo = (await player.wait_for(lambda m: m.photo is not None)).photo
    assert photo is not None and (photo.content or b"").startswith(b"\x89PNG")


async def test_a_bot_s_own_picture_worker_starts_with_a_picture_and_stops_with_the_bot(
    fake_telegram: FakeTelegram, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    # As `mafiatour run` builds it: a painter with a worker of its own (the other tests' bots
    # share the test process's worker).
    def workers() -> set[int | None]:
        return {child.pid for child in multiprocessing.active_children()}

    before = workers()
    url = f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}"
    settings = sandbox_settings(fake_telegram, url)
    async with running_bot(settings, pictures=StandingsPainter()) as app:
        tournament_id, keys, games = await _running_cup(app, fake_telegram)
        await _confirm(app, tournament_id, games[0], keys, "red")
        assert workers() == before
        player = fake_telegram.user(PLAYERS[2], "Игрок", language_code="ru")
        player.send("/standings")
        (table,) = await _answers(player, 1)
        await player.press(table, button_text="Картинкой")
        photo = (await player.wait_for(lambda m: m.photo is not None)).photo
        assert photo is not None and (photo.content or b"").startswith(b"\x89PNG")
        assert len(workers() - before) == 1
    assert workers() == before


async def test_standings_and_me_answer_in_english(
    app: Application, fake_telegram: FakeTelegram
) -> None:
    tournament_id, keys, games = await _running_cup(app, fake_telegram)
    await _confirm(app, tournament_id, games[0], keys, "red")
    await _confirm(app, tournament_id, games[1], keys, "black")
    # PLAYERS[1] chose English; he sits at seat 2: a civilian, won game 1, lost game 2.
    bob = fake_telegram.user(PLAYERS[1], "Bob", language_code="en")
    bob.send("/standings")
    (table,) = await _answers(bob, 1)
    assert (table.text or "").startswith("Standings: Кубок Ворона")
    buttons = [b for row in table.buttons for b, _ in row]
    assert buttons == ["As a picture", "CSV file (comma-separated)"]
    bob.send("/me")
    (card,) = await _answers(bob, 1)
    text = card.text or ""
    assert text.startswith("Игрок302 — Кубок Ворона")
    assert "points: 2 · games: 2 · wins: 1" in text
    lines = text.splitlines()
    start = next(index for index, line in enumerate(lines) if line.startswith("Rnd"))
    rows = [line.split() for line in lines[start : start + 3]]
    assert rows == [
        ["Rnd", "T", "S", "Role", "±", "Win", "BM", "Ext", "Pen", "Total"],
        ["1", "1", "2", "civilian", "+", "2", "0", "0", "0", "2*"],
        ["2", "1", "2", "civilian", "−", "0", "0", "0", "0", "0*"],
    ]


async def test_me_in_russian_and_people_outside_any_tournament(
    app: Application, fake_telegram: FakeTelegram
) -> None:
    tournament_id, keys, games = await _running_cup(app, fake_telegram)
    await _confirm(app, tournament_id, games[0], keys, "red")
    anna = fake_telegram.user(PLAYERS[0], "Анна", language_code="ru")
    anna.send("/me")
    (card,) = await _answers(anna, 1)
    assert (card.text or "").startswith(f"Ворон {HOSTILE} — Кубок Ворона")
    # Red won: the sheriff is first by his win as sheriff, the civilians share place 2.
    assert "Место: 2= · баллы: 2 · игр: 1 · побед: 1" in (card.text or "")
    assert "1 1 1 мирный + 2 0 0 0 2*" in " ".join((card.text or "").split())
    outsider = fake_telegram.user(OUTSIDER, "Гость", language_code="ru")
    outsider.send("/me")
    assert "не играете ни в одном турнире" in ((await outsider.wait_for()).text or "")
    outsider.send("/standings")
    assert "не участвуете ни в одном турнире" in ((await outsider.wait_for()).text or "")


async def test_a_long_table_comes_as_an_album_of_phone_sized_pictures(
    app: Application, fake_telegram: FakeTelegram
) -> None:
    from PIL import Image

    from tests.factories import FIRST_PLAYER, seed_tournament

    await seed_tournament(app.uow_factory, players=30, channel=None)
    player = fake_telegram.user(FIRST_PLAYER, "Игрок")
    player.send("/standings")
    table = await player.wait_for(lambda m: "Картинкой" in str(m.buttons))
    await player.press(table, button_text="Картинкой")
    await player.wait_for(lambda m: m.photo is not None)
    await fake_telegram.wait_idle(timeout=60)
    photos = [m.photo for m in player.messages if m.photo is not None]
    # 30 players, 15 rows a picture: two pictures, none taller than Telegram keeps sharp.
    assert len(photos) == 2
    for photo in photos:
        image = Image.open(io.BytesIO(photo.content or b""))
        assert image.width == 720 and image.height <= 1280


async def test_an_english_tournaments_closing_posts_are_in_english(
    app: Application, fake_telegram: FakeTelegram
) -> None:
    tournament_id, keys, games = await _running_cup(app, fake_telegram)
    async with app.uow_factory() as uow:
        stored = await uow.tournaments.get(tournament_id)
        assert stored is not None
        await uow.tournaments.save(replace(stored, locale="en"))
        await uow.commit()
    await _confirm(app, tournament_id, games[0], keys, "red")
    await _close_round(app, tournament_id, 1)
    await _settled(app)
    live, picture, table = fake_telegram.messages(CHANNEL)
    assert "games played: 1" in (live.text or "")
    assert "Кубок Ворона: round 1 closed" in (picture.text or "") and picture.photo is not None
    assert (table.text or "").startswith("Кубок Ворона: round 1 closed (Qualifying)")
    assert "тур" not in (table.text or "") and "Игроки" not in (table.text or "")
