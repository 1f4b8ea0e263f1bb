"""Nicknames, capacity and the waiting list, club quotas and the deadline."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain import validation
from domain.registration import (
    ParticipantStatus,
    Places,
    check_club_quota,
    check_nickname_free,
    deadline_passed,
    initial_status,
    places_to_give,
    registration_refusal,
)
from domain.tournament import TournamentState
from domain.validation import Invalid
from tests.unit.lifecycle_builders import T0, player, tournament

WAITING = ParticipantStatus.WAITING
REGISTERED = ParticipantStatus.REGISTERED


@pytest.mark.parametrize(
    "text", ["Шериф", "ab", "李小龙", "Dr. <b>Who</b>", "x" * 32, "  Дон   Корлеоне "]
)
def test_a_nickname_of_2_to_32_characters_in_any_script_is_kept_as_given(text: str) -> None:
    assert validation.nickname(text) == " ".join(text.split())


@pytest.mark.parametrize("text", ["a", "x" * 33, "   ", "", "bad\u202enick"])
def test_a_nickname_too_short_too_long_empty_or_with_control_characters_is_refused(
    text: str,
) -> None:
    with pytest.raises(Invalid):
        validation.nickname(text)


def test_a_nickname_differing_only_in_case_is_taken() -> None:
    others = [player(1, nickname="Дон")]
    with pytest.raises(Invalid) as refused:
        check_nickname_free("ДОН", others)
    assert refused.value.code == "nickname-taken"
    check_nickname_free("ДОН", others, own_id=1)


def test_a_withdrawn_players_nickname_is_free_again() -> None:
    check_nickname_free("Дон", [player(1, ParticipantStatus.WITHDRAWN, nickname="Дон")])


def test_the_club_quota_counts_registered_and_waiting_players_of_the_club() -> None:
    others = [player(1, club="Ворон"), player(2, WAITING, club="ворон"), player(3, club="Сова")]
    check_club_quota("Ворон", 3, others)
    with pytest.raises(Invalid) as refused:
        check_club_quota("Ворон", 2, others)
    assert refused.value.code == "club-quota-full"
    assert refused.value.args_ == {"club": "Ворон", "quota": 2}


def test_a_newcomer_waits_when_places_are_taken_or_someone_already_waits() -> None:
    assert initial_status(2, Places(registered=1, waiting=0)) is REGISTERED
    assert initial_status(2, Places(registered=2, waiting=0)) is WAITING
    assert initial_status(3, Places(registered=1, waiting=1)) is WAITING
    assert initial_status(None, Places(registered=199, waiting=0)) is REGISTERED


def test_freed_places_go_to_as_many_of_the_waiting_list_as_they_are() -> None:
    assert places_to_give(3, Places(registered=1, waiting=3)) == 2
    assert places_to_give(1, Places(registered=1, waiting=3)) == 0
    assert places_to_give(None, Places(registered=40, waiting=3)) == 3


@given(
    capacity=st.integers(min_value=1, max_value=30),
    registered=st.integers(min_value=0, max_value=30),
    waiting=st.integers(min_value=0, max_value=30),
)
def test_promotion_never_overfills_the_tournament(
    capacity: int, registered: int, waiting: int
) -> None:
    given_places = places_to_give(capacity, Places(registered=registered, waiting=waiting))
    assert registered + given_places <= max(capacity, registered)
    assert given_places == min(waiting, max(capacity - registered, 0))


def test_registration_closes_at_the_deadline_by_itself() -> None:
    open_one = tournament(registration_deadline=T0 + timedelta(hours=1))
    assert registration_refusal(open_one, T0) is None
    assert registration_refusal(open_one, T0 + timedelta(hours=1)) == "registration-deadline-passed"
    assert deadline_passed(open_one, T0 + timedelta(hours=2))
    assert not deadline_passed(tournament(state=TournamentState.DRAFT), T0 + timedelta(days=9))
    assert (
        registration_refusal(tournament(state=TournamentState.DRAFT), T0) == "registration-not-open"
    )


def test_settings_typed_by_the_organizer_are_checked() -> None:
    assert validation.fee("500,50") == Decimal("500.50")
    assert validation.capacity("60") == 60
    with pytest.raises(Invalid):
        validation.capacity("9")
    with pytest.raises(Invalid):
        validation.fee("-1")
    with pytest.raises(Invalid):
        validation.timezone("Mars/Olympus")
    assert validation.dates("20.12.2026-21.12.2026", T0.date())[1].day == 21
    with pytest.raises(Invalid) as refused:
        validation.dates("20.12.2020", T0.date())
    assert refused.value.code == "invalid-date-past"
    with pytest.raises(Invalid):
        validation.channel("not a channel")
    assert validation.channel("@mafia_omsk") == "@mafia_omsk"
    moment = validation.moment("19.12.2026 18:00", "Asia/Omsk", T0, T0 + timedelta(days=30))
    assert moment.utcoffset() == timedelta(hours=6)


@pytest.mark.parametrize("status", list(ParticipantStatus))
def test_only_a_no_show_or_an_excluded_player_may_be_replaced(status: ParticipantStatus) -> None:
    # The check-in screen lists them, the player's card offers a substitute, the use case
    # takes one: all ask this rule.
    freed = {ParticipantStatus.NO_SHOW, ParticipantStatus.EXCLUDED}
    assert player(1, status).replaceable is (status in freed)
    assert player(1, status, checked_in=True).replaceable is (status in freed)
