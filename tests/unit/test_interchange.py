import json
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path

import pytest

from domain.game_end import GameEnd
from domain.interchange import (
    InterchangeError,
    dumps_tournament,
    load_tournament,
    parse_tournament,
)
from domain.protocol import Removal
from domain.regulation import PRESETS_DIR

DATA = Path(__file__).parents[1] / "data"
ROLES = ["civilian"] * 6 + ["sheriff", "mafia", "mafia", "don"]


def document(**game_changes):
    players = [{"id": f"p{n:02d}", "nickname": f"Игрок {n}"} for n in range(1, 11)]
    seats = [{"player": f"p{n:02d}", "role": role} for n, role in enumerate(ROLES, start=1)]
    game = {"stage": "qualifying", "round": 1, "table": 1, "winner": "red", "seats": seats}
    game.update({"first_killed": None, "best_move": []})
    game.update(game_changes)
    return {
        "format": "mafia-tournament/1",
        "regulation": "black-raven-cup",
        "players": players,
        "games": [game],
    }


def problems(data):
    with pytest.raises(InterchangeError) as raised:
        parse_tournament(data)
    return [str(problem) for problem in raised.value.problems]


def test_omitted_fields_take_their_defaults_and_unknown_fields_are_ignored():
    data = document(first_killed=3, best_move=[8, 9, 10], comment="протест отклонён")
    data["games"][0]["seats"][0].update({"extra": Decimal("0.5"), "fouls": 2, "mood": "good"})
    tournament = parse_tournament(data)
    protocol = tournament.games[0].protocol
    assert protocol.first_killed_night == 1
    assert protocol.seat(1).extra == Decimal("0.5") and protocol.seat(1).fouls == 2
    assert protocol.seat(2).extra == 0 and protocol.seat(2).removed is None
    assert tournament.teams == () and tournament.players[0].team is None


def test_a_whole_regulation_object_may_replace_the_preset_id():
    data = document()
    data["regulation"] = json.loads((PRESETS_DIR / "black-raven-cup.json").read_text("utf-8"))
    data["regulation"]["id"] = "my-cup"
    assert parse_tournament(data).regulation.id == "my-cup"
    data["regulation"]["win_points"]["don"] = "many"
    assert problems(data) == ["regulation.win_points.don: Input should be a valid decimal"]


def test_every_protocol_problem_names_the_game_the_seat_and_the_rule():
    data = document(first_killed=3, first_killed_night=2, best_move=[8, 9, 10])
    data["games"][0]["seats"][1]["fouls"] = 5
    data["games"][0]["seats"][9]["role"] = "mafia"
    assert problems(data) == [
        "game 1 (qualifying, round 1, table 1): 3 × mafia, the table has exactly 2",
        "game 1 (qualifying, round 1, table 1): 0 × don, the table has exactly 1",
        "game 1 (qualifying, round 1, table 1), seat 2: 5 fouls, allowed 0 to 4",
        "game 1 (qualifying, round 1, table 1), seat 3: the first kill was on night 2, "
        "only a first-night victim makes the best move",
    ]


def test_structural_problems_are_all_reported_at_once():
    data = document(stage="playoff", winner="nobody")
    data["format"] = "mafia-tournament/2"
    data["games"][0]["seats"][4] = {"player": "p99", "role": "judge", "removed": "sent home"}
    assert problems(data) == [
        "format: expected 'mafia-tournament/1', got 'mafia-tournament/2'",
        "game 1 (playoff, round 1, table 1): stage 'playoff' is not one of "
        "qualifying, semifinal, final",
        "game 1 (playoff, round 1, table 1): winner must be 'red' or 'black', got 'nobody'",
        "game 1 (playoff, round 1, table 1), seat 5: player 'p99' is not registered",
        "game 1 (playoff, round 1, table 1), seat 5: role must be civilian, sheriff, mafia "
        "or don, got 'judge'",
        "game 1 (playoff, round 1, table 1), seat 5: removed must be null, 'fouls' or "
        "'disqualified', got 'sent home'",
    ]


def test_a_player_at_two_tables_of_one_round_and_a_table_entered_twice_are_refused():
    data = document()
    data["games"].append(dict(data["games"][0]))
    found = problems(data)
    assert found[0] == "game 2 (qualifying, round 1, table 1): the same table as game 1"
    assert found[1] == (
        "game 2 (qualifying, round 1, table 1), seat 1: player p01 also plays game 1 in this round"
    )


