from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column

from bot.db.models.base import Base
from domain.registration import HOLDING

# The statuses that hold a place and the nickname.
HOLDING_SQL = "status IN ({})".format(", ".join(f"'{status}'" for status in sorted(HOLDING)))


class ParticipantRow(Base):
    """A person registered for one tournament; imported players have no Telegram id."""

    __tablename__ = "participants"
    __table_args__ = (
        UniqueConstraint("tournament_id", "user_id"),
        # A nickname is held by one participant holding a place (registered or waiting) at a
        # time (`domain.registration.check_nickname_free`): the database refuses a second one
        # two registrations racing each other would store, and finds the holder by index.
        Index(
            "uq_participants_holding_nickname",
            "tournament_id",
            "nickname_key",
            unique=True,
            sqlite_where=text(HOLDING_SQL),
            postgresql_where=text(HOLDING_SQL),
        ),
        # A club's quota is counted by index, not by reading the tournament's list.
        Index("ix_participants_club_key", "tournament_id", "club_key"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    # Indexed: a person's roles (/help, /start) ask whether he plays in any tournament.
    user_id: Mapped[int | None] = mapped_column(
        BigInteger, ForeignKey("users.telegram_id"), index=True
    )
    nickname: Mapped[str] = mapped_column(String(32))
    # The forms the rules compare nicknames and clubs by (`domain.validation.nickname_key`:
    # NFKC, case folded), which SQL cannot compute; written by the repository with every
    # row. Nullable in the schema only, so that SQLite adds them without a table rebuild.
    nickname_key: Mapped[str | None] = mapped_column(String)
    club: Mapped[str] = mapped_column(String(64))
    club_key: Mapped[str | None] = mapped_column(String)
    city: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(16))
    registered_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # Indexed: a team's checks and its captain's notices read its members alone.
    team_id: Mapped[int | None] = mapped_column(
        Integer, ForeignKey("teams.id", ondelete="SET NULL"), index=True
    )
    paid: Mapped[bool] = mapped_column(Boolean, default=False)
    checked_in: Mapped[bool] = mapped_column(Boolean, default=False)
    substitute_for: Mapped[int | None] = mapped_column(Integer, ForeignKey("participants.id"))
    reason: Mapped[str | None] = mapped_column(String(500))
    # The person across tournaments (#28); the row keeps its own nickname, club and city.
    # Always set (the repository links every new participant); nullable in the schema only,
    # so that SQLite adds the column without rebuilding a table other tables refer to.
    person_id: Mapped[int | None] = mapped_column(Integer, ForeignKey("persons.id"), index=True)
