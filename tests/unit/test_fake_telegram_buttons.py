"""The fake Telegram checks an inline keyboard's buttons as Telegram does
(`harness.fake_telegram.content.check_button`)."""

from __future__ import annotations

from typing import Any

import pytest

from harness.fake_telegram.content import check_button
from harness.fake_telegram.params import ApiError


@pytest.mark.parametrize(
    "button",
    [
        {"text": "Seat 4", "callback_data": "pp:4"},
        {"text": "Site", "url": "https://example.org"},
        {"text": "Live game", "web_app": {"url": "https://example.org/app"}},
        {"text": "Copy", "copy_text": {"text": "x"}},
    ],
)
def test_a_button_with_an_action_is_accepted(button: dict[str, Any]) -> None:
    check_button(button)


@pytest.mark.parametrize(
    ("button", "reason"),
    [
        ({"text": "Seat 4"}, "Text buttons are unallowed in the inline keyboard"),
        ({"text": "Seat 4", "style": "x"}, "Text buttons are unallowed in the inline keyboard"),
        ({"text": " ", "callback_data": "pp:4"}, "BUTTON_TEXT_INVALID"),
        ({"text": "Seat 4", "callback_data": "x" * 65}, "BUTTON_DATA_INVALID"),
        ({"text": "Site", "url": "ftp://example.org"}, "BUTTON_URL_INVALID"),
    ],
)
def test_a_button_telegram_refuses_is_refused(button: dict[str, Any], reason: str) -> None:
    with pytest.raises(ApiError) as refused:
        check_button(button)

    assert refused.value.error_code == 400
    assert reason in refused.value.description
