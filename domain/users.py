"""A person known to the bot: anyone who has written to it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class User:
    """A Telegram user as the tournament sees them; `locale` is the language the bot speaks."""

    telegram_id: int
    first_name: str
    last_name: str | None
    username: str | None
    locale: str

    @property
    def display_name(self) -> str:
        """The name to show: first and last name as Telegram gives them."""
        return f"{self.first_name} {self.last_name}" if self.last_name else self.first_name
