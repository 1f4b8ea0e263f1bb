"""`mafiatour import FILE --series ID`, `mafiatour export --series ID` and `mafiatour ratings
--recompute` from the shell, on SQLite: earlier tournaments join a series in date order, a
file imported twice is refused, the series is written as JSON and CSV."""

from __future__ import annotations

import asyncio
import csv
import io
import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.cli import main
from bot.db.engine import create_engine, create_session_factory
from bot.db.migrate import upgrade
from bot.db.uow import SqlUnitOfWorkFactory
from domain.actor import Actor
from domain.services.catalog import build_services
from domain.services.rating_sync import ordered_games

CUP = Path(__file__).parents[1] / "data" / "black-raven-cup.tournament.json"
NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
def installation(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A working folder whose settings point at a fresh SQLite file with one series."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}"
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setenv("ADMIN_IDS", "7")

    async def series() -> None:
        engine = create_engine(url)
        await upgrade(engine)
        services = build_services(SqlUnitOfWorkFactory(create_session_factory(engine)))
        await services.series.create_series(Actor(7, NOW, is_admin=True), "Сезон")
        await engine.dispose()

    asyncio.run(series())
    return url


def _file(folder: Path, name: str, **fields: object) -> Path:
    document = json.loads(CUP.read_text(encoding="utf-8"))
    document.update(fields)
    path = folder / name
    path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    return path


async def _state(url: str) -> tuple[list[int], dict[int, object], int]:
    """The rated tournaments in the rating's order, the ratings, and the persons."""
    engine = create_engine(url)
    try:
        uow_factory = SqlUnitOfWorkFactory(create_session_factory(engine))
        async with uow_factory() as uow:
            ordered = await ordered_games(uow)
            ratings = dict(await uow.ratings.all_ratings())
            persons = len(await uow.season.find_persons("", 10_000))
    finally:
        await engine.dispose()
    order: list[int] = []
    for _, place in ordered:
        if place.tournament_id not in order:
            order.append(place.tournament_id)
    return order, ratings, persons


def test_history_joins_a_series_in_date_order_and_a_repeated_file_is_refused(
    installation: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    autumn = _file(tmp_path, "autumn.json", starts_on="2026-10-04")
    summer = _file(tmp_path, "summer.json")
    assert main(["import", str(autumn), "--series", "1", "--title", "Осень"]) == 0
    assert capsys.readouterr().out.strip() == "imported as tournament 1 in series 1"
    assert main(["import", str(summer), "--series", "1", "--date", "2026-07-01"]) == 0
    assert capsys.readouterr().out.strip() == "imported as tournament 2 in series 1"
    order, ratings, persons = asyncio.run(_state(installation))
    # The summer tournament was played first; its players are the autumn's (same nicknames).
    assert order == [2, 1] and persons == 30 and len(ratings) == 30
    assert sum(rating.games for rating in ratings.values()) == 54 * 10
    assert main(["import", str(autumn), "--series", "1"]) == 1
    assert "was imported already (tournament 1); nothing was changed" in capsys.readouterr().err
    assert asyncio.run(_state(installation)) == (order, ratings, persons)
    assert main(["ratings", "--recompute"]) == 0
    assert capsys.readouterr().out.strip() == "ratings recomputed over 54 rated games"
    assert asyncio.run(_state(installation)) == (order, ratings, persons)


def test_bad_input_is_refused_with_a_clear_message(
    installation: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    autumn = _file(tmp_path, "autumn.json")
    assert main(["import", str(autumn), "--series", "9"]) == 1
    assert capsys.readouterr().err.strip() == "mafiatour: no series 9"
    assert main(["import", str(autumn), "--date", "2026-07-01"]) == 2
    assert "--date goes with --series" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["import", str(autumn), "--series", "1", "--date", "July"])
    assert "'July' is not a day: write YYYY-MM-DD" in capsys.readouterr().err
    assert main(["export", "--series", "9"]) == 1
    assert capsys.readouterr().err.strip() == "mafiatour: no series 9"
    assert main(["export"]) == 2
    assert main(["ratings"]) == 2
    assert asyncio.run(_state(installation)) == ([], {}, 0)


def test_a_series_is_exported_as_json_and_csv(
    installation: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name, day in (("a.json", "2026-07-01"), ("b.json", "2026-08-01")):
        assert main(["import", str(_file(tmp_path, name, starts_on=day)), "--series", "1"]) == 0
    capsys.readouterr()
    assert main(["export", "--series", "1"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["format"] == "mafiatour-series/1" and data["series"]["title"] == "Сезон"
    assert len(data["players"]) == 30 and [p["place"] for p in data["players"]][:3] == [1, 2, 3]
    assert [t["starts_on"] for t in data["tournaments"]] == ["2026-07-01", "2026-08-01"]
    first = data["tournaments"][0]
    assert first["state"] == "finished" and first["rated"] and first["category_stars"] == 1
    winner = first["results"][0]
    assert winner["place"] == 1 and winner["series_points"] == 50.0
    assert sum(p["series_points"] for p in data["players"]) > 0
    out = tmp_path / "series.csv"
    assert main(["export", "--series", "1", "--format", "csv", "-o", str(out)]) == 0
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
    assert len(rows) == 60 and {row["tournament_id"] for row in rows} == {"1", "2"}
    assert all(float(row["rating"]) > 0 for row in rows)


def test_series_points_in_tenths_are_exported_exactly(
    installation: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Places worth 1.5, 0.7 and 0.1 (and 0.1 after), every category's multiplier 3: the
    # tournaments' series points are 4.5, 2.1 and 0.3, the players' totals 9, 4.2 and 0.6.
    table = {
        "format": "mafiatour-series-points/1",
        "places": [1.5, 0.7, 0.1],
        "other_places": 0.1,
        "stars": {str(stars): 3 for stars in range(1, 6)},
        "category": {"2": 1020, "3": 1060, "4": 1120, "5": 1200},
    }

    async def give_table() -> None:
        engine = create_engine(installation)
        services = build_services(SqlUnitOfWorkFactory(create_session_factory(engine)))
        await services.series.set_points_table(Actor(7, NOW, is_admin=True), 1, json.dumps(table))
        await engine.dispose()

    asyncio.run(give_table())
    for name, day in (("a.json", "2026-07-01"), ("b.json", "2026-08-01")):
        assert main(["import", str(_file(tmp_path, name, starts_on=day)), "--series", "1"]) == 0
    capsys.readouterr()
    assert main(["export", "--series", "1"]) == 0
    text = capsys.readouterr().out
    # Floats would have written 2.0999999999999996, 0.30000000000000004, 0.6000000000000001.
    assert "0000000" not in text and "9999999" not in text
    data = json.loads(text)
    earned = {line["place"]: line["series_points"] for line in data["tournaments"][0]["results"]}
    assert (earned[1], earned[2], earned[3], earned[30]) == (4.5, 2.1, 0.3, 0.3)
    assert sorted({p["series_points"] for p in data["players"]}) == [0.6, 4.2, 9]
    out = tmp_path / "series.csv"
    assert main(["export", "--series", "1", "--format", "csv", "-o", str(out)]) == 0
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
    assert {row["series_points"] for row in rows} == {"4.5", "2.1", "0.3"}
