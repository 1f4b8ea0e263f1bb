"""Series points by place and stars, the category thresholds, a bad table refused; clubs."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.season.clubs import (
    canonical_club,
    club_from_slug,
    club_rating,
    club_slug,
    normalize_name,
)
from domain.season.series_points import (
    SeriesPointsError,
    category_stars,
    default_points_table,
    read_points_table,
    series_points,
    stored_points_table,
)


def test_default_table_gives_points_by_place_and_stars() -> None:
    table = default_points_table()
    assert series_points(table, 1, 2) == 100.0
    assert series_points(table, 1, 5) == 300.0
    assert series_points(table, 2, 2) < series_points(table, 1, 2)
    assert series_points(table, 500, 2) == table.other_places  # 2 stars: times 1
    assert series_points(table, None, 3) == 0.0
    assert series_points(table, 1, None) == 50.0


def _tenths_table(places: list[int], star_tenths: list[int]) -> str:
    """A table file whose points and multipliers are written in tenths (3 -> 0.3)."""
    tenths = sorted(places, reverse=True)
    return json.dumps(
        {
            "format": "mafiatour-series-points/1",
            "places": [float(Decimal(t) / 10) for t in tenths],
            "other_places": 0,
            "stars": {str(s): float(Decimal(m) / 10) for s, m in enumerate(star_tenths, start=1)},
            "category": {"2": 1020, "3": 1060, "4": 1120, "5": 1200},
        }
    )


def test_points_in_tenths_add_up_exactly_so_equal_totals_tie() -> None:
    table = read_points_table(_tenths_table([3, 2, 1], [10, 10, 10, 10, 30]))
    # Second then third is as much as one win: the two players tie (floats made 0.1 + 0.2
    # more than 0.3, ranking the first above the second).
    assert series_points(table, 2, 1) + series_points(table, 3, 1) == series_points(table, 1, 1)
    assert series_points(table, 1, 1) == Decimal("0.3")
    assert series_points(table, 3, 5) == Decimal("0.3")  # 0.1 times the 5 stars' 3.0
    assert str(series_points(table, 2, 5) + series_points(table, 3, 5)) == "0.90"


@settings(max_examples=60, deadline=None)
@given(
    places=st.lists(st.integers(0, 999), min_size=1, max_size=8),
    star_tenths=st.lists(st.integers(0, 50), min_size=5, max_size=5),
    results=st.lists(st.tuples(st.integers(1, 10), st.integers(1, 5)), max_size=30),
    data=st.data(),
)
def test_a_players_series_points_are_exact_in_any_order_of_tournaments(
    places: list[int],
    star_tenths: list[int],
    results: list[tuple[int, int]],
    data: st.DataObject,
) -> None:
    table = read_points_table(_tenths_table(places, star_tenths))
    tenths = sorted(places, reverse=True)
    # In hundredths, as integers: what the table's decimals multiply to, exactly.
    exact = sum(
        (tenths[place - 1] if place <= len(tenths) else 0) * star_tenths[stars - 1]
        for place, stars in results
    )
    shuffled = data.draw(st.permutations(results))
    total = sum((series_points(table, place, stars) for place, stars in shuffled), Decimal(0))
    assert total * 100 == exact


def test_category_stars_from_the_average_rating() -> None:
    table = default_points_table()
    assert category_stars(table, None) == 1
    assert category_stars(table, 1000.0) == 1
    assert category_stars(table, 1020.0) == 2
    assert category_stars(table, 1100.0) == 3
    assert category_stars(table, 5000.0) == 5


def test_a_series_table_round_trips_through_its_stored_text() -> None:
    table = default_points_table()
    assert stored_points_table(table.to_json()) == table
    assert stored_points_table(None) is table


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ("not json", "file"),
        ("[1, 2]", "table"),
        ('{"format": "x"}', "format"),
        ("[" * 100 + "]" * 100, "file"),
    ],
)
def test_a_bad_file_is_refused_with_its_problems(text: str, path: str) -> None:
    with pytest.raises(SeriesPointsError) as caught:
        read_points_table(text)
    assert caught.value.problems[0][0] == path


def test_inconsistent_tables_are_refused() -> None:
    good = json.loads(default_points_table().to_json())
    for change in (
        {"places": [10, 20]},
        {"category": {"2": 1100, "3": 1050, "4": 1200, "5": 1300}},
        {"stars": {"1": 1}},
        {"places": [-1]},
        {"other_places": 1000},
        {"unknown": 1},
    ):
        with pytest.raises(SeriesPointsError):
            read_points_table(json.dumps(good | change))


def test_club_names_and_aliases() -> None:
    assert normalize_name("  «Чёрный  Ворон» ") == "черный ворон"
    aliases = {"black raven": "Чёрный ворон"}
    assert canonical_club("Black  Raven", aliases) == "Чёрный ворон"
    assert canonical_club(" Other ", aliases) == "Other"
    assert canonical_club("  ", aliases) is None
    assert club_rating([1000, 1200, 1100, 900, 800, 1300], top=2) == 1250
    assert club_rating([]) == 0.0
    assert club_from_slug(club_slug("Чёрный ворон / 2")) == "Чёрный ворон / 2"
