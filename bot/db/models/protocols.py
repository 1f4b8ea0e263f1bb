"""Protocols: the judge's draft, the confirmed protocol, every correction, and the standings
computed from them."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, Boolean, DateTime, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from bot.db.models.base import Base


class _GuardedBody:
    """A game's JSON body that every change moves to the next `version` (a conditional
    UPDATE: two devices saving at once store one change), with who changed it and when."""

    game_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    body: Mapped[str] = mapped_column(Text)
    version: Mapped[int] = mapped_column(Integer)
    updated_by: Mapped[int] = mapped_column(BigInteger)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ProtocolDraftRow(_GuardedBody, Base):
    """The protocol screen as the judge left it (draft and tools, JSON); `version` guards it."""

    __tablename__ = "protocol_drafts"


class ProtocolRow(Base):
    """A confirmed protocol (JSON), as it stands after any corrections.

    How and when the game ended are also kept in columns of their own, so the games that
    ended by a special rule (three misses, an awarded defeat...) are found without reading
    every body.
    """

    __tablename__ = "protocols"

    game_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    body: Mapped[str] = mapped_column(Text)
    # A `domain.protocol.GameEnd` value; None for protocols kept before it was recorded.
    game_end: Mapped[str | None] = mapped_column(String(32), index=True)
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    confirmed_by: Mapped[int] = mapped_column(BigInteger)
    confirmed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ProtocolCorrectionRow(Base):
    """Who changed a confirmed protocol, when, and what it said before and after."""

    __tablename__ = "protocol_corrections"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("games.id", ondelete="CASCADE"), index=True
    )
    corrected_by: Mapped[int] = mapped_column(BigInteger)
    corrected_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    before: Mapped[str] = mapped_column(Text)
    after: Mapped[str] = mapped_column(Text)


class StandingsRow(Base):
    """How many results went into the tournament's standings: the results lock.

    Every confirmation and correction bumps `version` first: the row lock this takes makes
    results of one tournament go in one after another, so none is lost. The standings
    themselves are computed from the games whenever they are read.
    """

    __tablename__ = "standings"

    tournament_id: Mapped[int] = mapped_column(
        Integer,
        ForeignKey("tournaments.id", ondelete="CASCADE"),
        primary_key=True,
        autoincrement=False,
    )
    version: Mapped[int] = mapped_column(Integer)


class GameLogRow(_GuardedBody, Base):
    """The judge's live game (the Mini App): every action as it happened (JSON list, each with
    its moment); `version` guards it like the draft's. Kept with the confirmed protocol."""

    __tablename__ = "game_logs"


class StreamLinkRow(Base):
    """A game's stream view (the overlay for OBS or vMix): its link's token, the delay the
    stream shows the game with, and whether the organizer revoked it. One per game; a new
    link draws a new token, so the old one stops opening."""

    __tablename__ = "stream_links"

    game_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
    )
    token: Mapped[str] = mapped_column(String(64), unique=True)
    delay_seconds: Mapped[int] = mapped_column(Integer)
    revoked: Mapped[bool] = mapped_column(Boolean)
    updated_by: Mapped[int] = mapped_column(BigInteger)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
