"""A screen's answer longer than Telegram allows goes as several messages, cut by the same
splitter as the pushes, its keyboard under the last."""

from __future__ import annotations

from typing import Any, cast

from aiogram.types import Message

from domain.layout import lines, numbered
from domain.outgoing import TEXT_LIMIT, Phrase
from handlers.common import answer
from handlers.middlewares import Texts


class _Chat:
    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []

    async def answer(self, text: str, **kwargs: Any) -> None:
        self.sent.append((text, kwargs))


async def test_a_long_answer_is_cut_at_the_limit_with_the_keyboard_under_the_last_part() -> None:
    chat = _Chat()
    line = "<b>Стол</b> " + "ж" * 90 + "\n"
    text = line * 100  # about 10,000 characters
    await answer(cast(Message, chat), text, reply_markup="keyboard")
    assert len(chat.sent) == 3
    assert all(len(part) <= TEXT_LIMIT for part, _ in chat.sent)
    assert [kwargs for _, kwargs in chat.sent] == [{}, {}, {"reply_markup": "keyboard"}]
    assert "".join(part + "\n" for part, _ in chat.sent) == text


async def test_a_short_answer_is_one_message() -> None:
    chat = _Chat()
    await answer(cast(Message, chat), "Готово", reply_markup=None)
    assert chat.sent == [("Готово", {"reply_markup": None})]


async def test_a_screens_phrase_data_is_written_in_the_readers_language_and_cut() -> None:
    # What a view returns is phrase data: the answer writes it with the reader's texts,
    # escaping the values a person typed, and cuts it like any long text.
    chat = _Chat()
    rows = [numbered(n, f"Игрок <{n}> " + "ж" * 90) for n in range(1, 101)]
    await answer(cast(Message, chat), lines([Phrase.of("help-title"), *rows]), Texts("ru"))
    assert len(chat.sent) == 3
    assert all(len(part) <= TEXT_LIMIT for part, _ in chat.sent)
    written = "\n".join(part for part, _ in chat.sent)
    assert written.startswith(Texts("ru")("help-title"))
    assert "1. Игрок &lt;1&gt; ж" in written and "<1>" not in written
