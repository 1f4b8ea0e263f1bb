"""A tournament, its settings and the states it moves through."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from enum import StrEnum
from functools import lru_cache

from domain.regulation import Regulation, TimetableDay, load_preset, parse_regulation


class TournamentState(StrEnum):
    """Where a tournament stands; the organizer moves it explicitly from one to the next."""

    DRAFT = "draft"
    REGISTRATION_OPEN = "registration_open"
    REGISTRATION_CLOSED = "registration_closed"
    RUNNING = "running"
    FINISHED = "finished"


class WebVisibility(StrEnum):
    """Who may open the tournament's public web page."""

    # Anyone who knows the address (it is linked from the card and the channel).
    PUBLIC = "public"
    # Only whoever has the link with the tournament's token.
    UNLISTED = "unlisted"
    OFF = "off"


@dataclass(frozen=True, slots=True)
class Tournament:
    """One tournament run under one regulation (a preset id or an organizer's own file)."""

    id: int
    title: str
    regulation_id: str
    state: TournamentState
    timezone: str
    created_by: int
    created_at: datetime
    city: str | None = None
    venue: str | None = None
    channel_id: int | None = None
    current_stage: str | None = None
    # The organizer's own regulation as JSON; None when `regulation_id` names a preset.
    regulation_json: str | None = None
    starts_on: date | None = None
    ends_on: date | None = None
    # The timetable days as JSON in the regulation's format; None keeps the regulation's own.
    timetable_json: str | None = None
    capacity: int | None = None
    registration_deadline: datetime | None = None
    entry_fee: Decimal | None = None
    club_quota: int | None = None
    checkin_cutoff: datetime | None = None
    # The language of the tournament's channel posts, chosen in the wizard.
    locale: str = "ru"
    # How the channel is shown: its @username, else its title (None: not known).
    channel_name: str | None = None
    # The public web page: who may open it, and the token an unlisted page's link carries.
    web_visibility: WebVisibility = WebVisibility.PUBLIC
    web_token: str | None = None

    @property
    def regulation(self) -> Regulation:
        """The regulation this tournament runs under (a preset or the uploaded one)."""
        if self.regulation_json is not None:
            return _uploaded_regulation(self.regulation_json)
        return load_preset(self.regulation_id)

    @property
    def timetable(self) -> tuple[TimetableDay, ...]:
        """The organizer's timetable, or the regulation's when he kept it."""
        if self.timetable_json is None:
            return self.regulation.timetable
        days = json.loads(self.timetable_json)
        return tuple(TimetableDay.model_validate(day) for day in days)

    @property
    def public_page_path(self) -> str | None:
        """The path of the tournament's public web page, with an unlisted page's token; None
        when it is off. (A draft's page opens once its registration does.)"""
        if self.web_visibility is WebVisibility.OFF:
            return None
        if self.web_visibility is WebVisibility.UNLISTED:
            return f"/t/{self.id}?k={self.web_token}" if self.web_token else None
        return f"/t/{self.id}"

    @property
    def channel_page_path(self) -> str | None:
        """The page's path as the channel links it: only a public page's. An unlisted page's
        token never goes to the channel, and an unlisted or closed page's public address
        answers 404, so the channel's table then carries no link."""
        if self.web_visibility is WebVisibility.PUBLIC:
            return f"/t/{self.id}"
        return None

    @property
    def is_team_tournament(self) -> bool:
        """Whether players register in teams."""
        return self.regulation.is_team_tournament

    @property
    def running_stage(self) -> str | None:
        """The stage under way, whose rounds are seated, published and played; None when the
        tournament is not running."""
        return self.current_stage if self.state is TournamentState.RUNNING else None

    @property
    def has_started(self) -> bool:
        """True once the first stage has begun: teams may no longer withdraw, rosters freeze."""
        return self.state in (TournamentState.RUNNING, TournamentState.FINISHED)


@lru_cache(maxsize=64)
def _uploaded_regulation(text: str) -> Regulation:
    """An uploaded regulation parsed once per text: every tap reads its tournament's, and the
    same text always parses to the same frozen regulation (nothing another process could
    change behind this one's back)."""
    return parse_regulation(json.loads(text, parse_float=Decimal))
