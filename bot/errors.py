"""Why the bot cannot start, told in one line: shared by start-up (bot/app) and polling
(bot/telegram), which both find a token Telegram refuses."""

from __future__ import annotations


class StartupError(Exception):
    """The bot cannot start; the message is one line: the cause, then what to do."""


class TokenRefused(StartupError):
    """Telegram refuses BOT_TOKEN (401): a bad setting, which no restart would fix."""

    def __init__(self) -> None:
        super().__init__(
            "Telegram refused BOT_TOKEN (401 Unauthorized): the token is wrong or was revoked; "
            "take the current one from @BotFather (/mybots, API Token) and put it into BOT_TOKEN"
        )
