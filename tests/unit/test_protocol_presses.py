"""The protocol screen's one filter takes each of its buttons as unpacked, and nothing else:
a forged or foreign press is left to the catch-all (out of date), however often it comes."""

from __future__ import annotations

import pytest
from aiogram.types import CallbackQuery, User

from domain.protocol_screen import Act
from handlers.callbacks import ProtocolAction, ProtocolButton
from handlers.protocol import protocol_pressed

SENDER = User(id=1, is_bot=False, first_name="Ворон")


def _query(data: str) -> CallbackQuery:
    return CallbackQuery.model_validate(
        {"id": "1", "from": SENDER, "chat_instance": "c", "data": data}
    )


@pytest.mark.parametrize(
    "button",
    [
        ProtocolButton(game_id=7, action=ProtocolAction.OPEN),
        ProtocolButton(game_id=7, action=ProtocolAction.CONFIRM),
        ProtocolButton(game_id=7, action=Act.MODE, value=3),
        ProtocolButton(game_id=7, action=Act.ROLE, seat=4, value=2),
    ],
)
async def test_each_button_reaches_the_handler_as_it_was_packed(button: ProtocolButton) -> None:
    for _ in range(2):  # the second press of the same button is the kept one
        assert await protocol_pressed(_query(button.pack())) == {"callback_data": button}


@pytest.mark.parametrize(
    "data",
    ["pp:1:zz:0:0", "pp:1:m:0:" + "9" * 30, "pp:1:m:0", "pp:-1:m:0:1", "ppx:1:m:0:1", "pt:1"],
)
async def test_forged_and_foreign_presses_are_not_the_screens(data: str) -> None:
    for _ in range(2):
        assert await protocol_pressed(_query(data)) is False


async def test_a_press_kept_is_handed_to_each_handler_as_its_own() -> None:
    data = ProtocolButton(game_id=7, action=Act.MODE, value=3).pack()
    first = await protocol_pressed(_query(data))
    assert isinstance(first, dict)
    first["callback_data"].value = 4
    again = await protocol_pressed(_query(data))
    assert again == {"callback_data": ProtocolButton(game_id=7, action=Act.MODE, value=3)}
