"""Helpers (no tests here) driving the lifecycle screens through the fake Telegram.

The driving itself lives in the product's simulation (`harness.simulation.screens`); this module
keeps the tests' own tournament and admin.
"""

from __future__ import annotations

from aiogram import Router

from bot.app import Application
from harness.fake_telegram import ChatMessage, FakeTelegram, FakeUser
from harness.simulation import screens
from harness.simulation.screens import answer, containing, payload_in, press

__all__ = [
    "ADMIN_ID",
    "answer",
    "consulted_first",
    "containing",
    "create_tournament",
    "payload_in",
    "press",
]

ADMIN_ID = 1


def consulted_first(app: Application, router: Router) -> Application:
    """`app` with a test's `router` consulted right after the errors router, before the
    screens and the catch-all for stale buttons."""
    app.dispatcher.include_router(router)
    app.dispatcher.sub_routers.insert(1, app.dispatcher.sub_routers.pop())
    return app


async def create_tournament(
    fake: FakeTelegram,
    organizer: FakeUser,
    preset_button: str = "Командный турнир Сибири и Урала",
    capacity: int = 60,
    quota: str | None = None,
) -> ChatMessage:
    """The tests' tournament «Кубок <Сибири>» by the wizard; return the tournament card."""
    return await screens.create_tournament(
        fake,
        organizer,
        title="Кубок <Сибири>",
        capacity=capacity,
        channel_username="cup_channel",
        channel_id=-1001234567,
        preset_button=preset_button,
        quota=quota,
    )
