"""The season's stored facts as plain data: a person, a series, a tournament's season
settings, a person's participation in one tournament and his games' figures."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime


@dataclass(frozen=True)
class Person:
    """One human across tournaments (`telegram_id` None: an imported player)."""

    id: int
    telegram_id: int | None
    nickname: str
    club: str | None
    city: str | None
    hidden: bool = False
    merged_into: int | None = None


@dataclass(frozen=True)
class Series:
    """A season; `points_table` its own series-points file (None: the default)."""

    id: int
    title: str
    created_by: int
    created_at: datetime
    locale: str = "ru"
    points_table: str | None = None


@dataclass(frozen=True)
class TournamentSeason:
    """A tournament as the season sees it: its series, whether it is rated, its category."""

    tournament_id: int
    title: str
    state: str
    starts_on: date | None
    created_at: datetime
    series_id: int | None
    rated: bool
    category_stars: int | None
    category_rating: float | None
    web_path: str | None = None

    @property
    def day(self) -> date:
        """The tournament's day in the rating's order: its start, else its creation."""
        return self.starts_on if self.starts_on is not None else self.created_at.date()


@dataclass(frozen=True)
class Participation:
    """A person's registration for one tournament, with the name he played under."""

    participant_id: int
    person_id: int
    tournament: TournamentSeason
    nickname: str
    club: str
    city: str


@dataclass(frozen=True)
class RatedPlace:
    """Where a game is in the rating's order (its tournament's day and id, stage, round,
    table) and the game's id."""

    game_id: int
    tournament_id: int
    day: date
    stage: str
    round: int
    table: int
