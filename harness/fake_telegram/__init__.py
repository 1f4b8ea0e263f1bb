"""A fake Telegram Bot API server with scripted people, for tests and `mafiatour simulate`."""

from harness.fake_telegram.limits import RateLimits
from harness.fake_telegram.people import FakeChannel, FakeChat, FakeGroup, FakeUser, Press
from harness.fake_telegram.server import FakeTelegram
from harness.fake_telegram.state import WAIT_LIMIT, CallbackAnswer, ChatMessage, FileView
from harness.fake_telegram.stats import FakeStats, RequestRecord

__all__ = [
    "WAIT_LIMIT",
    "CallbackAnswer",
    "ChatMessage",
    "FakeChannel",
    "FakeChat",
    "FakeGroup",
    "FakeStats",
    "FakeTelegram",
    "FakeUser",
    "FileView",
    "Press",
    "RateLimits",
    "RequestRecord",
]
