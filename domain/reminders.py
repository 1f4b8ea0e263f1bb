"""When reminders go out, computed from a tournament's timetable in its own time zone.

The timetable is plain data: days of events with wall-clock times ("12:30"), as a regulation
preset plans them and the organizer adjusts them. Every moment returned is in UTC, so a
reminder is right on both sides of a daylight-saving change. Time is never read here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from domain.regulation import TimetableDay

ROUND_REMINDER_LEAD = timedelta(minutes=15)
DEFAULT_GAME_LENGTH = timedelta(minutes=60)
PROTOCOL_GRACE = timedelta(minutes=15)
# The chief judge hears of a missing protocol this long after its table's judge did.
CHIEF_JUDGE_GRACE = timedelta(minutes=15)
CHECKIN_LEAD = timedelta(minutes=30)
REGISTRATION_DEADLINE_LEAD = timedelta(hours=24)
# Events that open a tournament day, when check-in starts.
DAY_OPENING_KINDS = ("registration", "start", "opening")


@dataclass(frozen=True, slots=True)
class PlannedGame:
    """A game of the timetable: its stage, its number within the stage, and its time in UTC.

    `ends_at` is when the next timed event of the day begins (or the game's usual length
    after its start when nothing follows).
    """

    stage: str
    number: int
    day: int
    starts_at: datetime
    ends_at: datetime


def wall_time_to_utc(day: date, wall_time: time, timezone: str) -> datetime:
    """A wall-clock time of a day in a time zone, in UTC.

    A time skipped by a spring-forward jump is read with the offset before the jump (02:30
    becomes 03:30 summer time); a time repeated in autumn is its first occurrence.
    """
    local = datetime.combine(day, wall_time, tzinfo=ZoneInfo(timezone))
    return local.astimezone(UTC)


def _clock(text: str) -> time:
    hours, minutes = text.split(":")
    return time(int(hours), int(minutes))


def planned_games(
    timetable: Sequence[TimetableDay],
    first_day: date,
    timezone: str,
    game_length: timedelta = DEFAULT_GAME_LENGTH,
) -> list[PlannedGame]:
    """The timetable's games that have a time, numbered within their stage in order.

    Day 1 of the timetable is `first_day`; games without a time still count for numbering.
    """
    games: list[PlannedGame] = []
    numbers: dict[str, int] = {}
    for plan in timetable:
        day = first_day + timedelta(days=plan.day - 1)
        timed = [
            (wall_time_to_utc(day, _clock(event.time), timezone), event)
            for event in plan.events
            if event.time is not None
        ]
        for event in plan.events:
            if event.kind != "game" or event.stage is None:
                continue
            numbers[event.stage] = numbers.get(event.stage, 0) + 1
            if event.time is None:
                continue
            starts_at = wall_time_to_utc(day, _clock(event.time), timezone)
            later = [moment for moment, _ in timed if moment > starts_at]
            ends_at = min(later) if later else starts_at + game_length
            games.append(
                PlannedGame(event.stage, numbers[event.stage], plan.day, starts_at, ends_at)
            )
    return games


def round_reminder_time(game: PlannedGame, lead: timedelta = ROUND_REMINDER_LEAD) -> datetime:
    """When players are told their table and seat: `lead` before the game (15 minutes)."""
    return game.starts_at - lead


def protocol_reminder_time(game: PlannedGame, grace: timedelta = PROTOCOL_GRACE) -> datetime:
    """When a judge whose protocol is still missing is reminded: `grace` after the expected
    end of the game."""
    return game.ends_at + grace


def checkin_opening_times(
    timetable: Sequence[TimetableDay],
    first_day: date,
    timezone: str,
    lead: timedelta = CHECKIN_LEAD,
) -> dict[int, datetime]:
    """When check-in opens on each timetable day that has a time: at the day's registration
    (or start, or opening) event, else `lead` before its first timed event."""
    openings: dict[int, datetime] = {}
    for plan in timetable:
        day = first_day + timedelta(days=plan.day - 1)
        timed = [
            (event.kind, wall_time_to_utc(day, _clock(event.time), timezone))
            for event in plan.events
            if event.time is not None
        ]
        if not timed:
            continue
        opening = next((at for kind, at in timed if kind in DAY_OPENING_KINDS), None)
        openings[plan.day] = opening if opening is not None else timed[0][1] - lead
    return openings


def registration_deadline_reminder_time(
    deadline: datetime, lead: timedelta = REGISTRATION_DEADLINE_LEAD
) -> datetime:
    """When incomplete teams and unpaid players are reminded: `lead` before the deadline."""
    if deadline.tzinfo is None:
        raise ValueError("the registration deadline needs a time zone")
    return (deadline - lead).astimezone(UTC)
