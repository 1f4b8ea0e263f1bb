"""Short ways to write a game's protocol in rules tests (seats 1-6 civilians, 7 sheriff,
8-9 mafia, 10 don unless told otherwise)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal

from domain.cards import Role, Side
from domain.protocol import Protocol, Removal, SeatRecord

CLASSIC = "CCCCCCSMMD"
_ROLES = {"C": Role.CIVILIAN, "S": Role.SHERIFF, "M": Role.MAFIA, "D": Role.DON}


def protocol(
    players: Sequence[str] | None = None,
    *,
    roles: str = CLASSIC,
    winner: str = "red",
    first_killed: int | None = None,
    night: int = 1,
    best_move: tuple[int, ...] = (),
    extra: Mapping[int, str] | None = None,
    fouls: Mapping[int, int] | None = None,
    removed: Mapping[int, str] | None = None,
) -> Protocol:
    """A protocol; `extra`, `fouls` and `removed` map seat numbers to values."""
    names = list(players) if players is not None else [f"p{seat}" for seat in range(1, 11)]
    extra, fouls, removed = extra or {}, fouls or {}, removed or {}
    seats = tuple(
        SeatRecord(
            player=name,
            role=_ROLES[roles[number - 1]],
            fouls=fouls.get(number, 0),
            removed=Removal(removed[number]) if number in removed else None,
            extra=Decimal(extra.get(number, "0")),
        )
        for number, name in enumerate(names, start=1)
    )
    return Protocol(seats, Side(winner), first_killed, night, best_move)
