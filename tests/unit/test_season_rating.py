"""Properties of the season's rating: zero sum, order independence, recompute = incremental,
a correction undone returns every rating exactly."""

from __future__ import annotations

import math
import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.season.rating import (
    RatedGame,
    RatedSeat,
    Rating,
    RatingRules,
    Side,
    compute_ratings,
    expected_red,
    game_changes,
    ranked,
    rate_game,
    ratings_from_changes,
)

RED: Side = "red"
BLACK: Side = "black"
SIDES: list[Side] = [RED] * 7 + [BLACK] * 3
POOL = list(range(1, 25))


@st.composite
def games(draw, count=None):
    total = draw(st.integers(1, 30) if count is None else count)
    result = []
    for game_id in range(1, total + 1):
        people = draw(st.permutations(POOL))[:10]
        sides = draw(st.permutations(SIDES))
        seats = tuple(RatedSeat(p, s) for p, s in zip(people, sides, strict=True))
        key = (draw(st.integers(0, 5)), draw(st.integers(1, 3)), game_id)
        winner = draw(st.sampled_from(["red", "black"]))
        result.append(RatedGame(key, game_id, key[0], seats, winner))
    return result


@st.composite
def rated_state(draw):
    ratings = {}
    for person in POOL:
        value = draw(st.floats(600, 1600))
        ratings[person] = Rating(
            value,
            draw(st.floats(600, 1600)),
            draw(st.floats(600, 1600)),
            draw(st.integers(0, 50)),
            0,
            0,
        )
    return ratings


@settings(max_examples=60, deadline=None)
@given(games(st.just(1)), rated_state())
def test_changes_sum_to_zero_when_every_k_is_equal(batch, ratings) -> None:
    rules = RatingRules(k=20.0, k_new=20.0)
    changes = game_changes(ratings, batch[0], rules)
    overall = [c.delta for c in changes if c.track == "overall"]
    sides = [c.delta for c in changes if c.track != "overall"]
    assert len(overall) == 10 and len(sides) == 10
    assert math.isclose(sum(overall), 0.0, abs_tol=1e-9)
    assert math.isclose(sum(sides), 0.0, abs_tol=1e-9)


@settings(max_examples=40, deadline=None)
@given(games())
def test_recompute_equals_incremental(batch) -> None:
    ordered = sorted(batch, key=lambda game: game.order)
    incremental: dict[int, Rating] = {}
    changes = []
    for game in ordered:
        changes.extend(rate_game(incremental, game))
    ledger = compute_ratings(batch)
    assert ledger.ratings == incremental
    assert ledger.changes == changes


@settings(max_examples=40, deadline=None)
@given(games(), st.randoms(use_true_random=False))
def test_insertion_order_does_not_matter(batch, rnd: random.Random) -> None:
    shuffled = list(batch)
    rnd.shuffle(shuffled)
    assert compute_ratings(shuffled).ratings == compute_ratings(batch).ratings


@settings(max_examples=40, deadline=None)
@given(games(st.integers(2, 30)), st.data())
def test_correction_and_undo_return_every_rating_exactly(batch, data) -> None:
    ordered = sorted(batch, key=lambda game: game.order)
    original = compute_ratings(ordered)
    index = data.draw(st.integers(0, len(ordered) - 1))
    target = ordered[index]
    flipped = replace(target, winner="black" if target.winner == "red" else "red")

    def recompute_from(ledger, games_now, position):
        before_ids = {game.game_id for game in games_now[:position]}
        start = ratings_from_changes(c for c in ledger.changes if c.game_id in before_ids)
        tail = compute_ratings(games_now[position:], start=start)
        kept = [c for c in ledger.changes if c.game_id in before_ids]
        return tail.ratings, kept + tail.changes

    corrected_games = [*ordered[:index], flipped, *ordered[index + 1 :]]
    ratings, changes = recompute_from(original, corrected_games, index)
    assert ratings == compute_ratings(corrected_games).ratings
    corrected = type(original)(ratings, changes)
    undone, undone_changes = recompute_from(corrected, ordered, index)
    assert undone == original.ratings
    assert undone_changes == original.changes


def test_k_factor_is_larger_for_first_games() -> None:
    rules = RatingRules(k=16.0, k_new=32.0, new_games=2)
    seats = tuple(RatedSeat(p, s) for p, s in zip(range(1, 11), SIDES, strict=True))
    game = RatedGame((1,), 1, 1, seats, "red")
    ratings: dict[int, Rating] = {}
    first = rate_game(ratings, game, rules)
    rate_game(ratings, replace(game, game_id=2, key=(2,)), rules)
    third = rate_game(ratings, replace(game, game_id=3, key=(3,)), rules)
    assert first[0].delta > 0
    assert third[0].delta < first[0].delta


def test_expected_score_of_equal_sides_is_even() -> None:
    assert expected_red(1000.0, 1000.0) == pytest.approx(0.5)
    assert expected_red(1400.0, 1000.0) == pytest.approx(10 / 11)


def test_side_tracks_move_only_the_side_played() -> None:
    seats = tuple(RatedSeat(p, s) for p, s in zip(range(1, 11), SIDES, strict=True))
    ledger = compute_ratings([RatedGame((1,), 1, 1, seats, "black")])
    red_player, black_player = ledger.ratings[1], ledger.ratings[10]
    assert red_player.red < 1000.0 and red_player.black == 1000.0
    assert black_player.black > 1000.0 and black_player.red == 1000.0
    assert (red_player.games, red_player.red_games, red_player.black_games) == (1, 1, 0)
    assert ranked(ledger.ratings)[0][0] in {8, 9, 10}
