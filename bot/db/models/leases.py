"""Leases shared by the bot's processes: who is alive, who sweeps, who polls, which updates
are being handled."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, DateTime, String
from sqlalchemy.orm import Mapped, mapped_column

from bot.db.models.base import Base


class LeaseRow(Base):
    """A named role held by one process until `expires_at` unless renewed ("scheduler",
    "worker:<process>", "polling")."""

    __tablename__ = "leases"

    name: Mapped[str] = mapped_column(String(128), primary_key=True)
    holder: Mapped[str] = mapped_column(String(64))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class HandledUpdateRow(Base):
    """A webhook update taken by a process (`done` unset: still being handled until
    `expires_at`), so Telegram's second delivery of it is dropped."""

    __tablename__ = "handled_updates"

    update_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    done: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
