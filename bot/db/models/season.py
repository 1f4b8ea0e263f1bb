"""The season (#28): persons across tournaments, series, rating events and ratings, club
aliases and the season's audit log. Rating events and ratings are derived data: rebuilt from
the rated games (`domain/services/season/recompute.py`)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column

from bot.db.models.base import Base


class PersonRow(Base):
    """One human across tournaments: his Telegram account (none for an imported player) and
    the nickname, club and city he last played under; `merged_into` the person kept when he
    was merged away (no foreign key: `copy-data` copies rows in id order)."""

    __tablename__ = "persons"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    telegram_id: Mapped[int | None] = mapped_column(BigInteger, unique=True)
    nickname: Mapped[str] = mapped_column(String(32))
    club: Mapped[str | None] = mapped_column(String(64))
    city: Mapped[str | None] = mapped_column(String(64))
    hidden: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    merged_into: Mapped[int | None] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SeasonSeriesRow(Base):
    """A season: tournaments attached to it share its tables; `points_table` its own
    series-points file (JSON; None: the FIIM-style default)."""

    __tablename__ = "series"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    title: Mapped[str] = mapped_column(String(128))
    created_by: Mapped[int] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    locale: Mapped[str] = mapped_column(String(8), default="ru", server_default="ru")
    points_table: Mapped[str | None] = mapped_column(Text)


class RatingEventRow(Base):
    """A person's rating on one track before and after one rated game; `seq` is the game's
    position in the rating's order (every seat's events of a game share it)."""

    __tablename__ = "rating_events"
    __table_args__ = (Index("ix_rating_events_person_track_seq", "person_id", "track", "seq"),)

    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    person_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("persons.id", ondelete="CASCADE"), primary_key=True
    )
    track: Mapped[str] = mapped_column(String(8), primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    game_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("games.id", ondelete="CASCADE"), index=True
    )
    before: Mapped[float] = mapped_column(Float)
    after: Mapped[float] = mapped_column(Float)


class PersonRatingRow(Base):
    """A person's ratings after the last rated game (what tables and cards read)."""

    __tablename__ = "person_ratings"

    person_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("persons.id", ondelete="CASCADE"), primary_key=True
    )
    overall: Mapped[float] = mapped_column(Float)
    red: Mapped[float] = mapped_column(Float)
    black: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    red_games: Mapped[int] = mapped_column(Integer)
    black_games: Mapped[int] = mapped_column(Integer)


class RatingStateRow(Base):
    """The one row every rating change locks first, so changes go in one after another;
    `games` the number of rated games the events hold, `version` bumped by every rating
    change and `season_version` by every change of persons, series and clubs (what the
    season's views are kept by)."""

    __tablename__ = "rating_state"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    games: Mapped[int] = mapped_column(Integer)
    version: Mapped[int] = mapped_column(Integer)
    season_version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class ClubAliasRow(Base):
    """A spelling of a club (normalized) joined to the club's canonical name."""

    __tablename__ = "club_aliases"

    alias: Mapped[str] = mapped_column(String(64), primary_key=True)
    club: Mapped[str] = mapped_column(String(64))
    created_by: Mapped[int | None] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SeasonAuditRow(Base):
    """The season's audit log: merges of persons, joined clubs, series settings."""

    __tablename__ = "season_audit"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    actor_id: Mapped[int | None] = mapped_column(BigInteger)
    kind: Mapped[str] = mapped_column(String(32))
    person_id: Mapped[int | None] = mapped_column(Integer, index=True)
    series_id: Mapped[int | None] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)
