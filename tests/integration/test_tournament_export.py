"""The tournament file carries the games: export, import into a fresh database, export again.

On SQLite and PostgreSQL: the example files of both presets, a tournament played through the
protocol screens with a correction, an exclusion and a substitute, and files refused whole.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.commands import standings as standings_command
from bot.db.engine import create_engine, create_session_factory
from bot.db.migrate import upgrade
from bot.db.uow import SqlUnitOfWorkFactory
from domain.actor import Actor
from domain.interchange import InterchangeError, Tournament, load_tournament
from domain.protocol_screen import Act, Mode, Press
from domain.registration import Application, ParticipantStatus
from domain.services.catalog import Services, build_services
from domain.standings import StandingRow, Standings
from domain.standings_board import participant_key
from domain.tournament import TournamentState
from tests.conftest import _drop_postgres_database, make_database_url
from tests.factories import CHIEF_JUDGE, NOW, ORGANIZER, seed_tournament
from tests.integration.test_protocols import Judge, mode
from tests.integration.test_rounds import seated, sent_messages

DATA = Path(__file__).parents[1] / "data"
EXAMPLES = ("black-raven-cup", "siberia-ural-teams")
OWNER = 7


@pytest.fixture
async def fresh_uow_factory(
    database_url: str, tmp_path: Path
) -> AsyncIterator[SqlUnitOfWorkFactory]:
    """A second empty database of the same kind: the installation a file moves to."""
    kind = "sqlite" if database_url.startswith("sqlite") else "postgresql"
    folder = tmp_path / "fresh"
    folder.mkdir()
    url = await make_database_url(kind, folder)
    engine = create_engine(url)
    await upgrade(engine)
    yield SqlUnitOfWorkFactory(create_session_factory(engine))
    await engine.dispose()
    if kind == "postgresql":
        await _drop_postgres_database(url)


async def _import(uow_factory: SqlUnitOfWorkFactory, text: str) -> int:
    services = build_services(uow_factory)
    await services.users.remember_user(
        telegram_id=OWNER,
        first_name="Org",
        last_name=None,
        username=None,
        default_locale="ru",
    )
    return (await services.exports.import_tournament(Actor(OWNER, NOW), text, "Архив")).id


def _games_by_nickname(tournament: Tournament) -> list[dict[str, object]]:
    """The file's games with players named by nickname, as a reader compares two files."""
    nickname = {player.id: player.nickname for player in tournament.players}
    return [
        {
            "where": (game.stage, game.round, game.table),
            "winner": game.protocol.winner,
            "first_killed": (game.protocol.first_killed, game.protocol.first_killed_night),
            "best_move": game.protocol.best_move,
            "seats": [
                (nickname[s.player], s.role, s.fouls, s.removed, s.extra)
                for s in game.protocol.seats
            ],
        }
        for game in tournament.games
    ]


def _rows(rows: tuple[StandingRow, ...], names: dict[str, str]) -> list[tuple[object, ...]]:
    # Rows sharing a place are listed in id order, and ids differ between the file and the
    # database: the place, not the listing, is what the two must agree on.
    return sorted(
        (
            row.place,
            names[row.id],
            row.stage,
            float(round(row.points, 2)),
            row.figures.games,
            row.tied,
        )
        for row in rows
    )


def _standings_of_file(path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, list]:
    """What `mafiatour standings FILE --format json` prints, in the fields `_rows` keeps."""
    capsys.readouterr()
    args = argparse.Namespace(file=path, format="json", lot_seed=None, lot_order=None)
    assert standings_command.run(args) == 0
    printed = json.loads(capsys.readouterr().out)
    return {
        kind: sorted(
            (
                row["place"],
                row["nickname" if kind == "players" else "name"],
                row["stage"],
                row["points"],
                row["games"],
                row["tied"],
            )
            for row in printed[kind]
        )
        for kind in ("players", "teams")
    }


async def _stored(
    uow_factory: SqlUnitOfWorkFactory, tournament_id: int, standings: Standings
) -> dict[str, list[tuple[object, ...]]]:
    """The standings' rows with players and teams named from the database by their ids."""
    async with uow_factory() as uow:
        participants = await uow.participants.of_tournament(tournament_id)
        teams = await uow.teams.of_tournament(tournament_id)
    nicknames = {participant_key(p.id): p.nickname for p in participants}
    team_names = {participant_key(t.id): t.name for t in teams}
    return {
        "players": _rows(standings.players, nicknames),
        "teams": _rows(standings.teams, team_names),
    }


async def _round_trip(
    uow_factory: SqlUnitOfWorkFactory,
    fresh_uow_factory: SqlUnitOfWorkFactory,
    tournament_id: int,
    folder: Path,
    capsys: pytest.CaptureFixture[str],
) -> str:
    """Export, import into the fresh database, export again: both files and every standings
    (each database's stored ones and the shell's from the file) must agree."""
    services = build_services(uow_factory)
    exported = await services.exports.dump_tournament(tournament_id)
    moved = await _import(fresh_uow_factory, exported)
    fresh = build_services(fresh_uow_factory)
    assert await fresh.exports.dump_tournament(moved) == exported
    path = folder / "exported.tournament.json"
    path.write_text(exported, encoding="utf-8")
    from_file = _standings_of_file(path, capsys)
    original = await services.standings.current_standings(tournament_id)
    imported = await fresh.standings.current_standings(moved)
    assert await _stored(uow_factory, tournament_id, original) == from_file
    assert await _stored(fresh_uow_factory, moved, imported) == from_file
    # /standings shows the organizer the same table from the imported protocols.
    board = await fresh.standings.standings_of_tournament(Actor(OWNER, NOW), moved)
    assert board is not None
    assert await _stored(fresh_uow_factory, moved, board.standings) == from_file
    return exported


