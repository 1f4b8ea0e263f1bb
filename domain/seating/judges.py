"""Judges over the tables: the rotation the bot uses and the seating spreads players over.

Light on purpose (no pydantic, no numpy): `mafiatour seating` imports it before the search.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TypeVar

Judge = TypeVar("Judge", bound=Hashable)


def rotate_judges(
    judges: Sequence[Judge], tables: int, round_index: int
) -> tuple[Judge | None, ...]:
    """The judge of each table in a round (0-based `round_index`), rotating through `judges`.

    With at least as many judges as tables every table gets one and nobody judges two tables
    in a round; the work spreads evenly as the rounds go. With fewer, the last tables get
    None: the organizer assigns them (the chief judge can fill any protocol meanwhile).
    """
    if not judges:
        return (None,) * tables
    if len(judges) < tables:
        shift = round_index % len(judges)
        rotated = [*judges[shift:], *judges[:shift]]
        return (*rotated, *(None,) * (tables - len(judges)))
    # Each round starts one judge further than a plain cycle, so that with exactly as many
    # judges as tables every judge still moves to another table each round.
    start = round_index * (tables + 1)
    return tuple(judges[(start + table) % len(judges)] for table in range(tables))
