"""A stage's seating as published: stages with their seed, rounds, table games and seats."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    BigInteger,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from bot.db.models.base import Base


class StageRow(Base):
    """A stage of a tournament that has been seated; `seed` reproduces its seating."""

    __tablename__ = "stages"
    __table_args__ = (UniqueConstraint("tournament_id", "stage"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("tournaments.id", ondelete="CASCADE")
    )
    stage: Mapped[str] = mapped_column(String(32))
    seed: Mapped[int] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RoundRow(Base):
    __tablename__ = "rounds"
    __table_args__ = (UniqueConstraint("stage_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    stage_id: Mapped[int] = mapped_column(Integer, ForeignKey("stages.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    # Participant ids of the players sitting this round out, as a JSON list.
    sit_outs: Mapped[str] = mapped_column(Text)
    published_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class GameRow(Base):
    """The game of one round at one table; `version` guards confirmations and corrections."""

    __tablename__ = "games"
    __table_args__ = (UniqueConstraint("round_id", "table_number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    round_id: Mapped[int] = mapped_column(Integer, ForeignKey("rounds.id", ondelete="CASCADE"))
    table_number: Mapped[int] = mapped_column(Integer)
    judge_id: Mapped[int | None] = mapped_column(
        BigInteger, ForeignKey("users.telegram_id"), index=True
    )
    state: Mapped[str] = mapped_column(String(16))
    version: Mapped[int] = mapped_column(Integer)
    protest_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class GameSeatRow(Base):
    __tablename__ = "game_seats"

    game_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    participant_id: Mapped[int] = mapped_column(Integer, ForeignKey("participants.id"))