@pytest.mark.parametrize("example", EXAMPLES)
async def test_an_example_file_keeps_every_game_and_the_standings_across_installations(
    uow_factory: SqlUnitOfWorkFactory,
    fresh_uow_factory: SqlUnitOfWorkFactory,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    example: str,
) -> None:
    text = (DATA / f"{example}.tournament.json").read_text(encoding="utf-8")
    original = load_tournament(text)
    tournament_id = await _import(uow_factory, text)
    exported = await _round_trip(uow_factory, fresh_uow_factory, tournament_id, tmp_path, capsys)
    again = load_tournament(exported)
    assert len(again.games) == len(original.games) > 0
    assert _games_by_nickname(again) == _games_by_nickname(original)
    async with uow_factory() as uow:
        tournament = await uow.tournaments.get(tournament_id)
    assert tournament is not None
    # Imported mid-way or complete, the tournament runs in the last stage it played.
    assert tournament.state is TournamentState.RUNNING
    assert tournament.current_stage == original.games[-1].stage


async def test_a_file_exported_mid_round_comes_back_with_its_tables_where_they_were(
    uow_factory: SqlUnitOfWorkFactory,
    fresh_uow_factory: SqlUnitOfWorkFactory,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    document = json.loads((DATA / "black-raven-cup.tournament.json").read_text(encoding="utf-8"))
    # Table 2 of the qualifying's last round is still playing: only tables 1 and 3 are in.
    document["games"] = [
        game
        for game in document["games"]
        if game["stage"] == "qualifying" and (game["round"], game["table"]) != (6, 2)
    ]
    tournament_id = await _import(uow_factory, json.dumps(document, ensure_ascii=False))
    exported = load_tournament(
        await _round_trip(uow_factory, fresh_uow_factory, tournament_id, tmp_path, capsys)
    )
    last_round = [g.table for g in exported.games if (g.stage, g.round) == ("qualifying", 6)]
    assert last_round == [1, 3]


async def test_a_tournament_played_on_the_protocol_screens_exports_its_current_protocols(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
    fresh_uow_factory: SqlUnitOfWorkFactory,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    seeded = await seed_tournament(uow_factory, players=20, judges=2)
    preview = await seated(services, seeded)
    tournament_id = seeded.tournament.id
    await services.rounds_publication.publish_round(Actor(ORGANIZER, NOW), tournament_id, 1)
    await sent_messages(uow_factory)
    games = preview.stage.rounds[0].games
    for game in games:
        assert game.judge_id is not None
        judge = Judge(services, game.id, game.judge_id)
        await judge.fill_red_win()
        await judge.confirm()
    # The first player of table 1 is excluded after playing, a newcomer takes his place.
    excluded_id = games[0].players[0]
    await services.checkin.exclude(Actor(CHIEF_JUDGE, NOW), excluded_id, "поведение")
    substitute, _ = await services.checkin.substitute(
        Actor(ORGANIZER, NOW),
        excluded_id,
        newcomer=Application("Запасной", "Клуб", "Омск"),
    )
    # The chief judge turns table 2 into a black win after its confirmation
    # (the standings list the substitute).
    chief = Judge(services, games[1].id, CHIEF_JUDGE)
    await services.protocols.start_correction(Actor(CHIEF_JUDGE, NOW), games[1].id)
    await chief.open()
    await chief.press(mode(Mode.WINNER))
    await chief.press(Press(Act.WINNER, value=1))
    assert (await chief.confirm()).notice == "protocol-screen-corrected"
    exported = load_tournament(
        await _round_trip(uow_factory, fresh_uow_factory, tournament_id, tmp_path, capsys)
    )
    assert [(g.stage, g.round, g.table) for g in exported.games] == [
        ("qualifying", 1, 1),
        ("qualifying", 1, 2),
    ]
    assert [g.protocol.winner.value for g in exported.games] == ["red", "black"]
    nickname = {player.id: player.nickname for player in exported.players}
    for game, played in zip(exported.games, games, strict=True):
        assert [nickname[s.player] for s in game.protocol.seats] == [
            seeded.nickname(p) for p in played.players
        ]
    # The excluded player keeps his game; his substitute is listed without one.
    listed = [player.nickname for player in exported.players]
    assert seeded.nickname(excluded_id) in listed and substitute.nickname in listed
    assert len(listed) == 21
    async with uow_factory() as uow:
        excluded = await uow.participants.get(excluded_id)
    assert excluded is not None and excluded.status is ParticipantStatus.EXCLUDED


async def test_a_file_with_broken_games_is_refused_whole_with_every_problem(
    uow_factory: SqlUnitOfWorkFactory,
) -> None:
    document = json.loads((DATA / "black-raven-cup.tournament.json").read_text(encoding="utf-8"))
    document["games"][0]["winner"] = "green"
    document["games"][1]["seats"][3]["player"] = "nobody"
    document["games"][2]["seats"][0]["extra"] = "lots"
    with pytest.raises(InterchangeError) as refused:
        await _import(uow_factory, json.dumps(document, ensure_ascii=False))
    problems = refused.value.problems
    assert {problem.game for problem in problems} == {1, 2, 3}
    assert any("winner" in str(p) for p in problems)
    assert any(p.seat == 4 and "'nobody' is not registered" in str(p) for p in problems)
    assert any(p.seat == 1 and "extra must be a number" in str(p) for p in problems)
    async with uow_factory() as uow:
        assert await uow.tournaments.of_person(OWNER, everything=True) == []
