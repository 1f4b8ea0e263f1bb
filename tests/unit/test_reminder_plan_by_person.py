"""A participant's reminders replanned alone, one change after another, end as the whole
tournament's plan rebuilt from everyone would (`domain.reminder_plan.person_reminders`)."""

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
)
from domain.tournament import Tournament, TournamentState
from tests.unit.lifecycle_builders import player, tournament

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


def test_a_team_tournament_or_a_running_one_is_replanned_whole() -> None:
    # A captain hears how many members his team has; a running cup's seats, who plays them.
    assert not plans_by_person(tournament(regulation_id="siberia-ural-teams"))
    assert not plans_by_person(tournament(state=TournamentState.RUNNING))
    assert plans_by_person(tournament(state=TournamentState.FINISHED))
