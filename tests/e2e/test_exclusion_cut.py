"""A player excluded inside the cut (regulation 11.3.3) takes no place in it: the next player
moves up, the next stage is seated in full without him, and the standings show him excluded
below the cut line, his points kept. In a team tournament the final seats the advancing
teams' current players: the substitute in, the excluded player out."""

from __future__ import annotations

import csv
import io
from datetime import timedelta
from pathlib import Path

from bot.clock import FixedClock
from domain.actor import Actor
from domain.lifecycle import Move
from domain.registration import Application
from domain.tournament import Tournament
from harness.fake_telegram import FakeTelegram
from harness.sandbox import running_bot, sandbox_settings
from harness.simulation.screens import containing
from tests.e2e.stage_play import draw_every_lot, play_stage
from tests.factories import (
    CHANNEL,
    CHIEF_JUDGE,
    NOW,
    ORGANIZER,
    seed_tournament,
)

TIMEOUT = 60.0
REASON = "Подсказки партнёру жестами"
EXCLUDED = "× — игрок исключён из турнира"


async def test_an_excluded_player_inside_the_cut_gives_his_place_to_the_next(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}"
    channel = fake_telegram.channel(CHANNEL, "Кубок Ворона")
    clock = FixedClock(NOW)
    async with running_bot(sandbox_settings(fake_telegram, url), clock=clock) as app:
        seeded = await seed_tournament(app.uow_factory, players=30, judges=3)
        tid = seeded.tournament.id
        await play_stage(app.services, tid, NOW)
        clock.moment = NOW + timedelta(minutes=10)
        await draw_every_lot(app.uow_factory, tid, clock.moment)
        first = await app.services.standings.current_standings(tid)
        before = first.cuts[0]
        assert len(before.advancing) == 20
        leader = int(before.advancing[0])
        points = next(r.points for r in first.players if r.id == str(leader))
        leader_user = seeded.user_of(leader)
        told = fake_telegram.user(leader_user, "Лидер")
        told.send("/start")
        await told.wait_for(None, TIMEOUT)

        await app.services.checkin.exclude(Actor(CHIEF_JUDGE, clock.moment), leader, REASON)
        notice = await told.wait_for(containing("исключил вас"), TIMEOUT)
        assert REASON in (notice.text or "")
        # The channel's live table is edited at once: he is marked excluded, below the line.
        live = await channel.wait_for(containing(EXCLUDED), TIMEOUT)
        assert seeded.nickname(leader) in (live.text or "")
        await draw_every_lot(app.uow_factory, tid, clock.moment)
        standings = await app.services.standings.current_standings(tid)
        cut = standings.cuts[0]
        assert str(leader) not in cut.advancing and len(cut.advancing) == 20
        assert set(cut.advancing) > set(before.advancing) - {str(leader)}
        row = standings.players[-1]
        assert row.id == str(leader) and row.excluded
        assert row.points == points
        assert row.figures.games == 6  # his games' points stay in the record

        # /standings shows him below the cut line, marked excluded.
        player = fake_telegram.user(seeded.user_of(int(cut.advancing[0])), "Игрок")
        player.send("/standings")
        table = await player.wait_for(containing("Турнирная таблица"), TIMEOUT)
        text = table.text or ""
        assert EXCLUDED in text
        line = next(line for line in text.splitlines() if seeded.nickname(leader) in line)
        assert "×" in line.split()[0]
        assert text.index("дальше проходят 20") < text.index(line)
        await player.press(table, button_text="Для Excel (CSV, «;»)")
        # The press first shows a "working" keyboard; the file follows as a message.
        document = (await player.wait_for(lambda m: m.document is not None, TIMEOUT)).document
        assert document is not None and document.content is not None
        rows = list(csv.reader(io.StringIO(document.content.decode("utf-8-sig")), delimiter=";"))
        excluded_rows = [r for r in rows[1:] if r[-1] == "да"]
        assert [r[2] for r in excluded_rows] == [seeded.nickname(leader)]

        # The semifinal seats twenty players, the excluded one not among them.
        moved = await app.services.tournaments.move_tournament(
            Actor(ORGANIZER, clock.moment), tid, Move.START_STAGE
        )
        assert isinstance(moved, Tournament) and moved.current_stage == "semifinal"
        seated = await app.services.rounds_seating.start_stage(
            Actor(ORGANIZER, clock.moment), tid, seed=4
        )
        players = {p for game in seated.stage.rounds[0].games for p in game.players}
        players |= set(seated.stage.rounds[0].sit_outs)
        assert len(players) == 20 and leader not in players
        assert {str(p) for p in players} == set(cut.advancing)


async def test_a_team_final_seats_the_substitute_not_the_excluded_player(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}"
    fake_telegram.channel(CHANNEL, "Кубок Сибири")
    clock = FixedClock(NOW)
    async with running_bot(sandbox_settings(fake_telegram, url), clock=clock) as app:
        seeded = await seed_tournament(
            app.uow_factory, players=60, judges=6, regulation="siberia-ural-teams", team_size=3
        )
        tid = seeded.tournament.id
        await play_stage(app.services, tid, NOW)
        await draw_every_lot(app.uow_factory, tid, NOW)
        cut = (await app.services.standings.current_standings(tid)).cuts[0]
        assert cut.unit == "teams" and len(cut.advancing) == 10
        team = int(cut.advancing[0])
        member = next(p for p in seeded.players if p.team_id == team)
        await app.services.checkin.exclude(Actor(CHIEF_JUDGE, NOW), member.id, REASON)
        newcomer = Application("Запасной", "Ворон", "Омск")
        sub, _ = await app.services.checkin.substitute(
            Actor(ORGANIZER, NOW), member.id, newcomer=newcomer
        )
        after = (await app.services.standings.current_standings(tid)).cuts[0]
        assert str(team) in after.advancing and len(after.advancing) == 10

        moved = await app.services.tournaments.move_tournament(
            Actor(ORGANIZER, NOW), tid, Move.START_STAGE
        )
        assert isinstance(moved, Tournament) and moved.current_stage == "final"
        seated = await app.services.rounds_seating.start_stage(Actor(ORGANIZER, NOW), tid, seed=4)
        first = seated.stage.rounds[0]
        players = {p for game in first.games for p in game.players} | set(first.sit_outs)
        assert len(players) == 30
        assert sub.id in players and member.id not in players
