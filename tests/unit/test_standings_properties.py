"""Properties of the standings that must hold for any valid set of protocols."""

import copy
import random
from dataclasses import replace
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.cards import Role, Side
from domain.protocol import Protocol, Removal, SeatRecord, validate_protocol
from domain.regulation import load_preset
from domain.scoring import score_game
from domain.standings import GameRecord, PlayerEntry, TeamEntry, compute_standings
from tests.examples import examples

TEAMS = load_preset("siberia-ural-teams")
POOL = [f"t{team}p{member}" for team in range(1, 9) for member in range(1, 4)]
PLAYERS = [PlayerEntry(player, player.upper(), player.split("p")[0]) for player in POOL]
TEAM_ENTRIES = [TeamEntry(f"t{team}", f"Team {team}") for team in range(1, 9)]
ROLES = [Role.CIVILIAN] * 6 + [Role.SHERIFF, Role.MAFIA, Role.MAFIA, Role.DON]


@st.composite
def protocols(draw, pool=POOL):
    players = draw(st.permutations(pool))[:10]
    roles = draw(st.permutations(ROLES))
    first_killed = draw(st.one_of(st.none(), st.integers(1, 10)))
    best_move: tuple[int, ...] = ()
    if first_killed is not None and roles[first_killed - 1].side is Side.RED:
        others = [seat for seat in range(1, 11) if seat != first_killed]
        best_move = tuple(draw(st.lists(st.sampled_from(others), max_size=3, unique=True)))
    receivers = [seat for seat in range(1, 11) if seat != first_killed]
    extra = dict.fromkeys(draw(st.lists(st.sampled_from(receivers), max_size=2, unique=True)))
    for seat in extra:
        extra[seat] = draw(st.sampled_from([Decimal("0.5"), Decimal("1.0")]))
    fouls = draw(st.lists(st.integers(0, 4), min_size=10, max_size=10))
    if first_killed is not None:  # a player removed for fouls cannot be shot
        fouls[first_killed - 1] = min(fouls[first_killed - 1], 3)
    seats = tuple(
        SeatRecord(
            player,
            role,
            fouls[number - 1],
            Removal.FOULS if fouls[number - 1] == 4 else None,
            extra.get(number, Decimal(0)),
        )
        for number, (player, role) in enumerate(zip(players, roles, strict=False), start=1)
    )
    night = draw(st.integers(1, 3))
    winner = draw(st.sampled_from(list(Side)))
    return Protocol(seats, winner, first_killed, night, best_move)


@st.composite
def tournaments(draw):
    count = draw(st.integers(1, 8))
    return [
        GameRecord(draw(st.sampled_from(["qualifying", "final"])), n, 1, draw(protocols()))
        for n in range(1, count + 1)
    ]


def standings(games):
    return compute_standings(TEAMS, PLAYERS, TEAM_ENTRIES, games)


@settings(max_examples=examples(60), deadline=None)
@given(protocols())
def test_a_protocol_that_passes_validation_always_scores(protocol):
    assert validate_protocol(protocol, TEAMS) == []
    scores = score_game(protocol, TEAMS)
    assert [score.seat for score in scores] == list(range(1, 11))
    assert sum(score.extra for score in scores) <= TEAMS.extra_points.total_max


@settings(max_examples=examples(40), deadline=None)
@given(tournaments(), st.randoms(use_true_random=False))
def test_the_order_of_games_and_tables_changes_nothing(games, rng: random.Random):
    shuffled = [GameRecord(g.stage, g.round, rng.randint(1, 9), g.protocol) for g in games]
    rng.shuffle(shuffled)
    assert standings(shuffled) == standings(games)


@settings(max_examples=examples(40), deadline=None)
@given(tournaments())
def test_a_teams_figures_are_its_members_sums(games):
    result = standings(games)
    for team in result.teams:
        members = [row for row in result.players if row.team == team.id]
        assert team.points == sum(row.points for row in members)
        assert team.figures.wins == sum(row.figures.wins for row in members)
        assert team.figures.games == sum(row.figures.games for row in members)


@settings(max_examples=examples(40), deadline=None)
@given(tournaments(), protocols())
def test_adding_a_game_changes_only_its_ten_players_totals(games, extra_game):
    before = {row.id: row.figures for row in standings(games).players}
    after = {
        row.id: row.figures
        for row in standings([*games, GameRecord("final", 99, 1, extra_game)]).players
    }
    seated = {seat.player for seat in extra_game.seats}
    changed = {player for player in before if before[player] != after[player]}
    assert changed == seated


CUP = load_preset("black-raven-cup")
CUP_POOL = [f"p{number}" for number in range(1, 31)]


@settings(max_examples=examples(40), deadline=None)
@given(
    st.lists(protocols(pool=CUP_POOL), min_size=3, max_size=12),
    st.sets(st.sampled_from(CUP_POOL), max_size=5),
)
def test_an_excluded_player_never_takes_a_place_in_a_cut(protocols_, excluded):
    players = [PlayerEntry(p, p.upper(), excluded=p in excluded) for p in CUP_POOL]
    games = [GameRecord("qualifying", n, 1, protocol) for n, protocol in enumerate(protocols_, 1)]
    board = compute_standings(CUP, players, [], games)
    cut = board.cuts[0]
    assert not set(cut.advancing) & excluded and not set(cut.tied_at_line) & excluded
    played = {seat.player for game in games for seat in game.protocol.seats}
    # The places the excluded leave go to the next players: the cut is as full as it can be.
    assert len(cut.advancing) + cut.open_places == min(cut.count, len(played - excluded))
    # Excluded players keep their rows (and points) below everyone still in.
    marks = [row.excluded for row in board.players]
    assert marks == sorted(marks) and {r.id for r in board.players if r.excluded} == excluded


@settings(max_examples=examples(40), deadline=None)
@given(tournaments())
def test_a_corrected_protocol_shows_right_after_the_same_games_were_ranked(games):
    # The standings computed last are given again for equal inputs: a correction read from
    # the database a moment later (the winner changed, nothing else) must not get them.
    first = games[0]
    flipped = Side.BLACK if first.protocol.winner is Side.RED else Side.RED
    corrected = [replace(first, protocol=replace(first.protocol, winner=flipped)), *games[1:]]
    before = standings(games)
    assert standings(copy.deepcopy(games)) == before
    after = standings(corrected)
    seated = {seat.player for seat in first.protocol.seats}
    wins = {row.id: row.figures.wins for row in before.players if row.id in seated}
    assert {row.id: row.figures.wins for row in after.players if row.id in seated} != wins
