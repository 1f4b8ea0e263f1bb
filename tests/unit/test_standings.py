import json
from datetime import UTC, datetime
from decimal import Decimal

import pytest

from domain.lot_draw import Lot, LotDraw
from domain.regulation import PRESETS_DIR, load_preset, parse_regulation
from domain.standings import GameRecord, PlayerEntry, TeamEntry, compute_standings
from domain.tie_decisions import LotDecision, Tie, recorded_lot
from tests.unit.protocol_builders import protocol

CUP = load_preset("black-raven-cup")
TEAMS = load_preset("siberia-ural-teams")


def seats(*names):
    """Ten players: the given ones first, then fillers unique to this table."""
    fillers = [f"{names[0]}-x{n}" for n in range(10 - len(names))]
    return [*names, *fillers]


def standings(regulation, games, lot=None, teams=()):
    ids = []
    for game in games:
        ids.extend(seat.player for seat in game.protocol.seats if seat.player not in ids)
    team_of = {member: team.id for team in teams for member in team.name.split(",")}
    players = [PlayerEntry(player, player.upper(), team_of.get(player)) for player in ids]
    return compute_standings(regulation, players, list(teams), games, lot)


def game(stage, table, proto, round_=1):
    return GameRecord(stage, round_, table, proto)


def order(rows, *ids):
    position = {row.id: row for row in rows}
    return [(position[i].place, position[i].lot, position[i].tied) for i in ids]


def test_cup_more_extra_points_decide_between_equal_points():
    # a: win + 0.5 extra; b: win + best move 0.3 + 0.2 extra; both 2.5
    proto = protocol(
        seats("b", "a"), first_killed=1, best_move=(8, 9, 10), extra={1: "0.2", 2: "0.5"}
    )
    rows = standings(CUP, [game("qualifying", 1, proto)]).players
    assert [row.id for row in rows[:2]] == ["a", "b"]
    assert rows[0].points == rows[1].points == Decimal("2.5")


def test_cup_more_wins_decide_between_equal_points_and_extras():
    # a: two wins, disqualified in both (2 - 1 twice); b: one win
    games = [
        game("qualifying", 1, protocol(seats("a"), removed={1: "disqualified"})),
        game("qualifying", 2, protocol(["a", *seats("a2")[1:]], removed={1: "disqualified"})),
        game("qualifying", 3, protocol(seats("b"))),
    ]
    rows = standings(CUP, games).players
    a, b = (next(r for r in rows if r.id == i) for i in ("a", "b"))
    assert (a.points, a.figures.wins, b.points, b.figures.wins) == (2, 2, 2, 1)
    assert a.place < b.place


def test_cup_wins_as_don_or_sheriff_decide_next():
    games = [
        game("qualifying", 1, protocol(seats("a", "x1"), roles="DCCCCCCSMM", winner="black")),
        game("qualifying", 2, protocol(seats("b"), winner="red")),
    ]
    rows = standings(CUP, games).players
    assert order(rows, "a", "b")[0][0] < order(rows, "a", "b")[1][0]


def test_cup_first_night_deaths_decide_next():
    proto = protocol(seats("a", "b"), winner="black", first_killed=1, best_move=(2, 3, 8))
    rows = standings(CUP, [game("qualifying", 1, proto)]).players
    places = dict((row.id, row.place) for row in rows)
    assert places["a"] < places["b"]
    assert next(r for r in rows if r.id == "a").figures.first_night_deaths == 1


def test_team_tournament_times_named_best_decide_after_wins():
    # a: civilian win 3 + extra 1.0; b: mafia win 4; both 4 points and 1 win
    games = [
        game("qualifying", 1, protocol(seats("a"), extra={1: "1.0"})),
        game("qualifying", 2, protocol(seats("b", "x"), roles="MCCCCCCSMD", winner="black")),
    ]
    rows = standings(TEAMS, games).players
    a, b = (next(r for r in rows if r.id == i) for i in ("a", "b"))
    assert a.points == b.points == 4 and a.place < b.place


@pytest.mark.parametrize(
    ("roles_a", "roles_b", "winner"),
    [
        ("DCCCCCCSMM", "MCCCCCCSMD", "black"),  # don before mafia
        ("SCCCCCCMMD", "CCCCCCSMMD", "red"),  # sheriff before civilian
    ],
)
def test_team_tournament_wins_by_role_decide_in_order(roles_a, roles_b, winner):
    games = [
        game("qualifying", 1, protocol(seats("a"), roles=roles_a, winner=winner)),
        game("qualifying", 2, protocol(seats("b"), roles=roles_b, winner=winner)),
    ]
    rows = standings(TEAMS, games).players
    assert order(rows, "a")[0][0] < order(rows, "b")[0][0]


def test_team_tournament_wins_as_mafia_then_first_night_deaths():
    games = [
        game("qualifying", 1, protocol(seats("a"), roles="MCCCCCCSMD", winner="black")),
        # b: civilian win 3 + best move 1.0 as the first victim = 4
        game("qualifying", 2, protocol(seats("b"), first_killed=1, best_move=(8, 9, 10))),
        game("qualifying", 3, protocol(seats("c", "d"), winner="black", first_killed=1)),
    ]
    rows = standings(TEAMS, games).players
    a, b, c, d = order(rows, "a", "b", "c", "d")
    assert a[0] < b[0] and c[0] < d[0]


