"""Protests against games' results, the organizer's protest switch, and the audit log."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, Boolean, DateTime, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from bot.db.models.base import Base


class ProtestRow(Base):
    """A player's protest and the chief judge's decision.

    `open_key` ("game:participant") is set while the protest is open and cleared when it is
    settled: its unique constraint keeps one open protest per player per game even when two
    filings race (NULLs never collide, on SQLite and PostgreSQL alike).
    """

    __tablename__ = "protests"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    game_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("games.id", ondelete="CASCADE"), index=True
    )
    participant_id: Mapped[int] = mapped_column(Integer, ForeignKey("participants.id"))
    user_id: Mapped[int] = mapped_column(BigInteger)
    reason: Mapped[str] = mapped_column(Text)
    photo: Mapped[str | None] = mapped_column(String(256))
    filed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    status: Mapped[str] = mapped_column(String(16))
    open_key: Mapped[str | None] = mapped_column(String(32), unique=True)
    decided_by: Mapped[int | None] = mapped_column(BigInteger)
    decided_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    decision: Mapped[str | None] = mapped_column(Text)


class ProtestSwitchRow(Base):
    """The organizer's override of the regulation's protest window: on or off."""

    __tablename__ = "protest_switches"

    tournament_id: Mapped[int] = mapped_column(
        Integer,
        ForeignKey("tournaments.id", ondelete="CASCADE"),
        primary_key=True,
        autoincrement=False,
    )
    enabled: Mapped[bool] = mapped_column(Boolean)


class AuditEntryRow(Base):
    """One entry of a tournament's audit log."""

    __tablename__ = "audit_entries"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    actor_id: Mapped[int | None] = mapped_column(BigInteger)
    kind: Mapped[str] = mapped_column(String(32))
    text: Mapped[str] = mapped_column(Text)
    game_id: Mapped[int | None] = mapped_column(Integer)
    protest_id: Mapped[int | None] = mapped_column(Integer)
