"""Long texts cut into Telegram messages, and user-supplied strings escaped."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from bot.rendering.text import escape, split_text, telegram_length
from domain.outgoing import TEXT_LIMIT

TAG = re.compile(r"<[^<>]*>")


def _plain(text: str) -> str:
    return TAG.sub("", text)


def test_a_text_within_the_limit_is_one_message() -> None:
    assert split_text("<b>Игра 3</b>\nстол 2") == ["<b>Игра 3</b>\nстол 2"]


def test_a_long_table_is_cut_at_line_ends() -> None:
    lines = [f"{place}. Игрок {place} — {place * 2} очков" for place in range(1, 400)]
    parts = split_text("\n".join(lines))
    assert len(parts) > 1
    assert all(telegram_length(part) <= TEXT_LIMIT for part in parts)
    # Every line arrives whole, in order.
    assert [line for part in parts for line in part.split("\n")] == lines


def test_a_tag_open_at_a_cut_is_closed_and_reopened() -> None:
    text = "<b>" + "\n".join(f"строка {n}" for n in range(40)) + "</b>"
    parts = split_text(text, limit=80)
    assert len(parts) > 1
    for part in parts:
        assert part.startswith("<b>") and part.endswith("</b>")
        assert part.count("<b>") == part.count("</b>")


def test_a_line_longer_than_a_message_is_cut_between_words() -> None:
    parts = split_text("слово " * 30, limit=50)
    assert all(telegram_length(part) <= 50 for part in parts)
    assert " ".join(parts).split() == ["слово"] * 30


def test_entities_and_tags_are_never_cut() -> None:
    parts = split_text("&amp;" * 40 + '<a href="https://t.me/x">x</a>' * 5, limit=33)
    for part in parts:
        assert not re.search(r"&[#\w]*$", part)
        assert part.count("<") == part.count(">")


def test_an_emoji_counts_twice_as_telegram_counts_it() -> None:
    parts = split_text("🏆" * 30, limit=20)
    assert [telegram_length(part) for part in parts] == [20, 20, 20]


def test_blank_parts_are_dropped() -> None:
    assert split_text("text\n" + "\n" * 50, limit=10) == ["text"]
    assert split_text("  ") == []


@given(st.lists(st.text(alphabet="аб<>&\n 🏆x", min_size=0, max_size=60), max_size=40))
def test_no_visible_text_is_lost_or_duplicated(pieces: list[str]) -> None:
    text = escape("".join(pieces))
    parts = split_text(text, limit=40)
    assert all(telegram_length(part) <= 40 for part in parts)
    assert "".join("".join(parts).split()) == "".join(text.split())


def test_escape_makes_markup_in_a_nickname_harmless() -> None:
    assert escape('<b>Дон & "Ко"</b>') == "&lt;b&gt;Дон &amp; &quot;Ко&quot;&lt;/b&gt;"
    assert _plain(escape("<i>x</i>")) == escape("<i>x</i>")
