"""Rounds: the organizer's swap and move, judge rotation, round counts, which
round may be published and whom a table's judge button hands it to."""

from __future__ import annotations

from datetime import datetime

import pytest

from domain.regulation import load_preset
from domain.rounds import (
    Round,
    RoundSeating,
    TableGame,
    fill_freed_seats,
    move_player,
    moved_players,
    rotate_judges,
    rounds_of_stage,
    seats_changed,
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


def test_a_freed_seat_goes_to_a_sit_out_and_nobody_else_moves() -> None:
    later = RoundSeating(tables=(tuple(range(11, 21)), tuple(range(1, 11))), sit_outs=(22, 21))
    filled = fill_freed_seats([ROUND, later], {5}, 2, {}, dict.fromkeys(range(1, 23), 0), seed=1)
    assert filled is not None
    first, second = filled
    taker = first.tables[0][4]
    assert taker in (21, 22)
    assert first.sit_outs == (({21, 22} - {taker}).pop(),)
    # Whoever sat the first round out takes the freed seat in the second: the rotation holds.
    assert second.position(first.sit_outs[0]) == (2, 5)
    assert second.sit_outs == (taker,)
    assert all(5 not in table for r in filled for table in r.tables)
    assert seats_changed([ROUND, later], filled, set(range(1, 23)) - {5}) == 2


def test_too_few_players_drop_the_last_table_and_its_players_sit_out() -> None:
    filled = fill_freed_seats([ROUND], {5}, 1, {}, dict.fromkeys(range(1, 23), 0), seed=3)
    assert filled is not None
    (only,) = filled
    assert len(only.tables) == 1
    assert only.tables[0][:4] == (1, 2, 3, 4) and only.tables[0][5:] == (6, 7, 8, 9, 10)
    assert sorted(only.sit_outs) == sorted(set(range(11, 23)) - {only.tables[0][4]})


def test_a_freed_seat_is_not_given_to_a_teammate_of_the_table() -> None:
    team_of = {21: 7, 1: 7}
    filled = fill_freed_seats([ROUND], {5}, 2, team_of, dict.fromkeys(range(1, 23), 0), seed=0)
    assert filled is not None
    assert filled[0].position(22) == (1, 5)
    assert filled[0].sit_outs == (21,)
    nobody = fill_freed_seats([ROUND], {5}, 2, team_of | {22: 7}, {}, seed=0)
    assert nobody is None


def test_filling_that_breaks_the_sit_out_rotation_is_left_to_the_generator() -> None:
    # 11 and 12 already sat out once, everyone else never: dropping table 2 benches them again.
    counts = dict.fromkeys(range(1, 23), 0) | {11: 1, 12: 1}
    assert fill_freed_seats([ROUND], {5}, 1, {}, counts, seed=0) is None


def _round(*judges: int | None, published: bool = False) -> Round:
    games = tuple(
        TableGame(id=100 + table, table=table, players=ROUND.tables[table - 1], judge_id=judge)
        for table, judge in enumerate(judges, start=1)
    )
    return Round(1, 1, games, ROUND.sit_outs, datetime(2026, 5, 1) if published else None)


def test_a_round_is_published_once_and_not_while_a_player_who_left_sits_in_it() -> None:
    assert _round(None, None).publishable(gone=())
    assert _round(None, None).publishable(gone=(21,))  # he only sat out
    assert not _round(None, None).publishable(gone=(21, 7))
    assert not _round(None, None, published=True).publishable(gone=())


def test_a_tables_judge_button_hands_it_to_the_next_free_judge_then_to_nobody() -> None:
    judges = (501, 502, 503)
    busy = _round(502, None)
    # Table 2: 502 judges table 1, so table 2 goes 501, 503, nobody, 501 again.
    table = busy.game_at(2)
    assert busy.judges_elsewhere(table) == {502}
    handed = []
    for _ in range(4):
        following = busy.next_judge(table, judges)
        handed.append(following)
        table = TableGame(table.id, table.table, table.players, following)
    assert handed == [501, 503, None, 501]
