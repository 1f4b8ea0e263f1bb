import json
from decimal import Decimal

import pytest
from pydantic import ValidationError

from domain.cards import Role
from domain.regulation import (
    PRESET_IDS,
    PRESETS_DIR,
    RegulationError,
    TieBreaker,
    load_preset,
    parse_regulation,
)


def preset_data(preset_id: str) -> dict:
    return json.loads((PRESETS_DIR / f"{preset_id}.json").read_text(encoding="utf-8"))


def test_black_raven_cup_holds_every_number_of_its_regulation():
    cup = load_preset("black-raven-cup")
    assert cup.team_size is None
    assert [(s.id, s.games_per_player, s.advance and s.advance.count) for s in cup.stages] == [
        ("qualifying", 6, 20),
        ("semifinal", 3, 10),
        ("final", 3, None),
    ]
    assert all(stage.carry_points for stage in cup.stages)
    assert {cup.win_points.for_role(role) for role in Role} == {Decimal(2)}
    assert cup.penalties.disqualification == Decimal(-1)
    assert cup.penalties.fouls_removal == 0
    assert cup.best_move.first_night_only
    assert (cup.best_move.three_black, cup.best_move.two_black) == (Decimal("0.3"), Decimal("0.2"))
    assert cup.best_move.sheriff_two_black == 0
    extra = cup.extra_points
    assert (extra.per_player_max, extra.total_max, extra.max_recipients, extra.step) == (
        Decimal("0.5"),
        Decimal("1.0"),
        3,
        Decimal("0.1"),
    )
    assert cup.tie_breakers == (
        TieBreaker.POINTS,
        TieBreaker.EXTRA_POINTS,
        TieBreaker.WINS,
        TieBreaker.WINS_AS_DON_OR_SHERIFF,
        TieBreaker.FIRST_NIGHT_DEATHS,
        TieBreaker.LOT,
    )
    assert cup.protest_window_minutes == 10
    assert cup.name.ru == "Кубок Чёрного Ворона"


def test_siberia_ural_teams_holds_every_number_of_its_regulation():
    teams = load_preset("siberia-ural-teams")
    assert teams.team_size == 3
    assert teams.individual_ranking == "points"
    assert [(s.id, s.games_per_player, s.tables) for s in teams.stages] == [
        ("qualifying", 6, 6),
        ("final", 6, 3),
    ]
    assert teams.stages[0].advance is not None
    assert (teams.stages[0].advance.unit, teams.stages[0].advance.count) == ("teams", 10)
    points = {role: teams.win_points.for_role(role) for role in Role}
    assert points == {Role.MAFIA: 4, Role.DON: 4, Role.CIVILIAN: 3, Role.SHERIFF: 3}
    assert not teams.best_move.first_night_only
    assert (teams.best_move.three_black, teams.best_move.two_black) == (1, Decimal("0.5"))
    assert not teams.extra_points.first_killed_may_receive
    assert (teams.extra_points.per_player_min, teams.extra_points.per_player_max) == (
        Decimal("0.5"),
        Decimal("1.0"),
    )
    assert teams.extra_points.total_max == 2
    assert teams.protest_window_minutes is None
    assert teams.entry_fee is not None and teams.entry_fee.amount == 500
    day_one = [(e.kind, e.time) for e in teams.timetable[0].events]
    assert day_one[1] == ("game", "12:30") and ("lunch", "15:30") in day_one
    assert teams.tie_breakers[:3] == (
        TieBreaker.POINTS,
        TieBreaker.WINS,
        TieBreaker.TIMES_NAMED_BEST,
    )


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_timetable_plans_as_many_games_as_each_stage_has(preset_id):
    regulation = load_preset(preset_id)
    for stage in regulation.stages:
        planned = sum(
            1
            for day in regulation.timetable
            for event in day.events
            if event.kind == "game" and event.stage == stage.id
        )
        assert planned == stage.games_per_player


def test_a_regulation_cannot_be_changed_once_loaded():
    with pytest.raises(ValidationError):
        load_preset("black-raven-cup").protest_window_minutes = 30


def test_unknown_preset_is_reported():
    with pytest.raises(RegulationError) as raised:
        load_preset("moscow-open")
    assert raised.value.problems[0][0] == "regulation"
    assert "moscow-open" in raised.value.problems[0][1]


def test_a_third_regulation_is_just_a_file():
    data = preset_data("black-raven-cup") | {
        "id": "omsk-open",
        "tie_breakers": ["points", "wins", "best_move_points", "lot"],
    }
    data["win_points"] = {"civilian": 1, "sheriff": 1.5, "mafia": 1, "don": 1.5}
    regulation = parse_regulation(data)
    assert regulation.win_points.for_role(Role.SHERIFF) == Decimal("1.5")
    assert regulation.tie_breakers[2] is TieBreaker.BEST_MOVE_POINTS


def test_custom_file_field_problems_are_each_reported_with_their_field():
    data = preset_data("black-raven-cup")
    data["win_points"]["don"] = -1
    data["best_move"]["eligible_roles"] = ["judge"]
    data["timetable"][0]["events"][2]["time"] = "25:00"
    data["tie_breakers"].append("charm")
    with pytest.raises(RegulationError) as raised:
        parse_regulation(data)
    fields = [path for path, _ in raised.value.problems]
    assert fields == [
        "win_points.don",
        "best_move.eligible_roles.0",
        "tie_breakers.6",
        "timetable.0.events.2.time",
    ]


def test_custom_file_inconsistencies_are_each_reported_with_their_field():
    data = preset_data("black-raven-cup")
    data["stages"][1]["advance"]["count"] = 30
    data["stages"][2]["advance"] = {"unit": "teams", "count": 3}
    data["extra_points"]["per_player_max"] = 0.55
    data["tie_breakers"] = ["wins", "lot", "wins"]
    data["timetable"][0]["events"].pop(2)
    with pytest.raises(RegulationError) as raised:
        parse_regulation(data)
    assert raised.value.problems == [
        ("stages.1.advance.count", "each cut must be smaller than the last"),
        ("stages.2.advance", "the last stage has no one to advance to"),
        ("stages.2.advance.unit", "teams advance only when team_size is set"),
        ("extra_points.per_player_max", "not a multiple of the step 0.1"),
        ("tie_breakers.0", "the chain starts with points"),
        ("tie_breakers.1", "the lot can only be the last tie-breaker"),
        ("tie_breakers.2", "'wins' is listed twice"),
        ("stages.0.games_per_player", "6 games, but the timetable plans 5"),
    ]
