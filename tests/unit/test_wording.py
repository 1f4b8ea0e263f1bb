"""The Russian reads right: counts agree with their nouns, points have a decimal comma."""

from __future__ import annotations

import re
from collections.abc import Iterator
from decimal import Decimal

import pytest
from fluent.syntax import FluentParser
from fluent.syntax import ast as fluent_ast

from bot.i18n import LOCALES, LOCALES_DIR, translator
from bot.rendering.phrases import render_phrase
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
    # The verb agrees too: "проходит 1 игрок", "делит 21 участник", "играет 1 из 3".
    assert ru("standings-cut-line", unit="players", count=1) == "дальше проходит 1 игрок"
    assert ru("standings-cut-line", unit="teams", count=10) == "дальше проходят 10 команд"
    assert "Место делят 2 участника" in ru("lot-tie", where="places", count=2)
    assert "Место делит 21 участник" in ru("lot-tie", where="places", count=21)
    excluded = ru("notice-team-member-excluded", nickname="Н", team="Т", count=1, size=3)
    assert "«Т» играет 1 из 3." in excluded
    assert "из 4 игроков" in ru(
        "reminder-team-incomplete", tournament="К", team="Т", count=3, size=4, deadline="d"
    )


@pytest.mark.parametrize("locale", LOCALES)
def test_no_text_cites_a_clause_of_one_regulation(locale: str) -> None:
    # "(11.3)", "(10.2)": the numbers of black-raven-cup mean nothing under another regulation.
    for path in (LOCALES_DIR / locale).glob("*.ftl"):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            clause = re.search(r"[\s(,]\d{1,2}\.\d{1,2}(\.\d{1,2})?[),:]", line)
            assert clause is None, f"{path.name}:{number}: {line}"


def test_one_unpublished_round_is_named_in_the_singular() -> None:
    assert ru("move-rounds-unpublished", rounds="3", count=1) == "не опубликован тур 3."
    assert ru("move-rounds-unpublished", rounds="3, 4", count=2) == "не опубликованы туры 3, 4."
    english = translator().get("en", "move-rounds-unpublished", rounds="3", count=1)
    assert english == "round 3 is not published."


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
            (Phrase.of("table-listing-judged", table=1, judge="Ольга", players="1. А"),),
            separator="\n\n",
        ),
    )
    text = render_phrase(translator(), "ru", post, markup=True)
    assert text.startswith("<b>Рассадка · Полуфинал · тур 1</b>\n\n<b>Стол 1</b> · судья Ольга")
    assert "(—)" not in text
    timed = Phrase(post.key, tuple((k, "12:30" if k == "time" else v) for k, v in post.args))
    english = render_phrase(translator(), "en", timed, markup=True)
    assert english.startswith("<b>Seating · Semifinal · round 1 · 12:30</b>")


# Arguments that are not counts: names and texts, and numbers that name a thing ("тур 3",
# "стол 2", "место 7"), which agree with nothing.
NOT_COUNTS = {
    "by",
    "channel",
    "first",
    "first_killed",
    "game",
    "judge",
    "named",
    "nickname",
    "page",
    "part",
    "player",
    "round",
    "rounds",
    "seat",
    "second",
    "stage",
    "table",
    "timezone",
}
# Words a count may stand before without agreeing with it: prepositions, conjunctions and
# abbreviations ("от 2 до 32", "3 из 4", "−1 дискв.", "30 с").
NOT_NOUNS = {
    "ru": {"до", "из", "не", "меньше", "с", "дискв", "за", "кб"},
    "en": {"of", "to", "for", "more", "per", "in", "at", "s", "disq", "is", "kb"},
}


def _counts_before_words(pattern: fluent_ast.Pattern, agreed: bool) -> Iterator[tuple[str, str]]:
    """(count, the word after it) for every count written before a word outside a selector
    that chose the wording by a number (a plural category or an exact number)."""
    elements = pattern.elements
    for element, after in zip(elements, [*elements[1:], None], strict=True):
        if not isinstance(element, fluent_ast.Placeable):
            continue
        expression = element.expression
        if isinstance(expression, fluent_ast.SelectExpression):
            by_number = any(
                isinstance(variant.key, fluent_ast.NumberLiteral)
                or variant.key.name in {"one", "few", "many"}
                for variant in expression.variants
            )
            for variant in expression.variants:
                yield from _counts_before_words(variant.value, agreed or by_number)
        elif isinstance(expression, fluent_ast.VariableReference) and not agreed:
            word = (
                re.match(r"[ \u00a0]+(\w+)", after.value)
                if isinstance(after, fluent_ast.TextElement)
                else None
            )
            if word and expression.id.name not in NOT_COUNTS:
                yield expression.id.name, word.group(1)


@pytest.mark.parametrize("locale", LOCALES)
def test_every_count_before_a_noun_is_agreed_by_a_plural_selector(locale: str) -> None:
    # "{ $count } players" reads "1 players"; "{ $max } символов" reads "до 21 символов".
    unagreed = []
    for path in sorted((LOCALES_DIR / locale).glob("*.ftl")):
        for entry in FluentParser().parse(path.read_text(encoding="utf-8")).body:
            if not isinstance(entry, fluent_ast.Message):
                continue
            patterns = [entry.value, *(attribute.value for attribute in entry.attributes)]
            for pattern in patterns:
                if pattern is None:
                    continue
                for count, word in _counts_before_words(pattern, agreed=False):
                    if word.lower() not in NOT_NOUNS[locale]:
                        unagreed.append(f"{path.name}: {entry.id.name}: {{ ${count} }} {word}")
    assert unagreed == []


@pytest.mark.parametrize(
    ("count", "rounds", "players", "characters"),
    [
        (1, "тур", "игрока", "символа"),
        (2, "тура", "игроков", "символов"),
        (5, "туров", "игроков", "символов"),
        (11, "туров", "игроков", "символов"),
        (21, "тур", "игрока", "символа"),
        (22, "тура", "игроков", "символов"),
        (25, "туров", "игроков", "символов"),
    ],
)
def test_russian_counts_take_the_form_cldr_gives_them(
    count: int, rounds: str, players: str, characters: str
) -> None:
    assert f"в этапе {count} {rounds}." in ru("round-unknown", round=99, rounds=count)
    assert f"у {count} {players} повторяется" in ru(
        "rounds-quality-seats", repeated=count, unbalanced=0
    )
    assert f"до {count} {characters}" in ru("protest-reason-length", min=1, max=count, length=0)


@pytest.mark.parametrize("locale", LOCALES)
def test_every_plural_selector_has_each_form_of_its_language(locale: str) -> None:
    # A Russian selector without [few] says "2 игроков"; English needs only one and other.
    forms = {"ru": {"one", "few", "many"}, "en": {"one", "other"}}[locale]
    incomplete = []

    def check(pattern: fluent_ast.Pattern, key: str) -> None:
        for element in pattern.elements:
            if isinstance(element, fluent_ast.Placeable) and isinstance(
                element.expression, fluent_ast.SelectExpression
            ):
                names = {
                    variant.key.name
                    for variant in element.expression.variants
                    if isinstance(variant.key, fluent_ast.Identifier)
                }
                if names & {"one", "few", "many"} and not forms <= names:
                    incomplete.append(f"{key}: {sorted(names)}")
                for variant in element.expression.variants:
                    check(variant.value, key)

    for path in sorted((LOCALES_DIR / locale).glob("*.ftl")):
        for entry in FluentParser().parse(path.read_text(encoding="utf-8")).body:
            if isinstance(entry, fluent_ast.Message) and entry.value is not None:
                check(entry.value, entry.id.name)
    assert incomplete == []
