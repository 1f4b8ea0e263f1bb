"""Rounds: the organizer's swap and move, judge rotation, round counts and channel posts."""

from __future__ import annotations

import pytest

from domain.regulation import load_preset
from domain.rounds import (
    RoundSeating,
    move_player,
    moved_players,
    rotate_judges,
    rounds_of_stage,
    split_blocks,
    swap_players,
)
from domain.validation import Invalid

ROUND = RoundSeating(
    tables=(tuple(range(1, 11)), tuple(range(11, 21))),
    sit_outs=(21, 22),
)


def test_a_swap_exchanges_places_across_tables_and_with_a_sit_out() -> None:
    swapped = swap_players(ROUND, 3, 14, {})
    assert swapped.position(3) == (2, 4)
    assert swapped.position(14) == (1, 3)
    benched = swap_players(ROUND, 21, 5, {})
    assert benched.position(21) == (1, 5)
    assert 5 in benched.sit_outs
    assert moved_players(ROUND, benched) == [5, 21]


@pytest.mark.parametrize(
    ("first", "second", "code"),
    [
        (3, 3, "round-edit-same-player"),
        (21, 22, "round-edit-both-sit-out"),
        (3, 99, "round-edit-not-in-round"),
    ],
)
def test_a_swap_that_makes_no_sense_is_refused(first: int, second: int, code: str) -> None:
    with pytest.raises(Invalid) as refused:
        swap_players(ROUND, first, second, {})
    assert refused.value.code == code


def test_an_edit_that_seats_teammates_together_is_refused() -> None:
    team_of = {3: 7, 14: 7}
    with pytest.raises(Invalid) as refused:
        swap_players(ROUND, 4, 14, team_of)
    assert refused.value.code == "round-edit-teammates"
    assert refused.value.args_ == {"table": 1, "first": 3, "second": 14}


def test_a_move_puts_the_seats_occupant_in_the_movers_old_place() -> None:
    moved = move_player(ROUND, 22, 2, 10, {})
    assert moved.position(22) == (2, 10)
    assert 20 in moved.sit_outs
    with pytest.raises(Invalid):
        move_player(ROUND, 1, 3, 1, {})


def test_judges_rotate_so_each_moves_table_and_none_judges_two() -> None:
    for judges in ([11, 12], [11, 12, 13, 14, 15]):
        seen_at_table_one = set()
        for r in range(6):
            round_judges = rotate_judges(judges, 2, r)
            assert len(set(round_judges)) == 2
            seen_at_table_one.add(round_judges[0])
        assert seen_at_table_one == set(judges)
    assert rotate_judges([11], 3, 0) == (11, None, None)
    assert rotate_judges([], 2, 0) == (None, None)


def test_rounds_give_every_player_the_stages_games_when_some_sit_out() -> None:
    qualifying = load_preset("black-raven-cup").stage("qualifying")
    assert rounds_of_stage(qualifying, 100, 10) == 6
    assert rounds_of_stage(qualifying, 95, 9) == 7


def test_a_long_channel_post_splits_between_tables_within_the_limit() -> None:
    blocks = [
        f"<b>{t}</b>\n" + "\n".join(f"{s}. Игрок{t}_{s}" for s in range(1, 11))
        for t in range(1, 31)
    ]
    parts = split_blocks(blocks, 1000)
    assert len(parts) > 1
    assert all(len(part) <= 1000 for part in parts)
    assert "\n\n".join(parts) == "\n\n".join(blocks)
