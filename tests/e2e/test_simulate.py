"""The offline simulation plays whole tournaments through the real bot, a cup of the individual
preset and a team tournament of the team preset's rules: the report, the HTML page and the
tournament file are written, and the file scores to the standings the bot published. (That the
same seed gives the same standings is played on the smaller lot cup, test_simulate_lot.py.)"""

from __future__ import annotations

import io
import json
import re
from contextlib import redirect_stdout
from pathlib import Path

from bot.cli import main
from harness.simulation import SimulationOptions, SimulationResult, simulate
from tests.e2e.regulations import smaller

# Fast scripted people: the runs are about what the bot does, not about waiting.
SPEED = 200.0
PROVISIONAL = "результат предварительный"


async def _run(folder: Path, regulation: str, seed: int) -> tuple[SimulationResult, str]:
    out = io.StringIO()
    options = SimulationOptions(regulation=regulation, seed=seed, speed=SPEED, out=folder)
    result = await simulate(options, out)
    return result, out.getvalue()


def _scored_file(path: Path) -> dict[str, list[dict[str, object]]]:
    printed = io.StringIO()
    with redirect_stdout(printed):
        assert main(["standings", str(path), "--format", "json"]) == 0
    return json.loads(printed.getvalue())  # type: ignore[no-any-return]


async def test_a_cup_is_played_to_the_final_and_reported(tmp_path: Path) -> None:
    result, printed = await _run(tmp_path / "cup", "black-raven-cup", seed=7)
    assert result.figures.errors == () and result.figures.too_many_requests == 0
    rows = result.outcome.standings.players
    assert len(rows) == 20 and {row.figures.games for row in rows[:10]} == {12}
    assert {row.stage for row in rows[:10]} == {"final"}
    assert "Этап 3: Финал" in printed and "Итоговая таблица" in printed
    assert "[закреплено] Турнирная таблица" in printed  # the channel's live table
    assert "тур 3 · стол 1: победа" in printed  # a final game's result in the channel
    assert "главный судья отклонил" in printed  # the protest and its decision
    # Table 2's judges ran their games live through the Mini App's API.
    live = re.search(r"вживую в мини-приложении \(через его API\): (\d+)", printed)
    assert live is not None and int(live.group(1)) >= 6
    # Every protest window closed within the run: the final table and the channel's live
    # table (edited at the last window's close) hold no provisional result.
    assert PROVISIONAL not in result.outcome.standings_text
    (live,) = [post for post in result.channel if post.startswith("[закреплено]")]
    assert "Турнирная таблица" in live and PROVISIONAL not in live
    assert any(PROVISIONAL in post for post in result.channel)  # shown while windows were open
    page = (tmp_path / "cup" / "report.html").read_text(encoding="utf-8")
    assert "<h2>Итоговая таблица</h2>" in page and rows[0].name in page
    # A summary on top, the channel stage by stage, its pictures beside the page.
    assert page.index("Победитель:") < page.index("<h2>Итоговая таблица</h2>")
    assert f"<b>Победитель:</b> {rows[0].name}" in page
    games = sum(row.figures.games for row in rows) // 10
    assert re.search(rf"<p>20 игроков · {games} игр[аы]? · \d+ сообщени", page)
    assert " в канале, картинок: " in page
    assert page.index("<h3>Отборочные игры</h3>") < page.index("<h3>Финал</h3>")
    assert '<img src="picture-001.png"' in page
    assert (tmp_path / "cup" / "picture-001.png").read_bytes().startswith(b"\x89PNG")
    scored = _scored_file(tmp_path / "cup" / "tournament.json")
    published = [(row.place, row.name, float(round(row.points, 2))) for row in rows]
    assert [(r["place"], r["nickname"], r["points"]) for r in scored["players"]] == published


async def test_a_team_tournament_ranks_teams_and_takes_no_protests(tmp_path: Path) -> None:
    """The team preset's rules (scoring, tie-breakers, no protests, the best 10 teams to the
    final) on the smallest field that still cuts: 15 teams of 2 on three tables, 2 games
    each, the final on two (teammates never share a table). The preset's own 20 teams of 3
    play 54 games where these play 10: the preset's registration of 60 is played through the
    bot in test_lifecycle_team_tournament.py, and a whole tournament of it (54 games) is the
    example file tests/data/siberia-ural-teams.tournament.json the integration tests import
    and score."""
    stages = {
        "qualifying": {"games_per_player": 2, "tables": 3},
        "final": {"games_per_player": 2, "tables": 2},
    }
    regulation = smaller("siberia-ural-teams", tmp_path, stages, team_size=2)
    result, printed = await _run(tmp_path / "teams", str(regulation), seed=3)
    assert result.figures.errors == ()
    standings = result.outcome.standings
    assert len(standings.players) == 30 and len(standings.teams) == 15
    # Ten teams reach the final: their two players played 2 + 2 games each.
    finalists = [row for row in standings.teams if row.stage == "final"]
    assert len(finalists) == 10 and standings.teams[0].stage == "final"
    in_final = [row for row in standings.players if row.stage == "final"]
    assert len(in_final) == 20 and {row.figures.games for row in in_final} == {4}
    assert "регламент их не предусматривает" in printed
    scored = _scored_file(tmp_path / "teams" / "tournament.json")
    assert [team["name"] for team in scored["teams"]] == [row.name for row in standings.teams]
