"""The live game's pages on the running bot, fed by the judge's Mini App API: the public page
(roles secret while the game runs, never in its HTML or its events), the stream view opened
by its own token (roles shown), its events after each action, and 404s for junk, foreign or
unpublished games and for wrong or revoked tokens."""

from __future__ import annotations

import asyncio
import re
from dataclasses import replace

import aiohttp

from domain.actor import Actor
from domain.game_log import Check, Phase, Proceed, Shoot, replay
from domain.tournament import WebVisibility
from handlers.callbacks import StreamAction, StreamButton
from harness.simulation.live_game import LiveGameClient, live_actions
from harness.simulation.screens import answer, press
from tests.e2e.conftest import fake_telegram
from tests.e2e.test_miniapp_api import CUP, PLAN, Tables, tables
from tests.factories import CHIEF_JUDGE, NOW, ORGANIZER

__all__ = ["fake_telegram", "tables"]
WAIT_SECONDS = 120.0
ROLE_WORDS = ("мирный", "шериф", "мафия", "дон", "civilian", "sheriff", "mafia", "don")


async def _get(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as http, http.get(url) as response:
        return response.status, await response.text()


def _until(phase: Phase) -> list:
    actions = live_actions(PLAN, CUP)
    for count in range(len(actions) + 1):
        if replay(actions[:count], CUP).phase is phase:
            return actions[:count]
    raise AssertionError(phase)


async def _play(tables: Tables, actions: list) -> LiveGameClient:
    client = LiveGameClient(tables.base_url, tables.games[0], tables.judges[0].web_app_data())
    await client.get()
    for action in actions:
        status, view = await client.act(action)
        assert status == 200, view
    return client


async def test_the_public_page_keeps_the_roles_secret_and_the_stream_shows_them(
    tables: Tables,
) -> None:
    tid, game = tables.seeded.tournament.id, tables.games[0]
    page = f"{tables.base_url}/t/{tid}/games/{game}/live"
    status, html = await _get(page)
    assert status == 200 and "Игра ещё не началась" in html
    # The sheriff's check of the don on night 1: the judge is in the night's secret steps.
    actions = _until(Phase.SHERIFF_CHECK)
    client = await _play(tables, actions)
    status, html = await _get(page)
    assert status == 200
    assert "Ночь 1" in html and "Проверки" not in html and "убит" not in html
    assert not any(f">{word}<" in html.lower() for word in ROLE_WORDS)
    assert "Роли откроются" in html
    # The morning: the victim is announced, the checks stay secret.
    status, view = await client.act(Check(10))
    assert status == 200, view
    status, html = await _get(page)
    assert "убит игрок 1" in html and "Проверки" not in html and "чёрный" not in html
    # The round's page links the game being played.
    status, rounds_page = await _get(f"{tables.base_url}/t/{tid}/rounds")
    assert f"/t/{tid}/games/{game}/live" in rounds_page and "идёт игра" in rounds_page
    # The organizer opens a stream view without delay: the roles and the check show there.
    organizer = Actor(ORGANIZER, NOW)
    await tables.app.services.live_tables.open_stream(organizer, game, "tok-en_1")
    await tables.app.services.live_tables.set_stream_delay(organizer, game, 0)
    stream = f"{tables.base_url}/t/{tid}/games/{game}/stream/tok-en_1"
    status, html = await _get(stream)
    assert status == 200, html
    assert "дон" in html and "шериф проверил игрока 10 — чёрный" in html
    assert tables.seeded.tournament.title in html
    # A wrong token, and the same one once revoked, open nothing.
    assert (await _get(stream.replace("tok-en_1", "tok-en_2")))[0] == 404
    await tables.app.services.live_tables.revoke_stream(organizer, game)
    assert (await _get(stream))[0] == 404
    # A new link draws a new token: the old one stays closed.
    await tables.app.services.live_tables.open_stream(organizer, game, "fresh")
    assert (await _get(stream))[0] == 404
    assert (await _get(stream.replace("tok-en_1", "fresh")))[0] == 200
    await client.close()


async def _next_event(response: aiohttp.ClientResponse) -> str:
    """The next event's name on a Server-Sent Events stream."""
    async with asyncio.timeout(WAIT_SECONDS):
        while True:
            line = (await response.content.readline()).decode().strip()
            if line.startswith("event:"):
                return line.removeprefix("event:").strip()


async def test_the_events_say_change_after_an_action_but_not_for_the_nights_secrets(
    tables: Tables,
) -> None:
    tid, game = tables.seeded.tournament.id, tables.games[0]
    url = f"{tables.base_url}/t/{tid}/games/{game}/live/events"
    client = await _play(tables, _until(Phase.SHOT))
    async with aiohttp.ClientSession() as http, http.get(url) as events:
        assert events.status == 200
        assert await _next_event(events) == "ready"
        # The shot and the don's check change nothing a spectator sees: the next event is
        # the morning's (the sheriff's check done, the victim's best move).
        for action in (Shoot(PLAN.first_kill), Proceed(), Proceed()):
            status, view = await client.act(action)
            assert status == 200, view
        assert await _next_event(events) == "change"
        status, html = await _get(f"{tables.base_url}/t/{tid}/games/{game}/live")
        assert "Утро: лучший ход" in html
    await client.close()


async def test_junk_foreign_and_unlisted_addresses_answer_404(tables: Tables) -> None:
    tid, game = tables.seeded.tournament.id, tables.games[0]
    base = tables.base_url
    for path in (
        f"/t/{tid}/games/999999999/live",
        f"/t/{tid}/games/0/live",
        f"/t/{tid}/games/abc/live",
        f"/t/{tid}/games/{'9' * 30}/live",
        f"/t/{tid + 1}/games/{game}/live",
        f"/t/{tid}/games/{game}/stream/nothing",
        f"/t/{tid}/games/{game}/stream/nothing/events",
        f"/t/{tid}/games/{game}/stream/{'x' * 65}",
    ):
        status, _ = await _get(base + path)
        assert status == 404, path
    # A game of a round not published yet has no page.
    async with tables.app.uow_factory() as uow:
        stage = await uow.rounds.stage(tid, "qualifying")
    assert stage is not None and stage.rounds[1].published_at is None
    unpublished = stage.rounds[1].games[0].id
    assert (await _get(f"{base}/t/{tid}/games/{unpublished}/live"))[0] == 404
    # An unlisted tournament's game opens with its token only.
    async with tables.app.uow_factory() as uow:
        stored = await uow.tournaments.get(tid)
        assert stored is not None
        await uow.tournaments.save(
            replace(stored, web_visibility=WebVisibility.UNLISTED, web_token="sesame")
        )
        uow.changed_tournaments.add(tid)
        await uow.commit()
    page = f"{base}/t/{tid}/games/{game}/live"
    assert (await _get(page))[0] == 404
    assert (await _get(page + "?k=wrong"))[0] == 404
    status, html = await _get(page + "?k=sesame")
    assert status == 200 and "k=sesame" in html


async def test_the_organizer_opens_delays_and_revokes_a_stream_link_from_the_round(
    tables: Tables,
) -> None:
    tid, game = tables.seeded.tournament.id, tables.games[0]
    organizer = tables.fake.user(ORGANIZER, "Орг")
    overview = await answer(organizer, f"/rounds {tid}", "Тур 1")
    view = await press(organizer, overview, "Тур 1", "Стол 1")
    screen = await press(organizer, view, "📺 Трансляция 1", "Ссылки для трансляции нет")
    screen = await press(organizer, screen, "Открыть ссылку для трансляции", "задержка 60 с")
    (address,) = re.findall(r"http://\S+/stream/\S+", screen.text or "")
    assert f"/t/{tid}/games/{game}/stream/" in address
    status, html = await _get(address)
    assert status == 200 and "Роли откроются" not in html
    screen = await press(organizer, screen, "30 с", "задержка 30 с")
    async with tables.app.uow_factory() as uow:
        link = await uow.stream_links.get(game)
    assert link is not None and link.delay_seconds == 30 and address.endswith(link.token)
    # A new link closes the old one.
    screen = await press(organizer, screen, "Новая ссылка (старая закроется)", "задержка 30 с")
    (fresh,) = re.findall(r"http://\S+/stream/\S+", screen.text or "")
    assert fresh != address and (await _get(address))[0] == 404
    assert (await _get(fresh))[0] == 200
    screen = await press(organizer, screen, "Закрыть ссылку", "Ссылки для трансляции нет")
    assert (await _get(fresh))[0] == 404
    # A table's judge is not the organizer: his forged press is refused and changes nothing.
    judge = tables.judges[0]
    refused = await judge.forge_press(
        screen, StreamButton(game_id=game, action=StreamAction.OPEN).pack()
    ).answer(WAIT_SECONDS)
    assert refused.show_alert and "нет прав" in (refused.text or "")
    async with tables.app.uow_factory() as uow:
        link = await uow.stream_links.get(game)
    assert link is not None and link.revoked
    # Nor is the chief judge: the round's view (the only place of the 📺 button) is refused
    # him by the same rule, so he is never offered a button he may not press.
    chief = tables.fake.user(CHIEF_JUDGE, "Главный")
    refusal = await answer(chief, f"/rounds {tid}", "нет прав")
    assert "📺" not in str(refusal.buttons)


async def test_a_delayed_streams_events_come_when_the_delay_has_passed(tables: Tables) -> None:
    tid, game = tables.seeded.tournament.id, tables.games[0]
    organizer = Actor(ORGANIZER, NOW)
    await tables.app.services.live_tables.open_stream(organizer, game, "later")
    await tables.app.services.live_tables.set_stream_delay(organizer, game, 1)
    stream = f"{tables.base_url}/t/{tid}/games/{game}/stream/later"
    client = await _play(tables, [])
    async with aiohttp.ClientSession() as http, http.get(stream + "/events") as events:
        assert await _next_event(events) == "ready"
        status, view = await client.act(live_actions(PLAN, CUP)[0])
        assert status == 200, view
        # No other action comes: the stream wakes by itself once the second has passed.
        assert await _next_event(events) == "change"
    status, html = await _get(stream)
    assert status == 200 and "Ночь знакомства" in html and "дон" in html
    await client.close()


async def test_the_live_page_switches_language_on_itself_and_refreshes_without_scripts(
    tables: Tables,
) -> None:
    tid, game = tables.seeded.tournament.id, tables.games[0]
    status, html = await _get(f"{tables.base_url}/t/{tid}/games/{game}/live?lang=en")
    assert status == 200 and "The game has not started yet" in html
    assert f'href="/t/{tid}/games/{game}/live?lang=ru"' in html
    # Without JavaScript the page reads itself every ten seconds.
    assert '<noscript><meta http-equiv="refresh" content="10"></noscript>' in html
