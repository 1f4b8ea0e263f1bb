"""The pure rules of protests: the window by the second, who may protest, one open protest per
player and game, bounded texts, what a decision does, who decides."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from domain.protests import (
    DEFAULT_WINDOW_MINUTES,
    REASON_MAX,
    Protest,
    ProtestStatus,
    check_filing,
    decide,
    deciders,
    protest_reason,
    settle_by_correction,
    window_minutes,
)
from domain.validation import Invalid

CONFIRMED = datetime(2026, 12, 20, 12, 0, 0, tzinfo=UTC)
CLOSES = CONFIRMED + timedelta(minutes=10)
PLAYERS = tuple(range(101, 111))


def _protest(participant: int = 101, status: ProtestStatus = ProtestStatus.PENDING) -> Protest:
    return Protest(
        1, 1, 7, participant, 5000 + participant, "Судья не засчитал фол", CONFIRMED, status=status
    )


def _file(participant: int | None = 101, now: datetime = CONFIRMED, open_=()) -> None:
    check_filing(
        participant_id=participant,
        players=PLAYERS,
        closes_at=CLOSES,
        now=now,
        open_protests=open_,
        timezone="Asia/Omsk",
    )


def test_the_window_takes_its_last_second_and_refuses_the_next_with_the_closing_time() -> None:
    _file(now=CLOSES - timedelta(seconds=1))
    with pytest.raises(Invalid) as refused:
        _file(now=CLOSES)
    assert refused.value.code == "protest-window-closed"
    # Omsk is UTC+6: the player reads the closing time on the tournament's clock.
    assert refused.value.args_ == {"time": "18:10"}
    with pytest.raises(Invalid):
        _file(now=CLOSES + timedelta(seconds=1))


def test_a_stranger_or_a_player_of_another_table_may_not_protest() -> None:
    for outsider in (None, 999):
        with pytest.raises(Invalid) as refused:
            _file(participant=outsider)
        assert refused.value.code == "protest-not-your-game"


def test_an_annulled_game_takes_no_protest_even_inside_its_window() -> None:
    with pytest.raises(Invalid) as refused:
        check_filing(
            participant_id=101,
            players=PLAYERS,
            closes_at=CLOSES,
            now=CONFIRMED,
            open_protests=(),
            timezone="UTC",
            annulled=True,
        )
    assert refused.value.code == "protest-game-annulled"


def test_one_open_protest_per_player_per_game() -> None:
    with pytest.raises(Invalid) as refused:
        _file(open_=[_protest(101)])
    assert refused.value.code == "protest-already-open"
    # Another player of the same game may protest too, and so may he once his is rejected.
    _file(participant=102, open_=[_protest(101)])
    _file(open_=[_protest(101, ProtestStatus.REJECTED)])


def test_a_game_without_a_window_takes_no_protest() -> None:
    with pytest.raises(Invalid) as refused:
        check_filing(
            participant_id=101,
            players=PLAYERS,
            closes_at=None,
            now=CONFIRMED,
            open_protests=(),
            timezone="UTC",
        )
    assert refused.value.code == "protest-no-window"


def test_the_reason_is_bounded() -> None:
    assert protest_reason("  Судья   не засчитал фол  ") == "Судья не засчитал фол"
    for text in ("коротко", "x" * (REASON_MAX + 1), None):
        with pytest.raises(Invalid) as refused:
            protest_reason(text)
        assert refused.value.code == "protest-reason-length"


def test_the_organizers_switch_overrides_the_regulation() -> None:
    assert window_minutes(10, None) == 10
    assert window_minutes(None, None) is None
    assert window_minutes(10, False) is None
    assert window_minutes(None, True) == DEFAULT_WINDOW_MINUTES
    assert window_minutes(15, True) == 15


def test_a_decision_is_final_and_an_accepted_protest_stays_open_until_the_correction() -> None:
    later = CONFIRMED + timedelta(minutes=20)
    rejected = decide(_protest(), accept=False, text="Фол был", judge_id=2, now=later)
    assert (rejected.status, rejected.decided_by, rejected.decision) == (
        ProtestStatus.REJECTED,
        2,
        "Фол был",
    )
    assert not rejected.is_open
    with pytest.raises(Invalid) as again:
        decide(rejected, accept=True, text="Передумал", judge_id=2, now=later)
    assert again.value.code == "protest-already-decided"
    accepted = decide(_protest(), accept=True, text="Фол снят", judge_id=2, now=later)
    assert accepted.is_open
    settled = settle_by_correction(accepted)
    assert settled.status is ProtestStatus.CORRECTED and not settled.is_open
    assert settle_by_correction(rejected) is rejected
    with pytest.raises(Invalid) as empty:
        decide(_protest(), accept=False, text=" ", judge_id=2, now=later)
    assert empty.value.code == "protest-decision-length"


def test_the_chief_judge_decides_or_else_the_panel_of_the_other_judges() -> None:
    staff = [(2, "chief_judge"), (11, "table_judge"), (12, "table_judge")]
    assert deciders(staff, table_judge=11) == {2}
    panel = [(11, "table_judge"), (12, "table_judge"), (13, "table_judge")]
    assert deciders(panel, table_judge=11) == {12, 13}
