"""The offline demonstration shows real answers of the real bot, in both languages."""

from __future__ import annotations

import io

from bot.simulation import simulate


async def test_the_demonstration_prints_each_persons_chat(tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = io.StringIO()
    figures = await simulate(out, workdir=tmp_path)
    transcript = out.getvalue()
    assert "── chat with Анна ──" in transcript and "── chat with Bob ──" in transcript
    assert "Привет, Анна!" in transcript
    assert "What I can do" in transcript  # Bob switched to English and asked for help
    assert figures.updates == 6 and figures.messages_sent == 5 and figures.callback_answers == 1
