"""The Bot's HTTP session: a Bot API call without a file goes as a JSON body, not as a form.

aiogram posts every call as a form, and aiohttp percent-encodes a form's values in Python,
byte by byte: a protocol screen's edit carries its keyboard (some 3 KB of JSON), and encoding
it was a tenth of a judge's press (thirty of them at a round's start). The Bot API reads
`application/json` bodies for every method except uploads; the values are aiogram's own,
prepared as for its form (nested objects as JSON text, numbers as strings), which the Bot API
reads alike in either body. A call that uploads a file is posted as aiogram's form.
"""

from __future__ import annotations

from typing import Any

from aiogram import Bot
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.methods import TelegramMethod
from aiogram.methods.base import TelegramType
from aiohttp import BytesPayload, FormData, Payload

JSON = "application/json"


class _JsonBody(FormData):
    """A call's values posted as JSON: aiohttp posts what a form's `__call__` gives."""

    def __init__(self, body: str) -> None:
        super().__init__()
        self._body = body.encode()

    def __call__(self) -> Payload:
        return BytesPayload(self._body, content_type=JSON)


class JsonBodySession(AiohttpSession):
    """aiogram's aiohttp session, its calls without files posted as JSON bodies."""

    def build_form_data(self, bot: Bot, method: TelegramMethod[TelegramType]) -> FormData:
        files: dict[str, Any] = {}
        values = {}
        # No None is sent (aiogram's preparing drops them, nested ones too): none is dumped.
        for key, value in method.model_dump(warnings=False, exclude_none=True).items():
            prepared = self.prepare_value(value, bot=bot, files=files)
            if prepared:  # as aiogram's form: an empty value is not sent
                values[key] = prepared
        if files:
            return super().build_form_data(bot, method)
        return _JsonBody(self.json_dumps(values))
