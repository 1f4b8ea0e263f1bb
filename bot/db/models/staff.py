from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, DateTime, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from bot.db.models.base import Base


class StaffRow(Base):
    """A judge of one tournament: its chief judge or a table judge."""

    __tablename__ = "staff"

    tournament_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    user_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("users.telegram_id"), primary_key=True
    )
    role: Mapped[str] = mapped_column(String(16))


class OrganizerRow(Base):
    """A person an admin allowed to create tournaments."""

    __tablename__ = "organizers"

    user_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("users.telegram_id"), primary_key=True, autoincrement=False
    )
    appointed_by: Mapped[int] = mapped_column(BigInteger)
    appointed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
