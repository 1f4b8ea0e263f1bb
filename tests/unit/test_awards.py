"""The regulation's nominations: the best player of each role, by the points earned in it."""

from __future__ import annotations

from decimal import Decimal

from domain.awards import RoleFigures, role_awards, role_figures
from domain.cards import Role
from domain.regulation import load_preset
from domain.standings import GameRecord
from tests.unit.protocol_builders import protocol

CUP = load_preset("black-raven-cup")
TEAMS = load_preset("siberia-ural-teams")
D = Decimal


def game(number: int, **kwargs: object) -> GameRecord:
    return GameRecord("qualifying", number, 1, protocol(**kwargs))  # type: ignore[arg-type]


def by_role(awards):
    return {award.role: award for award in awards}


def test_both_presets_name_the_four_role_nominations():
    assert CUP.awards == TEAMS.awards == (Role.SHERIFF, Role.DON, Role.CIVILIAN, Role.MAFIA)


def test_a_role_goes_to_the_most_points_earned_playing_it():
    # p7 is the sheriff in both games and wins one; p1 plays the don in the second and wins.
    first = game(1, winner="red", extra={7: "0.3"})
    second = game(
        2,
        players=["p10", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9", "p1"],
        winner="black",
    )
    awards = by_role(role_awards(CUP, [first, second]))
    assert awards[Role.SHERIFF].players == ("p7",)
    assert awards[Role.SHERIFF].figures == RoleFigures(D("2.3"), D("0.3"), 1, 2)
    assert awards[Role.DON].players == ("p1",)
    assert awards[Role.DON].figures.points == D(2)
    # Mafia: p8 and p9 won the second game as mafia; level on everything, they share it.
    assert awards[Role.MAFIA].players == ("p8", "p9")
    # Civilians: p2..p6 won the first and lost the second, 2 points in 2 games; p1 earned
    # the same in his only game as a civilian.
    assert awards[Role.CIVILIAN].players == ("p1",)


def test_a_tie_goes_to_extra_points_then_wins_then_fewer_games():
    extra = game(1, winner="black", extra={1: "0.5", 2: "0.5"})
    win = game(2, players=[f"q{n}" for n in range(1, 11)], winner="red", extra={1: "0.5"})
    figures = role_figures(CUP, [extra, win])[Role.CIVILIAN]
    assert figures["p1"] == RoleFigures(D("0.5"), D("0.5"), 0, 1)
    assert figures["q1"] == RoleFigures(D("2.5"), D("0.5"), 1, 1)
    assert by_role(role_awards(CUP, [extra, win]))[Role.CIVILIAN].players == ("q1",)
    # Same points and extra points: the one with fewer games in the role wins it.
    assert RoleFigures(D(2), D(0), 1, 1).rank_key() > RoleFigures(D(2), D(0), 1, 2).rank_key()
    assert RoleFigures(D(2), D(1), 0, 3).rank_key() > RoleFigures(D(2), D(0), 1, 1).rank_key()


def test_nobody_is_named_for_nothing_and_an_excluded_player_is_never_named():
    lost = game(1, winner="black")
    awards = by_role(role_awards(CUP, [lost], excluded={"p10"}))
    assert awards[Role.SHERIFF].players == ()  # the sheriff earned nothing
    assert awards[Role.DON].players == ()  # the don won, but is excluded
    assert awards[Role.MAFIA].players == ("p8", "p9")


def test_a_regulation_that_names_no_nomination_gets_none():
    assert role_awards(CUP.model_copy(update={"awards": ()}), [game(1)]) == ()


def test_team_tournament_role_points_follow_its_win_points():
    awards = by_role(role_awards(TEAMS, [game(1, winner="black")]))
    assert awards[Role.DON].figures.points == D(4)
