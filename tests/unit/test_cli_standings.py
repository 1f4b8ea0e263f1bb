import csv
import io
import json
from pathlib import Path

import pytest

from bot.cli import main

DATA = Path(__file__).parents[1] / "data"
CUP = DATA / "black-raven-cup.tournament.json"
TEAMS = DATA / "siberia-ural-teams.tournament.json"


def standings_json(capsys, path, *options):
    assert main(["standings", str(path), "--format", "json", *options]) == 0
    return json.loads(capsys.readouterr().out)


def test_cup_tournament_standings(capsys):
    result = standings_json(capsys, CUP)
    players = result["players"]
    assert result["teams"] == [] and len(players) == 30
    # p13: 9 wins × 2 + extras 0.5 + 0.5; his best move named one black (0); 2 sheriff wins
    assert players[0] == {
        "place": 1,
        "id": "p13",
        "nickname": "Беркут",
        "team": None,
        "stage": "final",
        "points": 19.0,
        "games": 12,
        "wins": 9,
        "extra_points": 1.0,
        "wins_as_don_or_sheriff": 2,
        "first_night_deaths": 1,
        "lot": False,
        "tied": False,
    }
    stages = [row["stage"] for row in players]
    assert stages == ["final"] * 10 + ["semifinal"] * 10 + ["qualifying"] * 10
    # p30 and p02 tie on points (14.0) and extras (0): p30's second don/sheriff win decides
    by_id = {row["id"]: row for row in players}
    assert by_id["p30"]["place"] == 7 and by_id["p02"]["place"] == 8


def test_a_tie_through_the_whole_chain_waits_for_the_lot(capsys):
    tied = [row for row in standings_json(capsys, CUP)["players"] if row["tied"]]
    assert {(row["id"], row["place"]) for row in tied} >= {("p02", 8), ("p11", 8)}
    drawn = standings_json(capsys, CUP, "--lot-seed", "kostanay")["players"]
    assert not any(row["tied"] for row in drawn)
    assert {row["id"] for row in drawn if row["place"] in (8, 9)} == {"p02", "p11"}
    assert all(row["lot"] for row in drawn if row["id"] in ("p02", "p11"))
    again = standings_json(capsys, CUP, "--lot-seed", "kostanay")["players"]
    assert again == drawn


def test_team_tournament_standings(capsys):
    result = standings_json(capsys, TEAMS)
    players, teams = result["players"], result["teams"]
    assert len(players) == 60 and len(teams) == 20
    # t17p2: wins as mafia ×5 (4 each), don ×2 (4), civilian (3), sheriff (3) = 34
    assert (players[0]["id"], players[0]["points"], players[0]["wins"]) == ("t17p2", 34.0, 9)
    assert (players[0]["wins_as_mafia"], players[0]["wins_as_don"]) == (5, 2)
    assert [row["stage"] for row in teams] == ["final"] * 10 + ["qualifying"] * 10
    members = {}
    for row in players:
        members[row["team"]] = members.get(row["team"], 0) + row["points"]
    for team in teams:
        assert team["points"] == pytest.approx(members[team["id"]])
    assert teams[0]["id"] == "t17"


def test_table_format_reports_the_cut(capsys):
    assert main(["standings", str(TEAMS)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Players\nplace")
    assert "Cut after qualifying: top 10 teams advance: " in out


def test_csv_format_lists_players_then_teams(capsys):
    assert main(["standings", str(TEAMS), "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [row["list"] for row in rows] == ["player"] * 60 + ["team"] * 20
    assert rows[0]["id"] == "t17p2" and rows[60]["name"] == "Команда 17"


def test_an_invalid_file_gets_one_line_per_problem_and_exit_code_2(tmp_path, capsys):
    data = json.loads(CUP.read_text("utf-8"))
    data["games"][0]["seats"][0]["extra"] = 0.7
    data["games"][3]["winner"] = "green"
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(data), "utf-8")
    assert main(["standings", str(broken)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines() == [
        f"{broken}: game 1 (qualifying, round 1, table 1), seat 1: "
        "extra points 0.7, at most 0.5 per player",
        f"{broken}: game 4 (qualifying, round 2, table 1): winner must be 'red' or 'black', "
        "got 'green'",
    ]


def test_a_missing_file_exits_with_2(tmp_path, capsys):
    assert main(["standings", str(tmp_path / "none.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
