"""Team completion, membership changes and the no-withdrawal-after-start rule."""

from __future__ import annotations

import pytest

from domain.registration import ParticipantStatus
from domain.teams import (
    check_can_join,
    check_may_remove,
    check_may_withdraw,
    check_name_free,
    incomplete_teams,
    is_complete,
)
from domain.tournament import TournamentState
from domain.validation import Invalid
from tests.unit.lifecycle_builders import player, team, tournament


def test_a_team_is_complete_at_the_regulations_size_with_every_member_playing() -> None:
    crew = team(1, captain=1)
    members = [player(n, team_id=1) for n in (1, 2, 3)]
    assert is_complete(crew, members, 3)
    members[2] = player(3, ParticipantStatus.WAITING, team_id=1)
    assert not is_complete(crew, members, 3)
    assert incomplete_teams([crew, team(2, captain=9)], members, 3) == [crew]


def test_a_full_or_withdrawn_team_takes_nobody_more() -> None:
    members = [player(n, team_id=1) for n in (1, 2, 3)]
    with pytest.raises(Invalid) as refused:
        check_can_join(team(1, captain=1), members, 3)
    assert refused.value.code == "team-full"
    with pytest.raises(Invalid):
        check_can_join(team(1, captain=1, withdrawn=True), [], 3)
    check_can_join(team(1, captain=1), members[:2], 3)


def test_team_names_are_unique_in_a_tournament_ignoring_case() -> None:
    with pytest.raises(Invalid):
        check_name_free("сибирь", [team(1, captain=1, name="Сибирь")])
    check_name_free("Сибирь", [team(1, captain=1, name="Сибирь", withdrawn=True)])


def test_the_captain_removes_a_member_only_before_the_start_and_never_himself() -> None:
    crew = team(1, captain=1)
    member = player(2, team_id=1)
    check_may_remove(tournament(), crew, member)
    with pytest.raises(Invalid):
        check_may_remove(tournament(), crew, player(1, team_id=1))
    with pytest.raises(Invalid):
        check_may_remove(tournament(), crew, player(5, team_id=2))
    with pytest.raises(Invalid) as refused:
        check_may_remove(tournament(state=TournamentState.RUNNING), crew, member)
    assert refused.value.code == "team-change-after-start"


def test_a_team_cannot_withdraw_once_the_tournament_has_started() -> None:
    check_may_withdraw(tournament(state=TournamentState.REGISTRATION_CLOSED))
    for state in (TournamentState.RUNNING, TournamentState.FINISHED):
        with pytest.raises(Invalid) as refused:
            check_may_withdraw(tournament(state=state))
        assert refused.value.code == "team-withdraw-after-start"
