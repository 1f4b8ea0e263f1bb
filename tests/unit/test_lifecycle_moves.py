"""Tournament states and the guarded moves between them."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from domain.lifecycle import (
    Move,
    StageProgress,
    TableRef,
    advancing_players,
    apply,
    available_moves,
    refusal,
    stage_number,
    unfinished_stage,
)
from domain.registration import ParticipantStatus
from domain.standings import CutReport
from domain.tournament import TournamentState
from tests.unit.lifecycle_builders import player, team, tournament

S = TournamentState


def test_each_state_offers_its_own_moves() -> None:
    assert available_moves(tournament(state=S.DRAFT)) == [Move.OPEN_REGISTRATION]
    assert available_moves(tournament(state=S.REGISTRATION_OPEN)) == [Move.CLOSE_REGISTRATION]
    assert available_moves(tournament(state=S.REGISTRATION_CLOSED)) == [
        Move.REOPEN_REGISTRATION,
        Move.START_STAGE,
    ]
    running = tournament(state=S.RUNNING, current_stage="qualifying")
    assert available_moves(running) == [Move.START_STAGE]
    final = tournament(state=S.RUNNING, current_stage="final")
    assert available_moves(final) == [Move.FINISH]
    assert available_moves(tournament(state=S.FINISHED)) == []


def test_a_move_the_state_does_not_offer_is_refused() -> None:
    refused = refusal(tournament(state=S.DRAFT), Move.START_STAGE, [], [])
    assert refused is not None and refused.code == "move-not-now"


def test_registration_opens_only_with_dates_capacity_and_venue_set() -> None:
    refused = refusal(
        tournament(state=S.DRAFT, capacity=None, venue=None), Move.OPEN_REGISTRATION, [], []
    )
    assert refused is not None and refused.args == {"settings": "capacity, venue"}
    assert refusal(tournament(state=S.DRAFT), Move.OPEN_REGISTRATION, [], []) is None


def test_a_stage_does_not_start_with_fewer_players_than_one_table() -> None:
    closed = tournament(state=S.REGISTRATION_CLOSED)
    nine = [player(n) for n in range(9)] + [player(50, ParticipantStatus.WAITING)]
    refused = refusal(closed, Move.START_STAGE, nine, [])
    assert refused is not None and refused.args == {"count": 9, "needed": 10, "tables": 1}
    assert refusal(closed, Move.START_STAGE, [*nine, player(9)], []) is None


def test_a_stage_does_not_start_with_an_incomplete_team() -> None:
    closed = tournament(state=S.REGISTRATION_CLOSED, regulation_id="siberia-ural-teams")
    # siberia-ural-teams plays its qualifying at 6 tables: 20 teams of 3.
    players = [player(n, team_id=n // 3 + 1) for n in range(60)]
    teams = [team(n, captain=(n - 1) * 3) for n in range(1, 21)]
    assert refusal(closed, Move.START_STAGE, players, teams) is None
    short = [*players[:-1], player(60, team_id=1)]
    refused = refusal(closed, Move.START_STAGE, short, teams)
    assert refused is not None and refused.code == "move-incomplete-teams"
    assert refused.args["teams"] == "Команда 1, Команда 20"
    too_few = refusal(closed, Move.START_STAGE, players[:12], teams[:4])
    assert too_few is not None and too_few.args == {"count": 12, "needed": 60, "tables": 6}


def test_starting_stages_walks_through_the_regulation_then_finishes() -> None:
    state = apply(tournament(state=S.REGISTRATION_CLOSED), Move.START_STAGE)
    assert (state.state, state.current_stage, stage_number(state)) == (S.RUNNING, "qualifying", 1)
    state = apply(apply(state, Move.START_STAGE), Move.START_STAGE)
    assert (state.current_stage, stage_number(state)) == ("final", 3)
    assert apply(state, Move.FINISH).state is S.FINISHED


_NOON = datetime(2026, 12, 20, 12, 0, tzinfo=UTC)
_FINISHED = StageProgress(seated=True, windows=(_NOON - timedelta(minutes=1),))


@pytest.mark.parametrize("stage", ["qualifying", "final"])
def test_a_running_stage_is_left_only_when_it_is_finished(stage: str) -> None:
    running = tournament(state=S.RUNNING, current_stage=stage)
    (move,) = available_moves(running)
    table = TableRef(2, 5)
    held = {
        "move-stage-not-seated": StageProgress(seated=False),
        "move-rounds-unpublished": replace(_FINISHED, unpublished=(4, 5)),
        "move-tables-unconfirmed": replace(_FINISHED, unconfirmed=(table,)),
        "move-protest-pending": replace(_FINISHED, protested=(table,)),
        "move-protest-window-open": replace(_FINISHED, windows=(_NOON + timedelta(minutes=3),)),
        "move-cut-needs-lot": replace(_FINISHED, cut_open_places=2),
    }
    for code, progress in held.items():
        refused = refusal(running, move, [], [], progress, _NOON)
        assert refused is not None and refused.code == code
    assert refusal(running, move, [], [], _FINISHED, _NOON) is None


def test_a_refusal_names_the_first_round_missing_and_counts_the_rest() -> None:
    running = tournament(state=S.RUNNING, current_stage="qualifying")
    tables = (TableRef(5, 1), TableRef(4, 5), TableRef(4, 2), TableRef(6, 3))
    refused = unfinished_stage(running, replace(_FINISHED, unconfirmed=tables), _NOON)
    assert refused is not None
    assert refused.args == {"round": 4, "tables": "2, 5", "count": 2, "others": 2}
    later = replace(_FINISHED, windows=(_NOON + timedelta(minutes=9), _NOON + timedelta(minutes=2)))
    closes = unfinished_stage(running, later, _NOON)
    assert closes is not None and closes.args == {"until": "15:09"}  # Moscow time
    assert unfinished_stage(running, later, _NOON + timedelta(minutes=9)) is None


def test_the_next_stage_starts_only_when_the_cut_sends_enough_players_for_its_tables() -> None:
    # black-raven-cup's semifinal plays at 2 tables: 20 players, whatever the cut says.
    running = tournament(state=S.RUNNING, current_stage="qualifying")
    short = refusal(running, Move.START_STAGE, [], [], replace(_FINISHED, advancing=17), _NOON)
    assert short is not None and short.code == "move-too-few-players"
    assert short.args == {"count": 17, "needed": 20, "tables": 2}
    assert (
        refusal(running, Move.START_STAGE, [], [], replace(_FINISHED, advancing=20), _NOON) is None
    )
    # A stage that is not finished says so first; the last stage's finish seats nobody.
    unfinished = replace(_FINISHED, advancing=3, unpublished=(6,))
    first = refusal(running, Move.START_STAGE, [], [], unfinished, _NOON)
    assert first is not None and first.code == "move-rounds-unpublished"
    final = tournament(state=S.RUNNING, current_stage="final")
    assert refusal(final, Move.FINISH, [], [], replace(_FINISHED, advancing=3), _NOON) is None


def test_the_cut_sends_on_its_players_or_its_teams_current_players() -> None:
    players = [player(n, team_id=n // 3 + 1) for n in range(9)]
    players[1] = replace(players[1], status=ParticipantStatus.EXCLUDED)
    by_player = CutReport("qualifying", "players", 2, ("0", "1", "4"), (), False, 0)
    assert advancing_players(by_player, players) == [0, 4]
    by_team = CutReport("qualifying", "teams", 1, ("1",), (), False, 0)
    assert advancing_players(by_team, players) == [0, 2]
