"""The one error handler: the traceback goes to the log, a short apology to the person."""

from __future__ import annotations

import logging
from typing import Any

from aiogram import Router
from aiogram.exceptions import TelegramAPIError
from aiogram.types import ErrorEvent, Message

from bot.i18n import normalize_locale
from bot.replies import UpdateReplies, replying_to
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
    # The apology goes out like any reply (through flood limits and faults), and a press the
    # handler already answered gets it as a message: a query can be answered only once.
    replies: UpdateReplies = data.get("replies") or UpdateReplies()
    query = update.callback_query
    try:
        with replying_to(replies):
            if update.message is not None:
                await update.message.answer(apology)
            elif query is not None and query.id not in replies.answered:
                await query.answer(apology, show_alert=True)
            elif query is not None and isinstance(query.message, Message):
                await query.message.answer(apology)
    except TelegramAPIError:
        log.warning("could not apologise for update %s", update.update_id, exc_info=True)
    return True


def make_router() -> Router:
    """The error handler; errors raised in any router of the Dispatcher reach it."""
    router = Router(name="errors")
    router.errors.register(apologise)
    return router