def test_teams_belong_to_team_tournaments_only():
    data = document()
    data["teams"] = [{"id": "t01", "name": "Омск-1"}]
    assert problems(data) == ["teams: black-raven-cup is an individual tournament: no teams"]
    data = document()
    data["regulation"] = "siberia-ural-teams"
    assert "player p01: a team tournament: every player has a team" in problems(data)


def test_not_json_is_one_clear_problem():
    with pytest.raises(InterchangeError) as raised:
        load_tournament('{"format": ')
    assert str(raised.value).startswith("line 1, column 12: not JSON")


@pytest.mark.parametrize("name", ["black-raven-cup", "siberia-ural-teams"])
def test_dump_and_load_give_back_the_same_tournament(name):
    tournament = load_tournament((DATA / f"{name}.tournament.json").read_text("utf-8"))
    again = load_tournament(dumps_tournament(tournament))
    assert again == tournament
    removed = [s for g in again.games for s in g.protocol.seats if s.removed]
    assert {seat.removed for seat in removed} <= set(Removal)


def test_a_game_says_how_and_when_it_ended_and_reads_back_the_same():
    data = document(end="missed_nights", ended_at="2026-12-01T14:32:00+03:00")
    tournament = parse_tournament(data)
    protocol = tournament.games[0].protocol
    assert protocol.end is GameEnd.MISSED_NIGHTS
    assert protocol.ended_at == datetime(2026, 12, 1, 11, 32, tzinfo=UTC)
    written = json.loads(dumps_tournament(tournament))["games"][0]
    assert (written["end"], written["ended_at"]) == ("missed_nights", "2026-12-01T14:32:00+03:00")
    assert load_tournament(dumps_tournament(tournament)) == tournament
    # A file of before: no end, no end time, and the bot writes neither back.
    old = parse_tournament(document())
    assert old.games[0].protocol.end is None and old.games[0].protocol.ended_at is None
    assert "end" not in json.loads(dumps_tournament(old))["games"][0]


def test_an_end_the_file_cannot_have_is_named_with_its_game():
    assert problems(document(end="by_lot")) == [
        "game 1 (qualifying, round 1, table 1): end must be null or one of black_out, parity, "
        "missed_nights, four_players_three_nights, awarded_defeat, got 'by_lot'"
    ]
    assert problems(document(ended_at="14:32")) == [
        "game 1 (qualifying, round 1, table 1): ended_at is a moment with its offset "
        "(ISO 8601) or null"
    ]
    # Three misses give red the game; the team tournament has no such end at all.
    assert problems(document(end="missed_nights", winner="black")) == [
        "game 1 (qualifying, round 1, table 1): a game ended by missed_nights is won by red, "
        "not black"
    ]


def _live_log():
    from domain.cards import Side
    from domain.game_log import Entry, entry_to_dict
    from domain.regulation import load_preset
    from harness.simulation.games import GamePlan
    from harness.simulation.live_game import live_actions

    plan = GamePlan(10, 7, (8, 9), (), (), None, 1, None, (), Side.RED)
    moment = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
    actions = live_actions(plan, load_preset("black-raven-cup"))
    return [entry_to_dict(Entry(action, moment, 42)) for action in actions]


def test_a_game_run_live_carries_its_log_and_reads_back_the_same():
    log = _live_log()
    tournament = parse_tournament(document(log=log))
    assert len(tournament.logs[("qualifying", 1, 1)]) == len(log)
    written = json.loads(dumps_tournament(tournament))["games"][0]
    assert written["log"] == log
    assert load_tournament(dumps_tournament(tournament)) == tournament
    # A file of before has no log, and the bot writes none back.
    assert "log" not in json.loads(dumps_tournament(parse_tournament(document())))["games"][0]


def test_a_log_that_is_not_a_game_of_the_regulation_is_named_with_its_game():
    assert problems(document(log="roles")) == [
        "game 1 (qualifying, round 1, table 1): log is a list of actions"
    ]
    broken = [{"kind": "shot", "target": 3, "at": "2026-12-01T12:00:00+00:00", "judge": 1}]
    assert problems(document(log=broken)) == [
        "game 1 (qualifying, round 1, table 1): the log does not replay under the regulation: "
        "game-log-not-now {'phase': 'introduction'}"
    ]
