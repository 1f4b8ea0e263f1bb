"""The Mini App's API on the real bot's web application, with launch data the fake Telegram
signs as Telegram does: forged, foreign and expired data are refused, a reload resumes, and a
game run live gives the protocol, standings and channel post the inline screen gives."""

from __future__ import annotations

import re
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import parse_qs

import aiohttp
import pytest

from bot.app import Application
from bot.web import serving
from domain.actor import Actor
from domain.cards import Side
from domain.game_log import Foul, Nominate, Proceed
from domain.regulation import load_preset
from harness.fake_telegram import FakeTelegram
from harness.fake_telegram.people import FakeChannel, FakeUser
from harness.fake_telegram.webapp import init_data
from harness.sandbox import running_bot, sandbox_settings
from harness.simulation.games import GamePlan
from harness.simulation.live_game import LiveGameClient, live_actions
from harness.simulation.roles import Pace, called, fill_protocol, open_protocol
from tests.e2e.lifecycle_screens import ADMIN_ID
from tests.e2e.test_protocol import published_table
from tests.factories import CHANNEL, CHIEF_JUDGE, NOW, ORGANIZER, Seeded, seed_tournament
from tests.operations import free_port

CUP = load_preset("black-raven-cup")
# Don 10, sheriff 7, mafia 8 and 9; two fouls to seat 2; seat 1 killed on night 1 names 8 9
# 10; seat 3 gets 0.3 extra points; red wins.
PLAN = GamePlan(
    don=10,
    sheriff=7,
    mafia=(8, 9),
    fouls=((2, 2),),
    disqualified=(),
    first_kill=1,
    night=1,
    best_move=(8, 9, 10),
    extra_steps=((3, 3),),
    winner=Side.RED,
)


@dataclass
class Tables:
    """Round 1 published: two tables, each with its judge, and the web application's port."""

    app: Application
    fake: FakeTelegram
    seeded: Seeded
    games: tuple[int, int]
    judges: tuple[FakeUser, FakeUser]
    players: tuple[tuple[int, ...], tuple[int, ...]]
    channel: FakeChannel
    base_url: str


@pytest.fixture
async def tables(fake_telegram: FakeTelegram, migrated_sqlite_url: str) -> AsyncIterator[Tables]:
    url = migrated_sqlite_url
    channel = fake_telegram.channel(CHANNEL, "Кубок Ворона")
    port = free_port()
    settings = sandbox_settings(
        fake_telegram,
        url,
        web_host="127.0.0.1",
        web_port=port,
        web_base_url=f"http://127.0.0.1:{port}",
        admin_ids=frozenset({ADMIN_ID}),
    )
    async with running_bot(settings) as app, serving(app):
        seeded = await seed_tournament(app.uow_factory)
        preview = await app.services.rounds_seating.start_stage(
            Actor(ORGANIZER, NOW), seeded.tournament.id, seed=3, swaps=20_000
        )
        games = preview.stage.rounds[0].games[:2]
        judges = []
        for game in games:
            assert game.judge_id is not None
            judge = fake_telegram.user(game.judge_id, f"Судья {game.table}")
            judge.send("/start")
            await judge.wait_for()
            judges.append(judge)
        await app.services.rounds_publication.publish_round(
            Actor(ORGANIZER, NOW), seeded.tournament.id, 1
        )
        yield Tables(
            app,
            fake_telegram,
            seeded,
            (games[0].id, games[1].id),
            (judges[0], judges[1]),
            (games[0].players, games[1].players),
            channel,
            f"http://127.0.0.1:{port}",
        )


async def _status(tables: Tables, game_id: int | str, data: str, method: str = "GET") -> int:
    url = f"{tables.base_url}/app/api/games/{game_id}" + ("/actions" if method == "POST" else "")
    body = {"version": 0, "action": {"kind": "next"}} if method == "POST" else None
    headers = {"Authorization": f"tma {data}"} if data else {}
    async with (
        aiohttp.ClientSession() as http,
        http.request(method, url, json=body, headers=headers) as response,
    ):
        return response.status


