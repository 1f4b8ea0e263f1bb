"""Checks of what people type: each returns the clean value or raises `Invalid` with a reason.

A reason is a message id of the `validation` texts plus its arguments, so the handler shows it in
the person's language and changes nothing.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import date, datetime, time
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from domain.regulation import (
    Regulation,
    RegulationError,
    Stage,
    TimetableDay,
    parse_regulation,
)

NICKNAME_MIN, NICKNAME_MAX = 2, 32
NAME_MAX = 64
TITLE_MAX = 128
VENUE_MAX = 256
TEAM_NAME_MIN, TEAM_NAME_MAX = 2, 48
CAPACITY_MAX = 1000
FEE_MAX = Decimal(1_000_000)
REASON_MAX = 500
# Rows are numbered in 32-bit integer columns (PostgreSQL's `integer`); Telegram's user and chat
# ids have at most 52 significant bits. A larger number typed or found in a button is refused
# before it reaches the database (SQLite overflows past 64 bits).
ROW_ID_MAX = 2**31 - 1
TELEGRAM_ID_MAX = 2**52 - 1
_ASCII_NUMBER = re.compile(r"[0-9]{1,19}")
_AMOUNT = re.compile(r"[0-9]{1,7}(\.[0-9]{1,2})?")
_SPACES = re.compile(r"\s+")
# ASCII digits only: `\d` alone would take "٣" or "१" too.
_CHANNEL = re.compile(r"^(@[A-Za-z][A-Za-z0-9_]{3,31}|-100\d{5,15})$", re.ASCII)
_DATE = re.compile(r"^(\d{1,2})\.(\d{1,2})\.(\d{4})$", re.ASCII)
_CLOCK = re.compile(r"^(\d{1,2}):(\d{2})$", re.ASCII)


class Invalid(ValueError):
    """Input that cannot be taken; `code` names the text explaining why, `args` fill it in."""

    def __init__(self, code: str, **args: Any) -> None:
        self.code = code
        self.args_ = args
        super().__init__(code, args)


def clean_text(text: str | None) -> str:
    """Text with its whitespace collapsed to single spaces, as shown back to people."""
    return _SPACES.sub(" ", text or "").strip()


def _printable(text: str) -> bool:
    # Control and format characters (e.g. right-to-left overrides) would make names deceptive.
    return all(unicodedata.category(char)[0] != "C" for char in text)


def _bounded(text: str | None, low: int, high: int, code: str) -> str:
    value = clean_text(text)
    if not value or not _printable(value):
        raise Invalid(f"{code}-empty")
    if not low <= len(value) <= high:
        raise Invalid(f"{code}-length", min=low, max=high, length=len(value))
    return value


def nickname(text: str | None) -> str:
    """A game nickname: 2-32 characters of any script, stored as given (spaces collapsed)."""
    return _bounded(text, NICKNAME_MIN, NICKNAME_MAX, "invalid-nickname")


def nickname_key(value: str) -> str:
    """The form under which two nicknames count as the same (case and width ignored)."""
    return unicodedata.normalize("NFKC", clean_text(value)).casefold()


def place_name(text: str | None) -> str:
    """A club or a city name: 1-64 characters."""
    return _bounded(text, 1, NAME_MAX, "invalid-name")


def title(text: str | None) -> str:
    """A tournament's name."""
    return _bounded(text, 2, TITLE_MAX, "invalid-title")


def venue(text: str | None) -> str:
    """A venue: an address or a place's name."""
    return _bounded(text, 2, VENUE_MAX, "invalid-venue")


def team_name(text: str | None) -> str:
    """A team's name: 2-48 characters."""
    return _bounded(text, TEAM_NAME_MIN, TEAM_NAME_MAX, "invalid-team-name")


def reason(text: str | None) -> str:
    """Why a judge excludes a player: a sentence, at most 500 characters."""
    return _bounded(text, 3, REASON_MAX, "invalid-reason")


def whole_number(
    text: str | None, low: int, high: int, code: str = "invalid-number", **args: Any
) -> int:
    """A whole number between `low` and `high`, written in ASCII digits only: the one parser
    of every number people type.

    Other digits Python would take ("²", "٣"), signs and numbers past the range raise
    `Invalid(code, min=low, max=high, **args)`, so every field says what it expects."""
    value = clean_text(text)
    if not is_ascii_number(value) or not low <= int(value) <= high:
        raise Invalid(code, min=low, max=high, **args)
    return int(value)


def is_ascii_number(text: str) -> bool:
    """Whether `text` is written in ASCII digits only (so it means a number, not a name)."""
    return _ASCII_NUMBER.fullmatch(text) is not None