def test_a_tie_through_the_chain_shares_a_place_until_a_lot_is_drawn():
    # two mafia winners: equal on every figure (their don is ahead by his don win)
    proto = protocol(seats("x", "y", "z", "u", "v", "w", "s", "a", "b", "d"), winner="black")
    undecided = standings(CUP, [game("qualifying", 1, proto)]).players
    assert order(undecided, "d", "a", "b") == [
        (1, False, False),
        (2, False, True),
        (2, False, True),
    ]
    drawn = standings(CUP, [game("qualifying", 1, proto)], Lot(order=("b", "a", *"stuvwxyz")))
    assert [row.id for row in drawn.players[:3]] == ["d", "b", "a"]
    assert drawn.players[1].lot and drawn.players[2].lot and not drawn.players[0].lot
    assert drawn.lot_draws[0].context == "players"
    assert set(drawn.lot_draws[0].tied) == {"a", "b"}


def test_a_seeded_lot_is_reproducible():
    proto = protocol(seats("a", "b", "c"))
    first = standings(CUP, [game("qualifying", 1, proto)], Lot(seed="42")).players
    again = standings(CUP, [game("qualifying", 1, proto)], Lot(seed="42")).players
    assert [row.id for row in first] == [row.id for row in again]


def thirty_players_one_round():
    return [
        game("qualifying", 1, protocol([f"a{n}" for n in range(10)], winner="red")),
        game("qualifying", 2, protocol([f"b{n}" for n in range(10)], winner="red")),
        game("qualifying", 3, protocol([f"c{n}" for n in range(10)], winner="black")),
    ]


def test_the_cut_line_inside_a_tie_is_reported_and_needs_a_lot():
    # 17 winners with 2 points; the other 13 tie at 0 for the last 3 places of 20
    cut = standings(CUP, thirty_players_one_round()).cuts[0]
    assert (cut.stage, cut.unit, cut.count) == ("qualifying", "players", 20)
    assert len(cut.advancing) == 17 and len(cut.tied_at_line) == 13
    assert cut.needs_lot and cut.open_places == 3 and not cut.settled_by_lot


def test_the_cut_line_settled_by_a_recorded_lot():
    result = standings(CUP, thirty_players_one_round(), Lot(seed="cup"))
    cut = result.cuts[0]
    assert len(cut.advancing) == 20 and cut.settled_by_lot and not cut.needs_lot
    draw = next(d for d in result.lot_draws if d.context == "cut qualifying")
    winners = {f"{t}{n}" for t in "ab" for n in range(7)} | {"c7", "c8", "c9"}
    assert set(cut.advancing) - winners == set(draw.order[:3])


CIVILIANS = ("p1", "p2", "p3", "p4", "p5", "p6")
BLACK = ("p8", "p9", "p10")


def final_won_by_red():
    """One final game, red wins: the sheriff p7 is first (a win as sheriff), the civilians
    p1-p6 share places 2-7 and the black p8-p10 places 8-10, equal on every tie-breaker."""
    players = [f"p{n}" for n in range(1, 11)]
    return [game("final", 1, protocol(players))]


def decision(unit, tied, method, order):
    when = datetime(2026, 12, 20, 12, 0, tzinfo=UTC)
    return LotDecision(1, Tie(unit, "places", tied), method, "s33d", order, 2, when)


def places(rows):
    return {row.id: (row.place, row.lot, row.tied) for row in rows}


def test_each_decision_settles_its_own_tie_with_its_own_method():
    judge = decision("players", CIVILIANS, "order", ("p6", "p5", "p4", "p3", "p2", "p1"))
    result = standings(CUP, final_won_by_red(), recorded_lot([judge]))
    rows = places(result.players)
    assert rows["p7"] == (1, False, False)
    assert [rows[p] for p in ("p6", "p5", "p4", "p3", "p2", "p1")] == [
        (place, True, False) for place in range(2, 8)
    ]
    # No decision covers the black players' tie: it keeps sharing place 8, no lot mark.
    assert [rows[p] for p in BLACK] == [(8, False, True)] * 3
    assert result.lot_draws == (
        LotDraw("players", CIVILIANS, ("p6", "p5", "p4", "p3", "p2", "p1"), "order"),
    )
    seed = decision("players", BLACK, "seed", ("p10", "p8", "p9"))
    both = standings(CUP, final_won_by_red(), recorded_lot([judge, seed]))
    rows = places(both.players)
    assert [rows[p] for p in ("p10", "p8", "p9")] == [
        (8, True, False),
        (9, True, False),
        (10, True, False),
    ]
    assert [(draw.tied, draw.method) for draw in both.lot_draws] == [
        (CIVILIANS, "order"),
        (("p10", "p8", "p9"), "seed"),
    ]


