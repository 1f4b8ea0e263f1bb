from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, String
from sqlalchemy.orm import Mapped, mapped_column

from bot.db.models.base import Base


class ConversationRow(Base):
    """Where a person is in a wizard (aiogram FSM state and data), so it survives a restart."""

    __tablename__ = "conversations"

    key: Mapped[str] = mapped_column(String(255), primary_key=True)
    state: Mapped[str | None] = mapped_column(String(255))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
