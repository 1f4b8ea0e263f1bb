"""Tournament states and the guarded moves between them."""

from __future__ import annotations

from domain.lifecycle import Move, apply, available_moves, refusal, stage_number
from domain.registration import ParticipantStatus
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
    assert refused is not None and refused.args == {"count": 9, "needed": 10}
    assert refusal(closed, Move.START_STAGE, [*nine, player(9)], []) is None


def test_a_stage_does_not_start_with_an_incomplete_team() -> None:
    closed = tournament(state=S.REGISTRATION_CLOSED, regulation_id="siberia-ural-teams")
    players = [player(n, team_id=n // 3 + 1) for n in range(12)]
    teams = [team(n, captain=(n - 1) * 3) for n in range(1, 5)]
    assert refusal(closed, Move.START_STAGE, players, teams) is None
    short = players[:-1]
    refused = refusal(closed, Move.START_STAGE, short, teams)
    assert refused is not None and refused.code == "move-incomplete-teams"
    assert refused.args["teams"] == "Команда 4"


def test_starting_stages_walks_through_the_regulation_then_finishes() -> None:
    state = apply(tournament(state=S.REGISTRATION_CLOSED), Move.START_STAGE)
    assert (state.state, state.current_stage, stage_number(state)) == (S.RUNNING, "qualifying", 1)
    state = apply(apply(state, Move.START_STAGE), Move.START_STAGE)
    assert (state.current_stage, stage_number(state)) == ("final", 3)
    assert apply(state, Move.FINISH).state is S.FINISHED
