from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

from sqlalchemy import (
    BigInteger,
    Boolean,
    Date,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    Numeric,
    String,
    Text,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column

from bot.db.models.base import Base


class TournamentRow(Base):
    __tablename__ = "tournaments"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    title: Mapped[str] = mapped_column(String(128))
    regulation_id: Mapped[str] = mapped_column(String(64))
    state: Mapped[str] = mapped_column(String(32))
    timezone: Mapped[str] = mapped_column(String(64))
    created_by: Mapped[int] = mapped_column(BigInteger, ForeignKey("users.telegram_id"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    city: Mapped[str | None] = mapped_column(String(128))
    venue: Mapped[str | None] = mapped_column(String(256))
    channel_id: Mapped[int | None] = mapped_column(BigInteger)
    current_stage: Mapped[str | None] = mapped_column(String(32))
    regulation_json: Mapped[str | None] = mapped_column(Text)
    starts_on: Mapped[date | None] = mapped_column(Date)
    ends_on: Mapped[date | None] = mapped_column(Date)
    timetable_json: Mapped[str | None] = mapped_column(Text)
    capacity: Mapped[int | None] = mapped_column(Integer)
    registration_deadline: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    entry_fee: Mapped[Decimal | None] = mapped_column(Numeric(12, 2))
    club_quota: Mapped[int | None] = mapped_column(Integer)
    checkin_cutoff: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    locale: Mapped[str] = mapped_column(String(8), default="ru", server_default="ru")
    channel_name: Mapped[str | None] = mapped_column(String(256))
    web_visibility: Mapped[str] = mapped_column(
        String(16), default="public", server_default="public"
    )
    web_token: Mapped[str | None] = mapped_column(String(64))
    # The season (#28): the series it belongs to, whether its games count for the rating,
    # its category (stars) and the participants' average rating it was set from, and the
    # digest of the file it was imported from (an import of the same file is refused).
    series_id: Mapped[int | None] = mapped_column(Integer, ForeignKey("series.id"), index=True)
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    category_stars: Mapped[int | None] = mapped_column(Integer)
    category_rating: Mapped[float | None] = mapped_column(Float)
    import_digest: Mapped[str | None] = mapped_column(String(64), index=True, unique=True)
