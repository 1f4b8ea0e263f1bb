"""Export and import of tournaments: the mafia-tournament/1 file and the participants' CSV."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.db.uow import SqlUnitOfWorkFactory
from domain.actor import Actor
from domain.interchange import InterchangeError, load_tournament
from domain.services.catalog import Services, build_services

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
TEAMS_FILE = Path(__file__).parents[1] / "data" / "siberia-ural-teams.tournament.json"


async def _owner(uow_factory: SqlUnitOfWorkFactory) -> int:
    services = build_services(uow_factory)
    await services.users.remember_user(
        telegram_id=7,
        first_name="Org",
        last_name=None,
        username=None,
        default_locale="ru",
    )
    return 7


async def test_an_imported_tournament_exports_the_same_players_and_teams(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    text = TEAMS_FILE.read_text(encoding="utf-8")
    original = load_tournament(text)
    owner = await _owner(uow_factory)
    tournament = await services.exports.import_tournament(Actor(owner, NOW), text, "Сибирь")
    again = load_tournament(await services.exports.dump_tournament(tournament.id))
    assert again.regulation.id == "siberia-ural-teams"
    teams_of = {t.id: t.name for t in original.teams}
    new_teams_of = {t.id: t.name for t in again.teams}
    assert [(p.nickname, teams_of[p.team or ""]) for p in original.players] == [
        (p.nickname, new_teams_of[p.team or ""]) for p in again.players
    ]
    _, table = await services.exports.export_csv(Actor(owner, NOW), tournament.id)
    rows = list(csv.DictReader(io.StringIO(table)))
    assert len(rows) == 60 and rows[0]["nickname"] == original.players[0].nickname
    assert (
        rows[0]["telegram_id"] == "" and rows[0]["team"] == teams_of[original.players[0].team or ""]
    )


async def test_an_invalid_file_is_refused_with_its_problems_and_nothing_stored(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    owner = await _owner(uow_factory)
    with pytest.raises(InterchangeError) as refused:
        await services.exports.import_tournament(
            Actor(owner, NOW), '{"format": "mafia-tournament/1"}', "x"
        )
    assert any("no players" in str(problem) for problem in refused.value.problems)
    async with uow_factory() as uow:
        assert await uow.tournaments.of_person(owner, everything=True) == []
