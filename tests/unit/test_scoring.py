from decimal import Decimal

import pytest

from domain.cards import Role
from domain.regulation import load_preset
from domain.scoring import score_game
from tests.unit.protocol_builders import protocol

CUP = load_preset("black-raven-cup")
TEAMS = load_preset("siberia-ural-teams")
D = Decimal


def totals(game, regulation):
    return [score.total for score in score_game(game, regulation)]


def test_cup_every_winner_gets_two_points_and_losers_nothing():
    assert totals(protocol(winner="red"), CUP) == [D(2)] * 7 + [D(0)] * 3
    assert totals(protocol(winner="black"), CUP) == [D(0)] * 7 + [D(2)] * 3


def test_team_tournament_pays_black_four_and_red_three():
    assert totals(protocol(winner="black"), TEAMS) == [D(0)] * 7 + [D(4)] * 3
    assert totals(protocol(winner="red"), TEAMS) == [D(3)] * 7 + [D(0)] * 3


@pytest.mark.parametrize(
    ("victim", "named", "points"),
    [
        (3, (8, 9, 10), D("0.3")),  # a civilian, three blacks
        (3, (8, 9, 1), D("0.2")),  # a civilian, two blacks
        (3, (8, 1, 2), D(0)),  # one black earns nothing
        (7, (8, 9, 10), D("0.3")),  # the sheriff, three blacks (11.1.5)
        (7, (8, 9, 1), D(0)),  # the sheriff, two blacks: 11.1.5 names only three
    ],
)
def test_cup_best_move(victim, named, points):
    scores = score_game(protocol(winner="black", first_killed=victim, best_move=named), CUP)
    assert scores[victim - 1].best_move == points
    assert sum(score.best_move for score in scores) == points


@pytest.mark.parametrize(
    ("victim", "named", "points"),
    [(3, (8, 9, 10), D(1)), (3, (8, 9, 1), D("0.5")), (7, (8, 10, 1), D("0.5"))],
)
def test_team_tournament_best_move_whatever_the_night(victim, named, points):
    game = protocol(winner="black", first_killed=victim, night=2, best_move=named)
    assert score_game(game, TEAMS)[victim - 1].best_move == points


def test_no_best_move_points_after_a_miss_on_the_first_night_in_the_cup():
    game = protocol(first_killed=3, night=2, best_move=(8, 9, 10))
    assert score_game(game, CUP)[2].best_move == 0


def test_cup_disqualification_costs_one_point_and_keeps_the_team_result():
    game = protocol(winner="red", fouls={2: 1, 8: 4}, removed={2: "disqualified", 8: "fouls"})
    scores = score_game(game, CUP)
    assert (scores[1].win, scores[1].penalty, scores[1].total) == (D(2), D(-1), D(1))
    assert scores[7].total == 0  # the 4th foul costs nothing by default
    blacks_win = protocol(winner="black", removed={9: "disqualified"})
    assert score_game(blacks_win, CUP)[8].total == D(1)


def test_team_tournament_removal_costs_nothing():
    game = protocol(winner="black", removed={10: "disqualified"})
    assert score_game(game, TEAMS)[9].total == D(4)


def test_breakdown_explains_the_total():
    game = protocol(
        winner="red", first_killed=3, best_move=(8, 9, 1), extra={3: "0.5", 1: "0.3", 2: "0.2"}
    )
    victim = score_game(game, CUP)[2]
    assert (victim.role, victim.win, victim.best_move, victim.extra, victim.penalty) == (
        Role.CIVILIAN,
        D(2),
        D("0.2"),
        D("0.5"),
        D(0),
    )
    assert victim.total == D("2.7")
    assert victim.first_night_death and victim.won
    assert sum(totals(game, CUP)) == D(14) + D("0.2") + D("1.0")


def test_team_tournament_extra_points_at_the_limits():
    game = protocol(winner="black", extra={8: "1.0", 1: "1.0"})
    scores = score_game(game, TEAMS)
    assert (scores[7].total, scores[0].total) == (D(5), D(1))
