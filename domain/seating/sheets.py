"""A stage's seating as the organizer prints and exports it: every round, table, seat and judge.

The bot's rounds screen and the `mafiatour seating` command both turn their seating into a
`StageSheet`; the PDF sheets, the hall poster and the CSV file are drawn from it alone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TypeVar

# A player as the caller names him: an id of the bot, or a name of the command line.
Player = TypeVar("Player")


@dataclass(frozen=True)
class SeatLine:
    """One seat of a table: its number (1–10), the player's nickname and club."""

    seat: int
    nickname: str
    club: str


@dataclass(frozen=True)
class TableSheet:
    """One table of one round: its number (from 1), judge (None when none) and seats."""

    table: int
    judge: str | None
    seats: tuple[SeatLine, ...]


@dataclass(frozen=True)
class RoundSheet:
    """One round: its number (from 1), start time when known, tables and who sits out."""

    number: int
    time: str | None
    tables: tuple[TableSheet, ...]
    sit_outs: tuple[str, ...] = ()


@dataclass(frozen=True)
class StageSheet:
    """The whole stage: the tournament's title, the stage's name and its rounds."""

    title: str
    stage: str
    rounds: tuple[RoundSheet, ...]

    def rows(self) -> Iterator[tuple[int, int, int, str, str, str]]:
        """(round, table, seat, nickname, club, judge) for every seat of the stage, in order."""
        for round_ in self.rounds:
            for table in round_.tables:
                for line in table.seats:
                    yield (
                        round_.number,
                        table.table,
                        line.seat,
                        line.nickname,
                        line.club,
                        table.judge or "",
                    )


def stage_sheet(
    title: str,
    stage: str,
    rounds: Sequence[Sequence[Sequence[Player]]],
    sit_outs: Sequence[Sequence[Player]],
    judges: Sequence[Sequence[str | None]],
    times: Sequence[str | None],
    name: Callable[[Player], tuple[str, str]],
) -> StageSheet:
    """The sheet of a seating given as player ids per table of every round.

    `judges[r][t]` names the judge of table t in round r, `times[r]` the start of round r (both
    may be shorter than the rounds); `name(player)` gives a player's (nickname, club).
    """
    sheets = []
    for r, tables in enumerate(rounds):
        round_judges = judges[r] if r < len(judges) else ()
        sheets.append(
            RoundSheet(
                number=r + 1,
                time=times[r] if r < len(times) else None,
                tables=tuple(
                    TableSheet(
                        table=t + 1,
                        judge=round_judges[t] if t < len(round_judges) else None,
                        seats=tuple(
                            SeatLine(seat, *name(player))
                            for seat, player in enumerate(table, start=1)
                        ),
                    )
                    for t, table in enumerate(tables)
                ),
                sit_outs=tuple(name(player)[0] for player in sit_outs[r])
                if r < len(sit_outs)
                else (),
            )
        )
    return StageSheet(title=title, stage=stage, rounds=tuple(sheets))