async def test_forged_foreign_and_expired_launch_data_are_refused_and_change_nothing(
    tables: Tables,
) -> None:
    game = tables.games[0]
    judge = tables.judges[0]
    genuine = judge.web_app_data()
    user = {"id": judge.id, "is_bot": False, "first_name": judge.first_name}
    foreign = init_data("654321:OTHER-BOT-TOKEN", user, int(time.time()), "AAEx")
    expired = judge.web_app_data(auth_date=time.time() - 2 * 24 * 3600)
    # Another person's id in the data, the signature left as it was.
    forged = re.sub(r"%22id%22%3A\d+", "%22id%22%3A1", genuine)
    assert forged != genuine
    for data in ("", "garbage", foreign, expired, forged):
        assert await _status(tables, game, data, "POST") == 401
        assert await _status(tables, game, data) == 401
    client = LiveGameClient(tables.base_url, game, genuine)
    status, view = await client.get()
    assert status == 200 and view["version"] == 0 and view["log"] == []
    # A player of the table is not its judge.
    player = tables.fake.user(tables.seeded.user_of(tables.players[0][0]), "Игрок")
    stranger = LiveGameClient(tables.base_url, game, player.web_app_data())
    status, refused = await stranger.get()
    assert status == 403 and "судья стола" in refused["message"]
    await client.close()
    await stranger.close()
    # A game id past the database's range or in other digits never reaches it.
    for game_id in ("9" * 30, "٣", "0"):
        assert await _status(tables, game_id, genuine) == 400


async def test_a_reload_or_another_device_resumes_where_the_game_was(tables: Tables) -> None:
    game, judge = tables.games[0], tables.judges[0]
    phone = LiveGameClient(tables.base_url, game, judge.web_app_data())
    await phone.get()
    for action in (Proceed(), Foul(4), Nominate(1, 8), Proceed()):
        status, view = await phone.act(action)
        assert status == 200, view
    assert view["phase"] == "speeches" and view["speaker"] == 2
    # The app closed and opened on a tablet: the same game, the same version.
    tablet = LiveGameClient(tables.base_url, game, judge.web_app_data())
    status, again = await tablet.get()
    assert status == 200
    assert {k: again[k] for k in ("version", "phase", "speaker", "nominations", "seats")} == {
        k: view[k] for k in ("version", "phase", "speaker", "nominations", "seats")
    }
    assert [entry["kind"] for entry in again["log"]] == ["next", "foul", "nominate", "next"]
    # The tablet acts; the phone, one version behind, is shown the fresh game, not applied.
    status, _ = await tablet.act(Proceed())
    assert status == 200
    status, stale = await phone.act(Proceed())
    assert status == 409 and stale["stale"] and stale["speaker"] == 3
    # A refused action says why and changes nothing.
    status, refused = await phone.act(Nominate(9, 5))
    assert status == 422 and "выставляет только говорящий" in refused["refused"]
    assert refused["version"] == stale["version"]
    # Undo drops the last action.
    status, undone = await phone.undo()
    assert status == 200 and undone["speaker"] == 2
    await phone.close()
    await tablet.close()


async def test_an_admin_runs_and_confirms_any_tables_game_as_a_chief_judge_would(
    tables: Tables,
) -> None:
    # The bot's admin (ADMIN_IDS) is neither on the tournament's staff nor the table's judge.
    admin = tables.fake.user(ADMIN_ID, "Админ")
    client = LiveGameClient(tables.base_url, tables.games[1], admin.web_app_data())
    status, view = await client.get()
    assert status == 200 and view["version"] == 0
    view = await client.play(live_actions(PLAN, CUP))
    assert view["confirmed"] and view["notice"] == "Протокол подтверждён."
    await client.close()


def _post_of(tables: Tables, table: int) -> str:
    post = next(
        m.text or "" for m in tables.channel.messages if f"стол {table}: победа" in (m.text or "")
    )
    # The same game at another table: the seats' nicknames and the table number differ.
    players = tables.players[table - 1]
    for seat, player in enumerate(players, start=1):
        post = post.replace(tables.seeded.nickname(player), f"<seat {seat}>")
    return post.replace(f"стол {table}", "стол N")


async def test_the_judges_round_message_opens_his_game_in_the_mini_app(tables: Tables) -> None:
    for game, judge in zip(tables.games, tables.judges, strict=True):
        listing = await called(judge)
        # "Run the game" on top, the protocol screen (the fallback) below.
        assert [label for row in listing.message.buttons for label, _ in row] == [
            "🎲 Вести игру",
            "Открыть протокол",
        ]
        address = judge.open_web_app(listing.message, "🎲 Вести игру")
        assert address.split("#", 1)[0] == f"{tables.base_url}/app/game/{game}"
        client = LiveGameClient.launched(address)
        status, view = await client.get()
        assert status == 200 and view["version"] == 0
        await client.close()


