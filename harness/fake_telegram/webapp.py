"""Mini App launch data as Telegram makes it: `initData` signed with the bot's token.

Telegram hands a Mini App its launch parameters in the URL's fragment (`#tgWebAppData=…`):
the user, the moment and a hash, an HMAC-SHA256 over the sorted `key=value` lines with the
key HMAC-SHA256("WebAppData", bot token). The bot checks it with aiogram's
`safe_parse_webapp_init_data`; this signs it the same way.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode


def sign_init_data(token: str, fields: dict[str, str]) -> str:
    """The `initData` query string of `fields` with its `hash`, as Telegram signs it."""
    check = "\n".join(f"{key}={value}" for key, value in sorted(fields.items()))
    secret = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    digest = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    return urlencode({**fields, "hash": digest}, quote_via=quote)


def init_data(token: str, user: dict[str, Any], auth_date: int, query_id: str) -> str:
    """The `initData` a Mini App opened by `user` at `auth_date` (Unix seconds) receives."""
    fields = {
        "query_id": query_id,
        "user": json.dumps(user, ensure_ascii=False, separators=(",", ":")),
        "auth_date": str(auth_date),
    }
    return sign_init_data(token, fields)


# Telegram's light theme, as a client passes it (`tgWebAppThemeParams`).
THEME = {
    "bg_color": "#ffffff",
    "text_color": "#000000",
    "hint_color": "#999999",
    "link_color": "#2481cc",
    "button_color": "#2481cc",
    "button_text_color": "#ffffff",
    "secondary_bg_color": "#efeff3",
}


# Telegram's dark theme ("Night", as Telegram Desktop and the web client pass it).
DARK_THEME = {
    "bg_color": "#17212b",
    "text_color": "#f5f5f5",
    "hint_color": "#708499",
    "link_color": "#6ab3f3",
    "button_color": "#5288c1",
    "button_text_color": "#ffffff",
    "secondary_bg_color": "#232e3c",
}


def with_theme(address: str, theme: dict[str, str]) -> str:
    """A launch address (`launch_url`'s) with another theme in its fragment."""
    page, fragment = address.split("#", 1)
    fields = dict(parse_qsl(fragment))
    fields["tgWebAppThemeParams"] = json.dumps(theme, separators=(",", ":"))
    return f"{page}#{urlencode(fields, quote_via=quote)}"


def launch_url(url: str, data: str) -> str:
    """The address a client opens for a `web_app` button: its URL with the launch fragment."""
    fragment = urlencode(
        {
            "tgWebAppData": data,
            "tgWebAppVersion": "7.0",
            "tgWebAppPlatform": "web",
            "tgWebAppThemeParams": json.dumps(THEME, separators=(",", ":")),
        },
        quote_via=quote,
    )
    return f"{url}#{fragment}"