def test_a_decision_on_the_cut_line_leaves_the_ties_above_it_shared():
    # The 13 who lost share 18th-30th place for the last 3 places of 20; the judge orders them.
    losers = tuple(sorted(("a7", "a8", "a9", "b7", "b8", "b9", *(f"c{n}" for n in range(7)))))
    judge = decision("players", losers, "order", tuple(reversed(losers)))
    result = standings(CUP, thirty_players_one_round(), recorded_lot([judge]))
    cut = result.cuts[0]
    assert cut.settled_by_lot and not cut.needs_lot
    assert set(cut.advancing) & set(losers) == {"c6", "c5", "c4"}
    rows = places(result.players)
    # Twelve civilians and the two winning mafia tie at 2 points: still one shared place.
    winners = [f"{t}{n}" for t in "ab" for n in range(6)] + ["c7", "c8"]
    assert {rows[w] for w in winners} == {(4, False, True)}
    assert [draw.method for draw in result.lot_draws] == ["order", "order"]
    assert {draw.context for draw in result.lot_draws} == {"players", "cut qualifying"}


def test_a_lot_for_every_tie_settles_them_all_as_the_command_line_draws_it():
    every = Lot(order=("p3", "p1", "p2", "p4", "p5", "p6", "p9", "p8", "p10"))
    rows = places(standings(CUP, final_won_by_red(), every).players)
    assert [rows[p][0] for p in ("p3", "p1", "p2", "p4", "p5", "p6", "p9", "p8", "p10")] == list(
        range(2, 11)
    )
    assert all(rows[p][1] and not rows[p][2] for p in (*CIVILIANS, *BLACK))
    seeded = standings(CUP, final_won_by_red(), Lot(seed="cup"))
    assert [(draw.method, len(draw.tied)) for draw in seeded.lot_draws] == [
        ("seed", 6),
        ("seed", 3),
    ]
    assert not any(row.tied for row in seeded.players)


def test_finalists_rank_above_semifinalists_whatever_their_points():
    games = [
        game("qualifying", 1, protocol(seats("q"), extra={1: "0.5"})),
        game("final", 1, protocol(seats("f"), winner="black")),
    ]
    rows = standings(CUP, games).players
    assert rows[0].stage == "final" and rows[-1].stage == "qualifying"
    assert order(rows, "f")[0][0] < order(rows, "q")[0][0]


def test_team_tournament_ranks_players_by_points_alone_and_teams_by_stage():
    games = [
        game("qualifying", 1, protocol(seats("q1", "q2", "q3"), extra={1: "1.0"})),
        game("final", 1, protocol(seats("f1", "f2", "f3"), winner="black")),
    ]
    teams = [TeamEntry("tq", "q1,q2,q3"), TeamEntry("tf", "f1,f2,f3")]
    result = standings(TEAMS, games, teams=teams)
    assert result.players[0].id == "q1" and result.players[0].points == 4
    assert [row.id for row in result.teams] == ["tf", "tq"]
    team_q = result.teams[1]
    assert team_q.points == Decimal(10) and team_q.figures.wins == 3
    assert team_q.figures.times_named_best == 1


def test_a_stage_that_does_not_carry_points_is_ranked_on_its_own_games():
    data = json.loads((PRESETS_DIR / "black-raven-cup.json").read_text(encoding="utf-8"))
    data["stages"][2]["carry_points"] = False
    fresh_final = parse_regulation(data)
    games = [
        game("qualifying", 1, protocol(seats("a"), winner="red")),
        game("final", 1, protocol(seats("a", "b"), winner="black", extra={2: "0.5"})),
    ]
    rows = standings(fresh_final, games).players
    a, b = (next(r for r in rows if r.id == i) for i in ("a", "b"))
    assert (a.points, b.points) == (0, Decimal("0.5")) and b.place < a.place
    carried = standings(CUP, games).players
    assert next(r for r in carried if r.id == "a").points == 2


def test_a_game_with_an_unregistered_player_is_refused():
    with pytest.raises(ValueError, match="not registered"):
        compute_standings(CUP, [], [], [game("qualifying", 1, protocol())])


def test_players_without_games_are_listed_last_with_no_stage():
    players = [PlayerEntry(f"p{n}", f"P{n}") for n in range(1, 12)]
    result = compute_standings(CUP, players, [], [game("qualifying", 1, protocol())])
    assert result.players[-1].id == "p11" and result.players[-1].stage is None


def test_players_and_teams_with_the_same_ids_keep_their_own_names() -> None:
    # The bot numbers players and teams from 1 each: player "1" and team "1" coexist.
    players = [PlayerEntry(str(n), f"Игрок {n}", "1" if n <= 3 else None) for n in range(1, 11)]
    teams = [TeamEntry("1", "Омск-1")]
    games = [game("qualifying", 1, protocol([str(n) for n in range(1, 11)]))]
    result = compute_standings(TEAMS, players, teams, games)
    assert {row.name for row in result.players} == {f"Игрок {n}" for n in range(1, 11)}
    assert [(row.name, row.team) for row in result.teams] == [("Омск-1", None)]
    player_one = next(row for row in result.players if row.id == "1")
    assert player_one.team == "1"
