"""A tournament and the states it moves through."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum


class TournamentState(StrEnum):
    """Where a tournament stands; the organizer moves it explicitly from one to the next."""

    DRAFT = "draft"
    REGISTRATION_OPEN = "registration_open"
    REGISTRATION_CLOSED = "registration_closed"
    RUNNING = "running"
    FINISHED = "finished"


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
