from __future__ import annotations

from sqlalchemy import Boolean, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from bot.db.models.base import Base


class TeamRow(Base):
    """A team of a team tournament; `captain_id` is a participant."""

    __tablename__ = "teams"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    name: Mapped[str] = mapped_column(String(48))
    # No foreign key: the captain's participant row points back at the team.
    captain_id: Mapped[int] = mapped_column(Integer)
    withdrawn: Mapped[bool] = mapped_column(Boolean, default=False)
