from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, DateTime, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from bot.db.models.base import Base


class InviteRow(Base):
    """An opaque deep-link token: registration, a team's invite, a judge's or organizer's."""

    __tablename__ = "invites"

    token: Mapped[str] = mapped_column(String(32), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    tournament_id: Mapped[int | None] = mapped_column(
        Integer, ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    team_id: Mapped[int | None] = mapped_column(Integer, ForeignKey("teams.id", ondelete="CASCADE"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # Staff and organizer invites work once; registration and team links are shared.
    used_by: Mapped[int | None] = mapped_column(BigInteger)
