"""`mafiatour import FILE` and `mafiatour export TOURNAMENT_ID` from the shell, on SQLite."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main
from domain.interchange import load_tournament

DATA = Path(__file__).parents[1] / "data"
TEAMS = DATA / "siberia-ural-teams.tournament.json"


@pytest.fixture
def installation(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working folder whose settings point at a fresh SQLite file."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DATABASE_URL", f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}")
    monkeypatch.setenv("ADMIN_IDS", "7")
    return tmp_path


def _standings(path: Path, capsys: pytest.CaptureFixture[str]) -> list[tuple[object, ...]]:
    assert main(["standings", str(path), "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["players"]
    return sorted((row["place"], row["nickname"], row["points"], row["games"]) for row in rows)


def test_a_file_imported_and_exported_from_the_shell_scores_the_same(
    installation: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["import", str(TEAMS), "--title", "Сибирь"]) == 0
    assert capsys.readouterr().out.strip() == "imported as tournament 1"
    exported = installation / "exported.json"
    assert main(["export", "1", "-o", str(exported)]) == 0
    again = load_tournament(exported.read_text(encoding="utf-8"))
    assert len(again.games) == len(load_tournament(TEAMS.read_text(encoding="utf-8")).games)
    assert _standings(exported, capsys) == _standings(TEAMS, capsys)


def test_an_invalid_file_is_refused_from_the_shell_with_its_problems(
    installation: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = json.loads(TEAMS.read_text(encoding="utf-8"))
    document["games"][0]["winner"] = "green"
    document["games"][5]["seats"][0]["role"] = "werewolf"
    broken = installation / "broken.json"
    broken.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    assert main(["import", str(broken)]) == 1
    errors = capsys.readouterr().err
    assert "is not a valid tournament file" in errors
    assert "game 1 (qualifying, round 1, table 1): winner must be 'red' or 'black'" in errors
    assert "game 6 (qualifying, round 1, table 6), seat 1: role must be" in errors
    # Nothing was stored: there is no tournament to export.
    assert main(["export", "1"]) == 1
    assert "no tournament 1" in capsys.readouterr().err
