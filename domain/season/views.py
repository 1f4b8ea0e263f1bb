"""The season's read models: what the screens and pages render (frozen dataclasses).

The use cases in `domain/services/season/` build them; the bot's screens and the web pages
only write them out. A hidden profile carries only its nickname (`PlayerProfile.hidden_view`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from domain.season.rating import Rating


@dataclass(frozen=True)
class RatingPoint:
    """The person's overall rating after one rated game (the chart's points)."""

    tournament_id: int
    game_id: int
    after: float


@dataclass(frozen=True)
class RoleStats:
    """Games played with one role (the protocol's role names) and those won."""

    role: str
    games: int
    wins: int

    @property
    def win_rate(self) -> float:
        """Wins per game (0 when none played)."""
        return self.wins / self.games if self.games else 0.0


@dataclass(frozen=True)
class TournamentLine:
    """One tournament of a person's history, with the name he played under."""

    tournament_id: int
    title: str
    starts_on: date | None
    nickname: str
    club: str | None
    place: int | None
    points: Decimal
    games: int
    series_id: int | None


@dataclass(frozen=True)
class PlayerProfile:
    """A person's profile: his tournaments, games by role, figures and rating history."""

    person_id: int
    nickname: str
    club: str | None
    city: str | None
    hidden: bool
    rating: Rating | None
    rank: int | None
    tournaments: tuple[TournamentLine, ...]
    roles: tuple[RoleStats, ...]
    games: int
    points_per_game: Decimal
    best_moves: int
    first_night_deaths: int
    fouls: int
    disqualifications: int
    history: tuple[RatingPoint, ...]

    @classmethod
    def hidden_view(cls, person_id: int, nickname: str) -> PlayerProfile:
        """What others see of a hidden profile: the nickname only."""
        return cls(
            person_id=person_id,
            nickname=nickname,
            club=None,
            city=None,
            hidden=True,
            rating=None,
            rank=None,
            tournaments=(),
            roles=(),
            games=0,
            points_per_game=Decimal(0),
            best_moves=0,
            first_night_deaths=0,
            fouls=0,
            disqualifications=0,
            history=(),
        )


@dataclass(frozen=True)
class SeriesRow:
    """A line of a series' players' table (a hidden person: nickname only, figures zero)."""

    place: int
    person_id: int
    nickname: str
    club: str | None
    rating: float
    red: float
    black: float
    games: int
    tournaments: int
    series_points: Decimal
    hidden: bool


@dataclass(frozen=True)
class ClubRow:
    """A line of the clubs' table: the club, its members and its rating."""

    place: int
    club: str
    members: int
    rating: float


@dataclass(frozen=True)
class SeriesEvent:
    """A tournament on a series' calendar."""

    tournament_id: int
    title: str
    starts_on: date | None
    state: str
    category_stars: int | None
    registration_open: bool
    web_path: str | None


@dataclass(frozen=True)
class SeriesView:
    """A series: its players' and clubs' tables and its calendar."""

    series_id: int
    title: str
    locale: str
    players: tuple[SeriesRow, ...]
    clubs: tuple[ClubRow, ...]
    upcoming: tuple[SeriesEvent, ...]
    running: tuple[SeriesEvent, ...]
    finished: tuple[SeriesEvent, ...]


@dataclass(frozen=True)
class ClubProfile:
    """A club: its canonical name, the spellings joined to it, its members and rating."""

    club: str
    aliases: tuple[str, ...]
    members: tuple[SeriesRow, ...]
    rating: float


@dataclass(frozen=True)
class MergePreview:
    """Two persons side by side before a merge; `overlap` (titles of tournaments both played)
    non-empty means the merge is refused."""

    keep: PlayerProfile
    merge: PlayerProfile
    overlap: tuple[str, ...]

    @property
    def allowed(self) -> bool:
        """Whether the merge may go ahead."""
        return not self.overlap