def capacity(text: str | None) -> int:
    """How many players the tournament takes: at least one table of 10."""
    return whole_number(text, 10, CAPACITY_MAX)


def club_quota(text: str | None) -> int:
    """How many players one club may register: at least one."""
    return whole_number(text, 1, CAPACITY_MAX)


def fee(text: str | None) -> Decimal:
    """An entry fee in currency units, 0 for none; a comma is taken as the decimal point."""
    value = clean_text(text).replace(",", ".")
    if _AMOUNT.fullmatch(value) is None:  # Decimal alone would take "٣", "1e5" or "-0"
        raise Invalid("invalid-fee")
    amount = Decimal(value)
    if amount > FEE_MAX:
        raise Invalid("invalid-fee")
    return amount


def timezone(text: str | None) -> str:
    """An IANA time zone such as Asia/Omsk."""
    value = clean_text(text)
    try:
        ZoneInfo(value)
    except (ZoneInfoNotFoundError, ValueError):
        raise Invalid("invalid-timezone") from None
    return value


def day(text: str | None) -> date:
    """A date written DD.MM.YYYY."""
    match = _DATE.match(clean_text(text))
    if match is None:
        raise Invalid("invalid-date")
    try:
        return date(int(match[3]), int(match[2]), int(match[1]))
    except ValueError:
        raise Invalid("invalid-date") from None


def dates(text: str | None, today: date) -> tuple[date, date]:
    """The first and last day of a tournament, "DD.MM.YYYY" or "DD.MM.YYYY-DD.MM.YYYY"."""
    first_text, _, last_text = clean_text(text).replace(" ", "").partition("-")
    first = day(first_text)
    last = day(last_text) if last_text else first
    if first < today:
        raise Invalid("invalid-date-past")
    if last < first or (last - first).days > 14:
        raise Invalid("invalid-date-range")
    return first, last


def moment(text: str | None, zone: str, not_before: datetime, not_after: datetime) -> datetime:
    """A moment written "DD.MM.YYYY HH:MM" in the tournament's time zone, within bounds."""
    date_text, _, clock_text = clean_text(text).partition(" ")
    on = day(date_text)
    match = _CLOCK.match(clock_text)
    if match is None or int(match[1]) > 23 or int(match[2]) > 59:
        raise Invalid("invalid-moment")
    at = datetime.combine(on, time(int(match[1]), int(match[2])), ZoneInfo(zone))
    if not not_before <= at <= not_after:
        raise Invalid("invalid-moment-range")
    return at


def channel(text: str | None) -> str:
    """A channel as @username or its numeric id (-100...)."""
    value = clean_text(text)
    if not _CHANNEL.match(value):
        raise Invalid("invalid-channel")
    return value


def timetable_lines(days: tuple[TimetableDay, ...]) -> str:
    """A timetable as the organizer edits it: one event a line, "day time kind [stage]"."""
    return "\n".join(
        " ".join(filter(None, (str(d.day), e.time or "-", e.kind, e.stage)))
        for d in days
        for e in d.events
    )


def stage_games_mismatch(
    days: tuple[TimetableDay, ...], regulation: Regulation
) -> tuple[Stage, int] | None:
    """The first stage whose games the timetable plans differ from its games per player
    (the regulation's own check, said in a stage's name), with how many it plans."""
    for stage in regulation.stages:
        planned = sum(
            1 for day in days for e in day.events if e.kind == "game" and e.stage == stage.id
        )
        if planned != stage.games_per_player:
            return stage, planned
    return None


def timetable(text: str | None, regulation: Regulation) -> tuple[TimetableDay, ...]:
    """A timetable typed as `timetable_lines` shows it, checked against the regulation."""
    days: dict[int, list[dict[str, str | None]]] = {}
    for number, line in enumerate((text or "").strip().splitlines(), start=1):
        parts = line.split()
        if len(parts) not in (3, 4) or _ASCII_NUMBER.fullmatch(parts[0]) is None:
            raise Invalid("invalid-timetable-line", line=number)
        clock = None if parts[1] == "-" else parts[1]
        stage = parts[3] if len(parts) == 4 else None
        days.setdefault(int(parts[0]), []).append({"kind": parts[2], "time": clock, "stage": stage})
    if not days:
        raise Invalid("invalid-timetable-line", line=1)
    plan = [{"day": day, "events": events} for day, events in sorted(days.items())]
    try:
        checked = parse_regulation({**regulation.model_dump(mode="json"), "timetable": plan})
    except RegulationError as error:
        problems = "; ".join(f"{path}: {reason}" for path, reason in error.problems)
        raise Invalid("invalid-timetable", problems=problems) from None
    return checked.timetable
