"""What a sent or edited message carries, checked as Telegram checks it: its text or caption
(HTML parsed, length counted in UTF-16) and its keyboard (every button's action and data)."""

from __future__ import annotations

from typing import Any

from harness.fake_telegram.html import HtmlError, parse_html, utf16_length
from harness.fake_telegram.params import Params, bad_request

TEXT_LIMIT = 4096
CAPTION_LIMIT = 1024
CALLBACK_DATA_LIMIT = 64
_BUTTON_ACTIONS = frozenset(
    {
        "callback_data",
        "url",
        "login_url",
        "switch_inline_query",
        "switch_inline_query_current_chat",
        "switch_inline_query_chosen_chat",
        "callback_game",
        "pay",
        "web_app",
        "copy_text",
    }
)


def formatted(
    params: Params, field: str, limit: int, required: bool
) -> tuple[str | None, list[dict[str, Any]]]:
    """The text or caption in `field` as the chat shows it (HTML parsed) and its entities,
    refused as Telegram refuses it (empty, unparsable, longer than `limit`)."""
    source = params.string(field)
    entities_field = "entities" if field == "text" else "caption_entities"
    if source is None:
        if required:
            raise bad_request("message text is empty")
        return None, []
    parse_mode = params.string("parse_mode")
    if parse_mode is None:
        text = source
        entities = params.json_object(entities_field, "entities") or []
    elif parse_mode.lower() == "html":
        try:
            text, entities = parse_html(source)
        except HtmlError as error:
            raise bad_request(f"can't parse entities: {error}") from error
    else:
        raise bad_request(f"unsupported parse_mode {parse_mode}: this fake checks HTML only")
    if required and not text.strip():
        raise bad_request("message text is empty")
    if utf16_length(text) > limit:
        raise bad_request(
            "message is too long" if field == "text" else "message caption is too long"
        )
    return text, entities


def markup(params: Params) -> tuple[dict[str, Any] | None, list[list[Any]] | None]:
    """The inline keyboard (echoed in messages) and the reply keyboard, both validated."""
    markup = params.json_object("reply_markup", "reply keyboard markup")
    if not markup:
        return None, None
    if not isinstance(markup, dict):
        raise bad_request("can't parse reply keyboard markup JSON object")
    if "inline_keyboard" in markup:
        rows = markup["inline_keyboard"]
        if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
            raise bad_request(
                'field "inline_keyboard" of the InlineKeyboardMarkup must be an Array of Arrays'
            )
        for button in (button for row in rows for button in row):
            check_button(button)
        return {"inline_keyboard": rows}, None
    if "keyboard" in markup:
        return None, markup["keyboard"]
    return None, None


def check_button(button: Any) -> None:
    if not isinstance(button, dict) or not str(button.get("text", "")).strip():
        raise bad_request("BUTTON_TEXT_INVALID")
    # A set meets the button's few keys: a keyboard's thirty buttons are checked at each edit.
    if _BUTTON_ACTIONS.isdisjoint(button):
        raise bad_request(
            "can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard"
        )
    if "callback_data" in button:
        data = str(button["callback_data"]).encode("utf-8")
        if not 1 <= len(data) <= CALLBACK_DATA_LIMIT:
            raise bad_request("BUTTON_DATA_INVALID")
    if "url" in button and not str(button["url"]).startswith(("http://", "https://", "tg://")):
        raise bad_request("BUTTON_URL_INVALID")
