"""Who acts in a use case, with which rights, and at what moment."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class Actor:
    """The person a use case acts for: his Telegram id, whether he is one of the bot's
    admins, and the moment he acts at (the injected clock's, read once per update)."""

    user_id: int
    now: datetime
    is_admin: bool = False

    @classmethod
    def of(cls, user_id: int, now: datetime, admin_ids: Collection[int]) -> Actor:
        """The person acting at `now`, an admin when his id is among `admin_ids`."""
        return cls(user_id, now, is_admin=user_id in admin_ids)
