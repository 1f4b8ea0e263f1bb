"""The one error handler: the traceback goes to the log, a short apology to the person."""

from __future__ import annotations

import logging
from typing import Any

from aiogram import Router
from aiogram.exceptions import TelegramAPIError
from aiogram.types import ErrorEvent

from bot.i18n import normalize_locale
from handlers.middlewares import Texts

log = logging.getLogger(__name__)


async def apologise(event: ErrorEvent, **data: Any) -> bool:
    update = event.update
    log.error("update %s failed", update.update_id, exc_info=event.exception)
    texts: Texts | None = data.get("texts")
    if texts is None:
        sender = data.get("event_from_user")
        texts = Texts(normalize_locale(sender.language_code if sender else None))
    apology = texts("error-apology")
    try:
        if update.message is not None:
            await update.message.answer(apology)
        elif update.callback_query is not None:
            await update.callback_query.answer(apology, show_alert=True)
    except TelegramAPIError:
        log.warning("could not apologise for update %s", update.update_id, exc_info=True)
    return True


def make_router() -> Router:
    """The error handler; errors raised in any router of the Dispatcher reach it."""
    router = Router(name="errors")
    router.errors.register(apologise)
    return router
