"""A screen's pieces are phrase data the pushes' renderer writes: plain strings escaped, the
layout's own markup kept, numbers written as the views wrote them."""

from __future__ import annotations

from decimal import Decimal

from domain.layout import argument, bold, joined, lines, numbered
from domain.outgoing import Localized, Phrase
from handlers.middlewares import Texts


def test_plain_strings_are_escaped_and_the_layouts_markup_is_kept() -> None:
    texts = Texts("ru")
    screen = lines(
        [
            Phrase.of("lot-title", tournament="Кубок <Ворона> & Co"),
            numbered(1234, "Лис & Ко"),
            joined(bold("<b>Волки</b>"), " 2/3: Сова"),
            "",
        ]
    )
    assert texts.phrase(screen) == (
        "<b>Жребий · Кубок &lt;Ворона&gt; &amp; Co</b>\n"
        "1234. Лис &amp; Ко\n"
        "<b>&lt;b&gt;Волки&lt;/b&gt;</b> 2/3: Сова\n"
    )


def test_a_label_is_plain_text() -> None:
    assert Texts("en").plain(joined("A & B", " <c>")) == "A & B <c>"


def test_an_argument_keeps_what_a_phrase_takes_and_writes_the_rest_as_text() -> None:
    kept = ["x", 3, Decimal("0.5"), Localized("а", "a"), Phrase.of("yes")]
    assert [argument(value) for value in kept] == kept
    assert argument(None) == "None"
