"""The cards dealt at a table of ten: each player's role and the side it plays for.

A module of its own, so that the regulation (which names roles in its scoring rules) and the
protocol (which records them) both import it, and not each other.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum


class Side(StrEnum):
    """The two teams at a table: red (civilians and sheriff) and black (mafia and don)."""

    RED = "red"
    BLACK = "black"


class Role(StrEnum):
    """The card a player is dealt."""

    CIVILIAN = "civilian"
    SHERIFF = "sheriff"
    MAFIA = "mafia"
    DON = "don"

    @property
    def side(self) -> Side:
        """The team this role plays for."""
        return Side.BLACK if self in (Role.MAFIA, Role.DON) else Side.RED


# Classic sports Mafia deals exactly these cards at every table of ten.
ROLE_COUNTS: Mapping[Role, int] = {Role.CIVILIAN: 6, Role.SHERIFF: 1, Role.MAFIA: 2, Role.DON: 1}