async def test_without_a_web_address_the_round_message_offers_no_mini_app(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    async with published_table(fake_telegram, tmp_path) as table:
        listing = await called(table.judge)
        assert [label for row in listing.message.buttons for label, _ in row] == [
            "Открыть протокол"
        ]
        with pytest.raises(LookupError, match="no web_app button"):
            table.judge.open_web_app(listing.message)


async def test_a_game_run_live_gives_what_the_inline_screen_gives(tables: Tables) -> None:
    live = tables.games[0]
    # The judge opens his protocol from the round message; "Run the game" opens the Mini App.
    judge = tables.judges[0]
    screen = await open_protocol(judge, await called(judge), Pace(speed=1000))
    address = judge.open_web_app(screen.message, "🎲 Вести игру")
    page, fragment = address.split("#", 1)
    assert page == f"{tables.base_url}/app/game/{live}"
    data = parse_qs(fragment)["tgWebAppData"][0]
    async with aiohttp.ClientSession() as http, http.get(page) as shown:
        assert shown.status == 200 and "app.js" in await shown.text()
    client = LiveGameClient(tables.base_url, live, data)
    view = await client.play(live_actions(PLAN, CUP))
    assert view["confirmed"] and view["notice"] == "Протокол подтверждён."
    assert [score["total"] for score in view["scores"]][:3] == ["2,3", "2", "2,3"]
    await assert_same_as_inline(tables)
    # The log stays with the confirmed protocol; nothing changes it any more.
    status, after = await client.act(Proceed())
    assert status == 200 and after["notice"] and after["version"] == view["version"]
    await client.close()


async def assert_same_as_inline(tables: Tables) -> None:
    """Table 1's game was run live as PLAN: table 2's judge enters PLAN with the inline
    buttons, and the two give the same protocol, points and channel post."""
    live, inline = tables.games
    listing = await called(tables.judges[1])
    screen = await open_protocol(tables.judges[1], listing, Pace(speed=1000))
    # The live game's log shows how it ended; the inline judge says so with its button.
    await fill_protocol(
        screen, PLAN, Pace(speed=1000), CUP.extra_points.step, end="Красные: все чёрные выбыли"
    )
    # The live game's post went out first (its result was confirmed first).
    await tables.channel.wait_for(lambda m: "стол 2: победа" in (m.text or ""))
    assert _post_of(tables, 1) == _post_of(tables, 2)
    judge_ids = tuple(judge.id for judge in tables.judges)
    stored = []
    for game, judge in zip((live, inline), judge_ids, strict=True):
        shown = await tables.app.services.protocols.open_protocol(Actor(judge, NOW), game)
        assert shown.confirmed is not None
        stored.append(shown.confirmed)
    live_protocol, inline_protocol = stored
    assert [(s.role, s.fouls, s.removed, s.extra) for s in live_protocol.seats] == [
        (s.role, s.fouls, s.removed, s.extra) for s in inline_protocol.seats
    ]
    for field in ("winner", "first_killed", "first_killed_night", "best_move", "end"):
        assert getattr(live_protocol, field) == getattr(inline_protocol, field)
    standings = await tables.app.services.standings.current_standings(tables.seeded.tournament.id)
    points = {row.id: row.points for row in standings.players}
    for seat in range(10):
        assert points[str(tables.players[0][seat])] == points[str(tables.players[1][seat])]


async def test_the_chief_judge_reads_the_game_log_when_deciding_a_protest(
    tables: Tables,
) -> None:
    chief = tables.fake.user(CHIEF_JUDGE, "Главный")
    chief.send("/start")
    await chief.wait_for()
    live = tables.games[0]
    client = LiveGameClient(tables.base_url, live, tables.judges[0].web_app_data())
    await client.play(live_actions(PLAN, CUP))
    protester = tables.seeded.user_of(tables.players[0][1])
    await tables.app.services.protests_filing.file_protest(
        Actor(protester, datetime.now(UTC)),
        live,
        "Фол игроку 2 не засчитан",
        None,
    )
    case = await chief.wait_for(lambda m: "📜 Ход игры" in str(m.buttons))
    await chief.press(case, button_text="📜 Ход игры")
    log = await chief.wait_for(lambda m: "Ход игры" in (m.text or "") and "фол" in (m.text or ""))
    text = log.text or ""
    assert "ночь знакомства · фол игроку 2 (всего 1)" in text
    assert "ночь знакомства · фол игроку 2 (всего 2)" in text
    assert "ночь 1 · убит 1" in text and "лучший ход: 8, 9, 10" in text
    assert "выставил" in text and "голосование:" in text
    assert "конец игры: победа красных (все чёрные выбыли)" in text
