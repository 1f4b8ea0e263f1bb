"""The cells of a standings table, shared by its text, picture and CSV forms.

Columns: place, name, points, games, wins, then the regulation's tie-breaker figures in their
order (points, wins and the lot have columns or marks of their own). A row's mark says how its
place was decided: `~` by lot, `=` shared (tied through the whole chain, no lot drawn yet);
`×` says the player was excluded (he keeps his points, below everyone still in).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from bot.i18n import format_points, translator
from domain.regulation import Regulation, TieBreaker
from domain.standings import StandingRow
from domain.standings_board import StandingsBoard

PROVISIONAL_MARK = "*"
LOT_MARK = "~"
TIED_MARK = "="
EXCLUDED_MARK = "×"

# Columns of every table before the tie-breakers; points and wins also lead most chains.
LEADING = ("games", "wins")
_OWN_COLUMNS = frozenset({TieBreaker.POINTS, TieBreaker.WINS, TieBreaker.LOT})

Unit = Literal["players", "teams"]


@dataclass(frozen=True)
class TableRow:
    """One row as text cells; `figures` follow `figure_columns` order."""

    place: int
    mark: str
    name: str
    team: str
    points: str
    provisional: bool
    figures: tuple[str, ...]


def figure_columns(regulation: Regulation) -> tuple[str, ...]:
    """The figure columns after points: games, wins, then the tie-breakers of the regulation."""
    breakers = tuple(b.value for b in regulation.tie_breakers if b not in _OWN_COLUMNS)
    return (*LEADING, *breakers)


def _figure(row: StandingRow, column: str, locale: str | None) -> str:
    if column in LEADING:
        return format_points(getattr(row.figures, column), locale)
    return format_points(row.figures.figure(TieBreaker(column)), locale)


def _mark(row: StandingRow) -> str:
    if row.excluded:
        return EXCLUDED_MARK
    if row.lot:
        return LOT_MARK
    return TIED_MARK if row.tied else ""


def table_rows(
    board: StandingsBoard, rows: Sequence[StandingRow], locale: str | None
) -> list[TableRow]:
    """The rows of a players' or teams' table as text cells, numbers written the locale's way
    (`locale` None: for a file, with the dot)."""
    columns = figure_columns(board.regulation)
    team_names = {team.id: team.name for team in board.standings.teams}
    return [
        TableRow(
            place=row.place,
            mark=_mark(row),
            name=row.name,
            team=team_names.get(row.team, "") if row.team is not None else "",
            points=format_points(row.points, locale),
            provisional=row.id in board.provisional,
            figures=tuple(_figure(row, column, locale) for column in columns),
        )
        for row in rows
    ]


def unit_rows(board: StandingsBoard, unit: Unit) -> tuple[StandingRow, ...]:
    """The players' or the teams' rows of the board."""
    return board.standings.players if unit == "players" else board.standings.teams


def cut_after(board: StandingsBoard, unit: Unit) -> int | None:
    """How many rows of this table stand above the current stage's cut line, if one is drawn."""
    cut = board.cut
    if cut is None or cut.unit != unit or len(unit_rows(board, unit)) <= cut.count:
        return None
    return cut.count


def tables(board: StandingsBoard) -> tuple[Unit, ...]:
    """The tables a board shows: teams first in a team tournament, then players."""
    return ("teams", "players") if board.regulation.is_team_tournament else ("players",)


def stage_name(board: StandingsBoard, locale: str, stage_id: str | None = None) -> str | None:
    """The name of a stage (the one being played by default) in the locale, if any."""
    stage_id = stage_id or board.stage
    if stage_id is None:
        return None
    name = board.regulation.stage(stage_id).name
    return name.en if locale == "en" else name.ru


def text(locale: str, key: str, **args: object) -> str:
    """A standings text in the locale."""
    return translator().get(locale, key, **args)
