"""Reminder times from a timetable, in the tournament's time zone, across a DST change."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from domain.regulation import TimetableDay, TimetableEvent, load_preset
from domain.reminders import (
    checkin_opening_times,
    planned_games,
    protocol_reminder_time,
    registration_deadline_reminder_time,
    round_reminder_time,
    wall_time_to_utc,
)

# Europe/Berlin moves its clocks forward on Sunday 29 March 2026 at 02:00.
BERLIN = "Europe/Berlin"
SATURDAY = date(2026, 3, 28)


def _day(number: int, *events: tuple[str, str | None]) -> TimetableDay:
    return TimetableDay(
        day=number,
        events=tuple(
            TimetableEvent(kind=kind, time=clock, stage="qualifying" if kind == "game" else None)  # type: ignore[arg-type]
            for kind, clock in events
        ),
    )


TWO_DAYS = (
    _day(1, ("registration", "11:30"), ("game", "12:30"), ("game", "13:30"), ("lunch", "15:00")),
    _day(2, ("start", "12:00"), ("game", "12:30"), ("game", None), ("game", "16:30")),
)


def _utc(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=UTC)  # type: ignore[misc]


def test_a_game_reminder_comes_fifteen_minutes_before_on_both_sides_of_the_dst_change() -> None:
    games = planned_games(TWO_DAYS, SATURDAY, BERLIN)
    reminders = [(g.day, g.number, round_reminder_time(g)) for g in games]
    assert reminders == [
        (1, 1, _utc(2026, 3, 28, 11, 15)),  # 12:30 CET = 11:30 UTC
        (1, 2, _utc(2026, 3, 28, 12, 15)),
        (2, 3, _utc(2026, 3, 29, 10, 15)),  # 12:30 CEST = 10:30 UTC
        (2, 5, _utc(2026, 3, 29, 14, 15)),  # the untimed game 4 keeps its number
    ]


def test_the_lead_is_a_setting() -> None:
    first = planned_games(TWO_DAYS, SATURDAY, BERLIN)[0]
    assert round_reminder_time(first, timedelta(minutes=40)) == _utc(2026, 3, 28, 10, 50)


def test_a_missing_protocol_is_reminded_after_the_next_event_begins() -> None:
    games = planned_games(TWO_DAYS, SATURDAY, BERLIN)
    # Game 2 of day 1 ends when lunch starts at 15:00 CET; the last game of day 2 runs an hour.
    assert protocol_reminder_time(games[1]) == _utc(2026, 3, 28, 14, 15)
    assert protocol_reminder_time(games[-1], timedelta(minutes=5)) == _utc(2026, 3, 29, 15, 35)


def test_a_reminder_lead_crossing_the_jump_counts_real_minutes() -> None:
    night = (_day(1, ("game", "03:10")),)
    game = planned_games(night, date(2026, 3, 29), BERLIN)[0]
    # 03:10 CEST is 01:10 UTC; fifteen real minutes earlier the clocks showed 01:55 CET.
    assert round_reminder_time(game) == _utc(2026, 3, 29, 0, 55)


def test_a_wall_time_skipped_by_the_jump_is_read_after_it() -> None:
    assert wall_time_to_utc(date(2026, 3, 29), time(2, 30), BERLIN) == _utc(2026, 3, 29, 1, 30)


def test_check_in_opens_at_the_days_registration_or_before_its_first_event() -> None:
    openings = checkin_opening_times(TWO_DAYS, SATURDAY, BERLIN)
    assert openings == {1: _utc(2026, 3, 28, 10, 30), 2: _utc(2026, 3, 29, 10, 0)}
    games_only = (_day(1, ("game", "12:30")),)
    assert checkin_opening_times(games_only, SATURDAY, "Asia/Omsk") == {1: _utc(2026, 3, 28, 6, 0)}


def test_the_siberia_ural_preset_gives_six_reminders_a_day() -> None:
    timetable = load_preset("siberia-ural-teams").timetable
    games = planned_games(timetable, date(2026, 5, 16), "Asia/Omsk")
    assert len(games) == 12
    assert round_reminder_time(games[0]) == _utc(2026, 5, 16, 6, 15)  # 12:30 in Omsk (UTC+6)


def test_unpaid_players_are_reminded_a_day_before_the_deadline() -> None:
    deadline = datetime(2026, 5, 10, 23, 59, tzinfo=ZoneInfo("Asia/Omsk"))
    assert registration_deadline_reminder_time(deadline) == _utc(2026, 5, 9, 17, 59)
    with pytest.raises(ValueError):
        registration_deadline_reminder_time(datetime(2026, 5, 10))
