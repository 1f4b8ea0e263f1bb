"""Series points by place and a tournament's category (stars), as data.

A series-points table is a JSON file like a regulation (docs/ratings.md, "Series points"):
```
{"format": "mafiatour-series-points/1",
 "places": [100, 85, ...],        # points of place 1, 2, ... of a finished tournament
 "other_places": 5,               # points of every place after the list
 "stars": {"1": 0.5, ..., "5": 3.0},     # the multiplier of a tournament of that category
 "category": {"2": 1020, ..., "5": 1200}} # the least average rating that earns the stars
```
The default is `domain/presets/series_points/fiim.json` (FIIM-style); a series may carry its
own, which `read_points_table` validates, listing every problem (`SeriesPointsError`).

Points and multipliers are read as `Decimal`, as a regulation's points are: places of 0.1 and
0.2 add up to 0.3 exactly, so two players with equal points tie. The category thresholds are
ratings, which are floats (the Elo formula is exponential).
"""

from __future__ import annotations

import json
from decimal import Decimal
from functools import cache
from itertools import pairwise
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from domain.regulation import MAX_NESTING, nesting_depth
from domain.scoring import ZERO

POINTS_DIR = Path(__file__).resolve().parent.parent / "presets" / "series_points"
DEFAULT_TABLE_ID = "fiim"
STARS = range(1, 6)
StarKey = Literal["1", "2", "3", "4", "5"]
CategoryKey = Literal["2", "3", "4", "5"]
MAX_PLACES = 1000

NonNegative = Annotated[Decimal, Field(ge=0, allow_inf_nan=False)]


class SeriesPointsError(ValueError):
    """A series-points table that cannot be used; `.problems` lists (path, reason) pairs."""

    def __init__(self, problems: list[tuple[str, str]]) -> None:
        self.problems = problems
        super().__init__("; ".join(f"{path}: {reason}" for path, reason in problems))


class LocalizedTitle(BaseModel):
    """The table's name, Russian first."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    ru: str = Field(min_length=1, max_length=200)
    en: str = Field(min_length=1, max_length=200)


class SeriesPointsTable(BaseModel):
    """Points by place, the stars' multipliers and the category thresholds."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    format: Literal["mafiatour-series-points/1"]
    title: LocalizedTitle | None = None
    places: tuple[NonNegative, ...] = Field(min_length=1, max_length=MAX_PLACES)
    other_places: NonNegative = ZERO
    stars: dict[StarKey, NonNegative]
    category: dict[CategoryKey, Annotated[float, Field(gt=0, allow_inf_nan=False)]]

    @model_validator(mode="after")
    def _consistent(self) -> SeriesPointsTable:
        missing = [str(stars) for stars in STARS if str(stars) not in self.stars]
        if missing:
            raise ValueError(f"stars: no multiplier for {', '.join(missing)} stars")
        thresholds = [self.category[key] for key in ("2", "3", "4", "5") if key in self.category]
        if len(thresholds) != 4:
            raise ValueError("category: give the least average rating for 2, 3, 4 and 5 stars")
        if any(low >= high for low, high in pairwise(thresholds)):
            raise ValueError("category: thresholds must grow from 2 to 5 stars")
        if any(high > low for low, high in pairwise(self.places)):
            raise ValueError("places: a lower place cannot earn more points than a higher one")
        if self.other_places > self.places[-1]:
            raise ValueError("other_places: more than the last listed place")
        return self

    def to_json(self) -> str:
        """The table as the JSON text a series stores (its points as decimal strings, exact)."""
        return self.model_dump_json(exclude_none=True)


def _problems_of(error: ValidationError) -> list[tuple[str, str]]:
    problems = []
    for detail in error.errors():
        path = ".".join(str(part) for part in detail["loc"]) or "table"
        problems.append((path, detail["msg"].removeprefix("Value error, ")))
    return problems


def parse_points_table(data: Any) -> SeriesPointsTable:
    """Validate decoded JSON; raise `SeriesPointsError` listing every problem."""
    if not isinstance(data, dict):
        raise SeriesPointsError([("table", "expected a JSON object")])
    try:
        return SeriesPointsTable.model_validate(data)
    except ValidationError as error:
        raise SeriesPointsError(_problems_of(error)) from None


def read_points_table(text: str) -> SeriesPointsTable:
    """A table from an uploaded JSON text; `SeriesPointsError` says what is wrong with it,
    including a text that is not JSON or nests too deep."""
    if nesting_depth(text) > MAX_NESTING:
        raise SeriesPointsError([("file", f"nested deeper than {MAX_NESTING} levels")])
    try:
        # Numbers read as written: "0.1" is the decimal 0.1, not the float nearest it.
        data = json.loads(text, parse_float=Decimal)
    except (json.JSONDecodeError, RecursionError) as error:
        raise SeriesPointsError([("file", f"not JSON: {error}")]) from None
    return parse_points_table(data)


@cache
def default_points_table() -> SeriesPointsTable:
    """The FIIM-style default table."""
    text = (POINTS_DIR / f"{DEFAULT_TABLE_ID}.json").read_text(encoding="utf-8")
    return read_points_table(text)


def stored_points_table(text: str | None) -> SeriesPointsTable:
    """A series' table from its stored text (None: the default)."""
    return default_points_table() if text is None else read_points_table(text)


def series_points(table: SeriesPointsTable, place: int | None, stars: int | None) -> Decimal:
    """The series points of `place` in a tournament of `stars` (None: 1 star); no place, none."""
    if place is None or place < 1:
        return ZERO
    base = table.places[place - 1] if place <= len(table.places) else table.other_places
    key = str(min(max(stars or 1, 1), 5))
    return base * table.stars[key]  # type: ignore[index]


def category_stars(table: SeriesPointsTable, average_rating: float | None) -> int:
    """The stars of a tournament whose participants' average overall rating is
    `average_rating`: the most stars whose threshold it reaches, else 1."""
    if average_rating is None:
        return 1
    stars = 1
    for key in ("2", "3", "4", "5"):
        if average_rating >= table.category[key]:
            stars = int(key)
    return stars
