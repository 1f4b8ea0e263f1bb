"""The chief judge's decisions the protocols do not hold: lots drawn on ties, games annulled."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, DateTime, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from bot.db.models.base import Base


class LotDecisionRow(Base):
    """A lot drawn on one tie: the tied ids and the order (JSON lists), how, by whom."""

    __tablename__ = "lot_decisions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    unit: Mapped[str] = mapped_column(String(16))
    context: Mapped[str] = mapped_column(String(64))
    tied: Mapped[str] = mapped_column(Text)
    method: Mapped[str] = mapped_column(String(16))
    seed: Mapped[str] = mapped_column(String(64))
    drawn_order: Mapped[str] = mapped_column(Text)
    decided_by: Mapped[int] = mapped_column(BigInteger)
    decided_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class AnnulledGameRow(Base):
    """A game the chief judge annulled: its protocol and seats stay, its points do not count."""

    __tablename__ = "annulled_games"

    game_id: Mapped[int] = mapped_column(
        Integer,
        ForeignKey("games.id", ondelete="CASCADE"),
        primary_key=True,
        autoincrement=False,
    )
    tournament_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    annulled_by: Mapped[int] = mapped_column(BigInteger)
    annulled_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
