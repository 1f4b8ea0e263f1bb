"""The outbox: messages waiting to be sent, the messages kept up to date in place, and the
chats the bot cannot write to."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    false,
    func,
)
from sqlalchemy.orm import Mapped, mapped_column

from bot.db.models.base import Base


class _MessageColumns:
    """The stored form of an `OutgoingMessage`: JSON body, attachment bytes beside it."""

    chat_id: Mapped[int] = mapped_column(BigInteger)
    tournament_id: Mapped[int | None] = mapped_column(
        Integer, ForeignKey("tournaments.id", ondelete="CASCADE")
    )
    # Everything but the attachment, as JSON (see `bot/db/repositories/stored_messages.py`).
    body: Mapped[str] = mapped_column(Text)
    attachment_kind: Mapped[str | None] = mapped_column(String(16))
    attachment_name: Mapped[str | None] = mapped_column(String(255))
    attachment: Mapped[bytes | None] = mapped_column(LargeBinary)


class OutboxRow(_MessageColumns, Base):
    __tablename__ = "outbox"
    # The worker reads pending messages oldest first.
    __table_args__ = (
        Index("ix_outbox_status_id", "status", "id"),
        Index("ix_outbox_drawn_edit_status", "drawn_edit", "status"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    dedupe_key: Mapped[str | None] = mapped_column(String(255), unique=True)
    status: Mapped[str] = mapped_column(String(16))
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    # Unset: as soon as possible; set after a 429 or a network error.
    not_before: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.current_timestamp()
    )
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    telegram_message_id: Mapped[int | None] = mapped_column(BigInteger)
    error: Mapped[str | None] = mapped_column(String(255))
    # The worker process sending it while "sending" (its lease is in `leases`).
    claimed_by: Mapped[str | None] = mapped_column(String(64))
    # Sent again after an answer was lost: the recipient may have it twice.
    maybe_duplicate: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # Unreachable or uncertain: when the organizer's digest named it (unset: not yet).
    reported_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # The edit key of an edit whose text is drawn when it is sent (the live table): a newer
    # pending one of the same key supersedes it (`SqlOutbox.supersede`).
    drawn_edit: Mapped[str | None] = mapped_column(String(255))


class MessageAnchorRow(Base):
    """A sent message a later push edits in place, under a key such as "standings:7"."""

    __tablename__ = "message_anchors"

    key: Mapped[str] = mapped_column(String(255), primary_key=True)
    chat_id: Mapped[int] = mapped_column(BigInteger)
    message_id: Mapped[int] = mapped_column(BigInteger)
    # What it shows as last sent: a digest of its text and keyboard (`bot.delivery.render`);
    # unset when unknown. An edit with the same digest is not sent.
    shown_digest: Mapped[str | None] = mapped_column(String(64))


class UnreachableChatRow(Base):
    """A person who blocked the bot or never pressed /start; cleared by a later delivery."""

    __tablename__ = "unreachable_chats"

    chat_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    since: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    reason: Mapped[str] = mapped_column(String(255))


class ScheduledPushRow(_MessageColumns, Base):
    """A message moved into the outbox when due; `key` replaces it when the timetable moves."""

    __tablename__ = "scheduled_pushes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(255), unique=True)
    due_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
