"""One parser for every number people type: ASCII digits within the field's range, or the
field's own message."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain import validation
from domain.presets import PRESET_IDS, PRESETS_DIR
from domain.regulation import MAX_NESTING, RegulationError, nesting_depth, read_regulation
from domain.validation import Invalid
from tests.examples import examples


@pytest.mark.parametrize("typed", ["²", "٣", "१२", "-1", "+5", "1e3", "9" * 30, "", "1 2", "½"])
def test_odd_digits_signs_and_huge_numbers_get_the_fields_message(typed: str) -> None:
    with pytest.raises(Invalid) as refused:
        validation.whole_number(typed, 1, 100, "lot-order-invalid", count=3)
    assert refused.value.code == "lot-order-invalid"
    assert refused.value.args_ == {"min": 1, "max": 100, "count": 3}


@given(st.text(max_size=40))
def test_any_text_is_a_number_in_range_or_invalid(typed: str) -> None:
    try:
        number = validation.whole_number(typed, 10, 1000)
    except Invalid as refused:
        assert refused.code == "invalid-number"
    else:
        assert 10 <= number <= 1000 and typed.strip().isascii()


@pytest.mark.parametrize("typed", ["٣١.١٢.٢٠٩٩", "31.12.２０９９"])
def test_a_date_in_other_digits_is_refused(typed: str) -> None:
    with pytest.raises(Invalid):
        validation.day(typed)


@pytest.mark.parametrize("typed", ["٣", "1e5", "-0", "NaN", "Infinity", "1.234", "²"])
def test_an_entry_fee_takes_ascii_amounts_only(typed: str) -> None:
    with pytest.raises(Invalid):
        validation.fee(typed)


def test_an_entry_fee_with_a_comma() -> None:
    assert str(validation.fee("1500,50")) == "1500.50"


def test_brackets_inside_strings_do_not_count_as_nesting() -> None:
    assert nesting_depth('{"a": ["[[[{{{", {"b": "\\"]]]"}]}') == 3


def test_a_regulation_nested_thousands_of_levels_deep_is_refused_with_a_reason() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    with pytest.raises(RegulationError) as refused:
        read_regulation(deep)
    assert refused.value.problems == [("file", f"nested deeper than {MAX_NESTING} levels")]


_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    items = (
        value.items()
        if isinstance(value, dict)
        else enumerate(value)
        if isinstance(value, list)
        else ()
    )
    for key, inner in items:
        found.extend(_paths(inner, (*prefix, key)))
    return found


@settings(max_examples=examples(300), deadline=None)
@given(data=st.data(), preset=st.sampled_from(PRESET_IDS))
def test_an_uploaded_regulation_with_any_value_changed_is_read_or_refused_with_reasons(
    data: st.DataObject, preset: str
) -> None:
    # A preset with some of its values replaced by any JSON (or removed): what an organizer's
    # hand-edited file may hold. It is a regulation or refused with reasons, nothing else.
    document = json.loads((PRESETS_DIR / f"{preset}.json").read_text(encoding="utf-8"))
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(_paths(document)[1:]))
        parent = document
        for key in path[:-1]:
            parent = parent[key]
        if data.draw(st.booleans()) and isinstance(parent, dict):
            del parent[path[-1]]
        else:
            parent[path[-1]] = data.draw(_JSON)
    try:
        read_regulation(json.dumps(document))
    except RegulationError as refused:
        assert refused.problems
