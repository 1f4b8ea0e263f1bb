"""The error path: a refusal is answered with its reason, anything else is apologised for.

Use cases raise `Forbidden`, `NotFound` or `Invalid(code, **args)` before they commit, so a
refused request changed nothing; the refusal handler says why, in the person's language, to a
message or a press alike. Any other error's traceback goes to the log and a short apology to
the person.
"""

from __future__ import annotations

import logging
from typing import Any

from aiogram import Router
from aiogram.dispatcher.event.bases import UNHANDLED
from aiogram.dispatcher.middlewares.error import ErrorsMiddleware
from aiogram.exceptions import TelegramAPIError
from aiogram.filters import ExceptionTypeFilter
from aiogram.types import ErrorEvent, Message

from bot.i18n import normalize_locale
from bot.telegram.replies import UpdateReplies, replying_to
from domain.layout import argument
from domain.outgoing import Phrase
from domain.permissions import Forbidden
from domain.services.access import NotFound
from domain.validation import Invalid
from handlers.common import tell
from handlers.middlewares import Texts

log = logging.getLogger(__name__)

# What a use case or a rule raises to refuse a request.
REFUSALS = (Invalid, Forbidden, NotFound)


def refusal_text(texts: Texts, error: Exception) -> str:
    """Why a request was refused, in the person's language; typed values are escaped."""
    if isinstance(error, Invalid):
        args = {k: argument(v) for k, v in error.args_.items()}
        return texts.phrase(Phrase.of(error.code, **args))
    if isinstance(error, Forbidden):
        return texts("refused-forbidden")
    return texts("refused-not-found")


def _texts(data: dict[str, Any]) -> Texts:
    """The person's translator (the middleware's, or from the Telegram client's language
    when the error came before it)."""
    texts: Texts | None = data.get("texts")
    if texts is None:
        sender = data.get("event_from_user")
        texts = Texts(normalize_locale(sender.language_code if sender else None))
    return texts


async def refuse(event: ErrorEvent, **data: Any) -> Any:
    """Answer a refused message or press with the refusal's reason: an alert to a press, or a
    message under it when the press was answered already (long work answers at once)."""
    update = event.update
    asked = update.message or update.callback_query
    if asked is None:
        return UNHANDLED  # no one to answer: the apology handler logs it
    await tell(asked, refusal_text(_texts(data), event.exception))
    return True


async def apologise(event: ErrorEvent, **data: Any) -> bool:
    update = event.update
    log.error("update %s failed", update.update_id, exc_info=event.exception)
    apology = _texts(data)("error-apology")
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


def refusals_answered() -> ErrorsMiddleware:
    """An update middleware that hands a refusal to the refusal handler (its own router's
    error observer). Registered after the Dispatcher's other update middlewares, it answers
    within the person's turn, so the refusal keeps its place among his replies, and within
    the reply scope, so a press is answered once; any other error goes on to the apology."""
    router = Router(name="refusals")
    router.errors.register(refuse, ExceptionTypeFilter(*REFUSALS))
    return ErrorsMiddleware(router)


def make_router() -> Router:
    """The apology handler; errors raised in any router of the Dispatcher reach it."""
    router = Router(name="errors")
    router.errors.register(apologise)
    return router
