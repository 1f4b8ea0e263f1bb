"""Who is calling the Mini App's API: Telegram's `initData`, checked with the bot's token.

Every request carries the launch data Telegram gave the Mini App (`Authorization: tma
<initData>`). aiogram's `safe_parse_webapp_init_data` checks its signature; data signed with
another bot's token, altered, without a user or older than `MAX_AGE` is refused (401) before
anything is read or changed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta

from aiogram.utils.web_app import safe_parse_webapp_init_data
from aiohttp import web

from bot.i18n import LOCALES, translator

# Launch data this old is refused: a Mini App left open for a day is opened again.
MAX_AGE = timedelta(hours=24)
# A launch moment this far ahead of the bot's clock is as forged as an old one.
CLOCK_SLACK = timedelta(minutes=5)
SCHEME = "tma "


@dataclass(frozen=True)
class Caller:
    """The Telegram user the launch data names, and his client's language."""

    user_id: int
    language_code: str | None


class Unauthorized(web.HTTPUnauthorized):
    """The request's launch data is missing, forged, foreign or expired. Nobody is known, so
    the explanation comes in every language (the page picks its reader's)."""

    def __init__(self, reason: str) -> None:
        body = {
            "error": "unauthorized",
            "reason": reason,
            "messages": {
                locale: translator().get(locale, "miniapp-unauthorized") for locale in LOCALES
            },
        }
        super().__init__(text=json.dumps(body, ensure_ascii=False), content_type="application/json")


def caller(request: web.Request, token: str, now: datetime) -> Caller:
    """The caller of `request`; raises `Unauthorized` (401) unless Telegram signed the data
    for this bot within `MAX_AGE` of `now`."""
    header = request.headers.get("Authorization", "")
    if not header.startswith(SCHEME):
        raise Unauthorized("no launch data")
    try:
        data = safe_parse_webapp_init_data(token, header[len(SCHEME) :])
    except ValueError:
        raise Unauthorized("bad signature") from None
    if data.user is None:
        raise Unauthorized("no user")
    signed_at = data.auth_date
    if signed_at < now - MAX_AGE or signed_at > now + CLOCK_SLACK:
        raise Unauthorized("expired")
    return Caller(data.user.id, data.user.language_code)
