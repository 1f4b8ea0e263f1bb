from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, Boolean, DateTime, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from bot.db.models.base import Base


class ParticipantRow(Base):
    """A person registered for one tournament; imported players have no Telegram id."""

    __tablename__ = "participants"
    __table_args__ = (UniqueConstraint("tournament_id", "user_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    # Indexed: a person's roles (/help, /start) ask whether he plays in any tournament.
    user_id: Mapped[int | None] = mapped_column(
        BigInteger, ForeignKey("users.telegram_id"), index=True
    )
    nickname: Mapped[str] = mapped_column(String(32))
    club: Mapped[str] = mapped_column(String(64))
    city: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(16))
    registered_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    team_id: Mapped[int | None] = mapped_column(
        Integer, ForeignKey("teams.id", ondelete="SET NULL")
    )
    paid: Mapped[bool] = mapped_column(Boolean, default=False)
    checked_in: Mapped[bool] = mapped_column(Boolean, default=False)
    substitute_for: Mapped[int | None] = mapped_column(Integer, ForeignKey("participants.id"))
    reason: Mapped[str | None] = mapped_column(String(500))
    # The person across tournaments (#28); the row keeps its own nickname, club and city.
    # Always set (the repository links every new participant); nullable in the schema only,
    # so that SQLite adds the column without rebuilding a table other tables refer to.
    person_id: Mapped[int | None] = mapped_column(Integer, ForeignKey("persons.id"), index=True)
