"""The Russian reads right: counts agree with their nouns, points have a decimal comma."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest

from bot.delivery.render import render_phrase
from bot.i18n import LOCALES, LOCALES_DIR, translator
from domain.outgoing import Lines, Localized, Phrase


def ru(key: str, **args: object) -> str:
    return translator().get("ru", key, **args)


@pytest.mark.parametrize(
    ("count", "noun"), [(1, "тур"), (3, "тура"), (5, "туров"), (11, "туров"), (21, "тур")]
)
def test_the_number_of_rounds_agrees_with_its_noun(count: int, noun: str) -> None:
    assert ru("round-unknown", round=9, rounds=count).endswith(f"в этапе {count} {noun}.")


def test_the_examples_of_the_issue_read_right() -> None:
    assert "получили 4 игрока" in ru("protocol-extra-recipients", count=4, max=3)
    assert "получили 5 игроков" in ru("protocol-extra-recipients", count=5, max=3)
    assert "(5 претендентов)" in ru("lot-tie", where="cut", count=5)
    assert "(2 претендента)" in ru("lot-tie", where="cut", count=2)
    assert "делят 2 участника" in ru("lot-tie", where="places", count=2)
    assert "на 2 стола нужно" in ru("stage-too-few-players", count=12, tables=2)
    assert "на 1 стол нужно" in ru("stage-too-few-players", count=8, tables=1)
    assert "у 1 игрока повторяется" in ru("rounds-quality-seats", repeated=1, unbalanced=0)
    assert "у 7 игроков повторяется" in ru("rounds-quality-seats", repeated=7, unbalanced=0)
    assert "1 место делят" in ru("stage-cut-needs-lot", places=1)
    assert "3 фола" in ru("protocol-fouls-range", seat=2, fouls=3, max=4)
    assert "из 4 игроков" in ru(
        "reminder-team-incomplete", tournament="К", team="Т", count=3, size=4, deadline="d"
    )


@pytest.mark.parametrize("locale", LOCALES)
def test_no_text_leaves_a_plural_to_the_reader(locale: str) -> None:
    # "стол(а)", "place(s)": a count the text did not agree with.
    for path in (LOCALES_DIR / locale).glob("*.ftl"):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            assert not re.search(r"\w\((а|ов|s)\)", line), f"{path.name}:{number}: {line}"


def test_points_in_a_phrase_are_written_the_readers_way() -> None:
    line = Phrase.of(
        "protocol-result-seat-parts",
        seat=3,
        nickname="Ворон<",
        total=Decimal("-0.5"),
        parts=Lines(
            (
                Phrase.of("protocol-result-part-best-move", points=Decimal("0.3")),
                Phrase.of("protocol-result-part-extra", points=Decimal("0.20")),
                Phrase.of("protocol-result-part-penalty", points=Decimal("-1")),
            ),
            separator=" · ",
        ),
    )
    text = render_phrase(translator(), "ru", line, markup=True)
    assert text == "3. Ворон&lt; — \u22120,5 (ЛХ 0,3 · допы 0,2 · \u22121 дискв.)"
    english = render_phrase(translator(), "en", line, markup=False)
    assert english == "3. Ворон< — \u22120.5 (BM 0.3 · extra 0.2 · \u22121 disq.)"


def test_a_seating_post_names_the_stage_and_no_dash_for_a_missing_time() -> None:
    post = Phrase.of(
        "round-channel-post",
        stage=Localized("Полуфинал", "Semifinal"),
        game=1,
        time="none",
        part=1,
        parts=1,
        tables=Lines(
            (Phrase.of("round-channel-table-judged", table=1, judge="Ольга", players="1. А"),),
            separator="\n\n",
        ),
    )
    text = render_phrase(translator(), "ru", post, markup=True)
    assert text.startswith("<b>Рассадка · Полуфинал · тур 1</b>\n\n<b>Стол 1</b> · судья Ольга")
    assert "(—)" not in text
    timed = Phrase(post.key, tuple((k, "12:30" if k == "time" else v) for k, v in post.args))
    english = render_phrase(translator(), "en", timed, markup=True)
    assert english.startswith("<b>Seating · Semifinal · round 1 · 12:30</b>")
