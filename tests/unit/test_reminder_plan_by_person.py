"""A participant's reminders replanned alone, one change after another, end as the whole
tournament's plan rebuilt from everyone would (`domain.reminder_plan.person_reminders`); in a
team tournament with his teams' (the one he left and the one he joined: `team_reminders`)."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.outgoing import ScheduledPush
from domain.registration import Participant, ParticipantStatus
from domain.reminder_plan import (
    ReminderFacts,
    person_keys,
    person_reminders,
    plan_reminders,
    plans_by_person,
    team_keys,
    team_reminders,
)
from domain.teams import Team
from domain.tournament import Tournament, TournamentState
from tests.unit.lifecycle_builders import player, team, tournament

DEADLINE = datetime(2026, 12, 19, 18, 0, tzinfo=UTC)
# The organizer's times (the Black Raven cup has none of its own): check-in opens at 11:00.
TIMES = json.dumps(
    [{"day": 1, "events": [{"kind": "game", "time": "11:00", "stage": "qualifying"}]}]
)

# One change of one participant: who (a number), and what he becomes.
_changes = st.tuples(
    st.integers(min_value=1, max_value=12),
    st.sampled_from(list(ParticipantStatus)),
    st.booleans(),  # paid
    st.booleans(),  # checked in
    st.booleans(),  # has a Telegram account (a player the organizer added has none)
)


def _by_key(pushes: list[ScheduledPush]) -> dict[str, ScheduledPush]:
    return {push.key: push for push in pushes}


def _cup(state: TournamentState, fee: bool) -> Tournament:
    return tournament(
        state=state,
        registration_deadline=DEADLINE,
        entry_fee=Decimal("500") if fee else None,
        timetable_json=TIMES,
    )


def _apply(
    plan: dict[str, ScheduledPush], cup: Tournament, participant: Participant
) -> dict[str, ScheduledPush]:
    kept = {k: v for k, v in plan.items() if k not in person_keys(cup.id, participant.id)}
    return kept | _by_key(person_reminders(cup, participant))


@settings(max_examples=150, deadline=None)
@given(
    state=st.sampled_from(
        [
            TournamentState.DRAFT,
            TournamentState.REGISTRATION_OPEN,
            TournamentState.REGISTRATION_CLOSED,
        ]
    ),
    fee=st.booleans(),
    changes=st.lists(_changes, max_size=40),
)
def test_single_person_updates_end_as_the_whole_plan_rebuilt(
    state: TournamentState,
    fee: bool,
    changes: list[tuple[int, ParticipantStatus, bool, bool, bool]],
) -> None:
    cup = _cup(state, fee)
    assert plans_by_person(cup)
    everyone: dict[int, Participant] = {}
    plan = _by_key(plan_reminders(ReminderFacts(tournament=cup, participants=())))
    for number, status, paid, checked_in, reachable in changes:
        changed = replace(
            player(number, status),
            paid=paid,
            checked_in=checked_in,
            user_id=1000 + number if reachable else None,
        )
        everyone[number] = changed
        plan = _apply(plan, cup, changed)
        whole = plan_reminders(ReminderFacts(tournament=cup, participants=list(everyone.values())))
        assert plan == _by_key(whole)


def test_the_cup_of_the_property_names_a_persons_fee_and_check_in() -> None:
    # Not a vacuous property: an unpaid player not checked in has both reminders.
    cup = _cup(TournamentState.REGISTRATION_OPEN, fee=True)
    keys = [push.key for push in person_reminders(cup, player(1))]
    assert keys == ["reminder:1:unpaid:1", "reminder:1:checkin:1"]


# One change in a team tournament: who (a number), what he becomes, and his team (a number,
# or none); or, with the last field True, that team is withdrawn (the others then unused).
_team_changes = st.tuples(
    st.integers(min_value=1, max_value=9),
    st.sampled_from(list(ParticipantStatus)),
    st.booleans(),  # paid
    st.one_of(st.none(), st.integers(min_value=1, max_value=3)),  # his team
    st.booleans(),  # the team is withdrawn instead
)


def _team_cup() -> Tournament:
    return replace(
        _cup(TournamentState.REGISTRATION_OPEN, fee=True), regulation_id="siberia-ural-teams"
    )


def _replan_teams(
    plan: dict[str, ScheduledPush],
    cup: Tournament,
    teams: dict[int, Team],
    everyone: dict[int, Participant],
    touched: set[int],
) -> dict[str, ScheduledPush]:
    """The touched teams' reminders replanned from their own members and captains alone."""
    for team_id in touched:
        kept = {k: v for k, v in plan.items() if k not in team_keys(cup.id, team_id)}
        own = [p for p in everyone.values() if p.team_id == team_id]
        captain = everyone.get(teams[team_id].captain_id)
        own += [captain] if captain is not None and captain not in own else []
        plan = kept | _by_key(team_reminders(cup, teams[team_id], own))
    return plan


@settings(max_examples=150, deadline=None)
@given(changes=st.lists(_team_changes, max_size=40))
def test_a_team_tournament_s_single_person_updates_end_as_the_whole_plan_rebuilt(
    changes: list[tuple[int, ParticipantStatus, bool, int | None, bool]],
) -> None:
    cup = _team_cup()
    assert plans_by_person(cup)
    # Team n's captain is player n, in it whatever his status (he created it; he may not
    # leave it, and his withdrawal takes it out: a write of the team).
    teams = {number: team(number, captain=number) for number in (1, 2, 3)}
    everyone: dict[int, Participant] = {}
    plan = _by_key(plan_reminders(ReminderFacts(tournament=cup, participants=(), teams=())))
    for number, status, paid, team_id, withdraw_team in changes:
        if withdraw_team:
            teams[team_id or 1] = replace(teams[team_id or 1], withdrawn=True)
            touched = {team_id or 1}
        else:
            before = everyone.get(number)
            team_id = number if number in teams else team_id
            changed = replace(player(number, status), paid=paid, team_id=team_id)
            everyone[number] = changed
            plan = _apply(plan, cup, changed)
            old_team = before.team_id if before is not None else None
            touched = {t for t in (old_team, team_id) if t is not None}
        plan = _replan_teams(plan, cup, teams, everyone, touched)
        facts = ReminderFacts(
            tournament=cup, participants=list(everyone.values()), teams=list(teams.values())
        )
        assert plan == _by_key(plan_reminders(facts))


def test_the_team_property_names_an_incomplete_team_s_captain() -> None:
    # Not a vacuous property: a team of one of three reminds its captain.
    cup = _team_cup()
    captain = replace(player(1), team_id=1)
    keys = [push.key for push in team_reminders(cup, team(1, captain=1), [captain])]
    assert keys == ["reminder:1:team:1"]


def test_only_a_running_tournament_is_replanned_whole() -> None:
    # A running cup's seats remind whoever plays them (a substitute's change moves them).
    assert plans_by_person(tournament(regulation_id="siberia-ural-teams"))
    assert not plans_by_person(tournament(state=TournamentState.RUNNING))
    assert plans_by_person(tournament(state=TournamentState.FINISHED))
