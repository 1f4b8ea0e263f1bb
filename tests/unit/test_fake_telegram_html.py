"""The fake Telegram reads HTML as Telegram does (`harness.fake_telegram.html`): the plain text
a chat shows, its entities measured in UTF-16 code units, and Telegram's refusals."""

from __future__ import annotations

import html

import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness.fake_telegram.html import HtmlError, parse_html, utf16_length


def _utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def test_nested_tags_give_one_entity_each_outer_first() -> None:
    text, entities = parse_html("<b>bold <i>both</i></b> <u>under</u> plain")

    assert text == "bold both under plain"
    assert entities == [
        {"offset": 0, "length": 9, "type": "bold"},
        {"offset": 5, "length": 4, "type": "italic"},
        {"offset": 10, "length": 5, "type": "underline"},
    ]


def test_an_empty_tag_gives_no_entity() -> None:
    assert parse_html("<b></b>seat <i></i>4") == ("seat 4", [])


def test_entities_are_decoded_named_decimal_and_hexadecimal() -> None:
    text, entities = parse_html("&lt;b&gt; &amp; &quot;x&quot; &#x1F3C6;&#1080;")

    assert text == '<b> & "x" 🏆и'
    assert entities == []


def test_offsets_and_lengths_count_utf16_code_units() -> None:
    # The trophy is one character and two UTF-16 code units; a Cyrillic letter is one.
    text, entities = parse_html("🏆 <b>Иван</b> 😀<i>x</i> &#x1F600;<u>й</u>")

    assert text == "🏆 Иван 😀x 😀й"
    assert entities == [
        {"offset": 3, "length": 4, "type": "bold"},
        {"offset": 10, "length": 1, "type": "italic"},
        {"offset": 14, "length": 1, "type": "underline"},
    ]
    assert utf16_length(text) == 15


def test_links_mentions_spoilers_and_code_carry_their_attributes() -> None:
    source = (
        '<a href="tg://user?id=42">Anna</a> '
        "<a href='https://example.org/?a=1&amp;b=x<y'>site</a> "
        '<span class="tg-spoiler">secret</span> '
        '<pre><code class="language-python">x = 1</code></pre>'
    )

    text, entities = parse_html(source)

    assert text == "Anna site secret x = 1"
    assert entities == [
        {
            "offset": 0,
            "length": 4,
            "type": "text_mention",
            "user": {"id": 42, "is_bot": False, "first_name": ""},
        },
        {"offset": 5, "length": 4, "type": "text_link", "url": "https://example.org/?a=1&b=x<y"},
        {"offset": 10, "length": 6, "type": "spoiler"},
        {"offset": 17, "length": 5, "type": "pre", "language": "python"},
    ]


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("Tom & Jerry", 'Unsupported HTML entity or bare "&" at byte offset 4'),
        # The offset is in UTF-8 bytes: four Cyrillic letters are eight.
        ("Иван & Co", 'Unsupported HTML entity or bare "&" at byte offset 9'),
        ("Tom &foo; Jerry", 'Unsupported HTML entity "&foo;" at byte offset 4'),
        ("x &#0; y", "Invalid character code at byte offset 2"),
        ("x &#xD800; y", "Invalid character code at byte offset 2"),
        ("line<br>break", 'Unsupported start tag "br" at byte offset 4'),
        ("score 1 < 2", 'Unsupported start tag "" at byte offset 8'),
        ("<b>unclosed", 'Can\'t find end tag corresponding to start tag "b"'),
        ("<b><i>open", 'Can\'t find end tag corresponding to start tag "i"'),
        ("a <b", "Unclosed start tag at byte offset 2"),
        ("<b>x</b", "Unclosed end tag at byte offset 4"),
        ("x</b>", "Unexpected end tag at byte offset 1"),
        (
            "<b>crossed<i></b></i>",
            'Unmatched end tag at byte offset 13, expected "</i>", found "</b>"',
        ),
        ('<span class="x">s</span>', 'Tag "span" must have class "tg-spoiler"'),
        ("<b =x>y</b>", "Expected equal sign in declaration of an attribute of the tag"),
    ],
)
def test_telegram_refuses_what_it_cannot_parse(source: str, message: str) -> None:
    with pytest.raises(HtmlError) as refused:
        parse_html(source)

    assert str(refused.value).startswith(message)


# A piece of text: each character as itself (escaped) or as a decimal or hexadecimal entity.
_CHARACTER = st.characters(exclude_categories=["Cs"], min_codepoint=1)
_WRITTEN = st.tuples(_CHARACTER, st.sampled_from(("plain", "decimal", "hex")))
_TAGS = (("b", "bold"), ("i", "italic"), ("u", "underline"), ("s", "strikethrough"))


def _written(characters: list[tuple[str, str]]) -> str:
    forms = {
        "plain": lambda c: html.escape(c),
        "decimal": lambda c: f"&#{ord(c)};",
        "hex": lambda c: f"&#x{ord(c):x};",
    }
    return "".join(forms[form](character) for character, form in characters)


@given(
    st.lists(
        st.tuples(st.sampled_from((None, *_TAGS)), st.lists(_WRITTEN, max_size=12)),
        max_size=8,
    ),
    st.booleans(),
)
def test_escaped_text_in_tags_comes_back_with_entities_over_it(
    pieces: list[tuple[tuple[str, str] | None, list[tuple[str, str]]]], quoted: bool
) -> None:
    source, expected_text, expected = "", "", []
    for tag, characters in pieces:
        piece = "".join(character for character, _ in characters)
        if tag is not None and piece:
            expected.append((_utf16(expected_text), _utf16(piece), tag[1]))
        written = _written(characters)
        source += f"<{tag[0]}>{written}</{tag[0]}>" if tag else written
        expected_text += piece
    if quoted:  # every piece inside one more entity
        source = f"<blockquote>{source}</blockquote>"
        if expected_text:
            expected.append((0, _utf16(expected_text), "blockquote"))

    text, entities = parse_html(source)

    assert text == expected_text
    found = [(e["offset"], e["length"], e["type"]) for e in entities]
    assert sorted(found) == sorted(expected)
    assert found == sorted(found, key=lambda entity: (entity[0], -entity[1]))
    assert utf16_length(text) == _utf16(text)
