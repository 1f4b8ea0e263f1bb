"""aiogram's `Response[...]` models stay alive once made, so no Bot API call pays for making
them again (pydantic's own cache lets them be collected)."""

from __future__ import annotations

import gc
import weakref

from aiogram.methods import Response, SendMessage

from bot.app import build_bot
from bot.config import Settings
from bot.telegram.response_models import HeldResponseModels


def _model_ref() -> weakref.ref[type]:
    return weakref.ref(Response[SendMessage.__returning__])


async def test_a_called_methods_response_model_survives_a_collection() -> None:
    middleware = HeldResponseModels()
    method = SendMessage(chat_id=1, text="hi")

    async def make_request(bot, called):  # type: ignore[no-untyped-def]
        return "answered"

    assert await middleware(make_request, None, method) == "answered"  # type: ignore[arg-type]
    model = _model_ref()
    gc.collect()
    assert model() is not None
    assert middleware.held == 1


def test_the_bots_session_holds_the_models() -> None:
    settings = Settings(_env_file=None, bot_token="1:x", database_url="sqlite+aiosqlite://")  # type: ignore[call-arg]
    bot = build_bot(settings)
    assert any(isinstance(m, HeldResponseModels) for m in bot.session.middleware)
