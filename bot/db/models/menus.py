"""What the bot last set as a command menu on Telegram, by scope."""

from __future__ import annotations

from sqlalchemy import String
from sqlalchemy.orm import Mapped, mapped_column

from bot.db.models.base import Base


class CommandMenuRow(Base):
    """The digest of the commands set for one scope ("default:ru", "chat:123:"), so a menu
    that would not change is not set again (Telegram limits setMyCommands tightly)."""

    __tablename__ = "command_menus"

    scope: Mapped[str] = mapped_column(String(96), primary_key=True)
    digest: Mapped[str] = mapped_column(String(64))
