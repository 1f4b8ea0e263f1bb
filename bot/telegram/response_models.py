"""Keeps aiogram's `Response[...]` models alive between Bot API calls.

aiogram validates every Bot API answer with `Response[method.__returning__]`, a pydantic
generic model made on first use and cached by pydantic with weak references only: with nothing
else holding it, the class is collected and made again on a later call (about 9 ms of CPU each
time, some 16 % of the bot's CPU under load). This request middleware holds one reference per
method the bot calls, so each model is made once per process.
"""

from __future__ import annotations

from typing import Any

from aiogram import Bot
from aiogram.client.session.middlewares.base import (
    BaseRequestMiddleware,
    NextRequestMiddlewareType,
)
from aiogram.methods import Response, TelegramMethod
from aiogram.methods.base import TelegramType


class HeldResponseModels(BaseRequestMiddleware):
    """Holds the `Response[...]` model of each method type the bot has called (a few dozen at
    most, one per Bot API method)."""

    def __init__(self) -> None:
        self._held: dict[type[TelegramMethod[Any]], type[Response[Any]]] = {}

    async def __call__(
        self,
        make_request: NextRequestMiddlewareType[TelegramType],
        bot: Bot,
        method: TelegramMethod[TelegramType],
    ) -> Response[TelegramType]:
        kind = type(method)
        if kind not in self._held:
            self._held[kind] = Response[method.__returning__]  # type: ignore[name-defined]
        return await make_request(bot, method)

    @property
    def held(self) -> int:
        """How many models are held."""
        return len(self._held)
