"""One parser for every number people type: ASCII digits within the field's range, or the
field's own message."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain import validation
from domain.regulation import MAX_NESTING, RegulationError, nesting_depth, read_regulation
from domain.validation import Invalid


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
