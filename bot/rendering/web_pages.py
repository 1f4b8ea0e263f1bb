"""The public web pages' content in one language: what the templates of bot/web/pages print.

The standings cells are the channel table's (`standings_table`): the same figures, marks and
decimal comma in Russian. Everything here is plain text; the templates escape it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from bot.i18n import format_points
from bot.rendering.standings_posts import podium_lines
from bot.rendering.standings_table import (
    TableRow,
    Unit,
    cut_after,
    figure_columns,
    stage_name,
    table_rows,
    tables,
    text,
    unit_rows,
)
from bot.rendering.standings_text import legend
from domain.public_view import PublicTournament
from domain.tournament import TournamentState


@dataclass(frozen=True)
class Column:
    abbr: str
    name: str


@dataclass(frozen=True)
class WebTable:
    """One standings table: its rows (with each player's id for his page) and the cut line."""

    unit: Unit
    title: str
    columns: tuple[Column, ...]
    rows: tuple[TableRow, ...]
    ids: tuple[str, ...]
    cut: int | None
    cut_label: str | None


@dataclass(frozen=True)
class WebStage:
    name: str
    games: str
    advance: str | None
    current: bool


class Words:
    """The texts and numbers of one page in `locale`, for the templates."""

    def __init__(self, locale: str) -> None:
        self.locale = locale

    def __call__(self, key: str, **args: object) -> str:
        return text(self.locale, key, **args)

    def other(self, locale: str, key: str) -> str:
        """A text in another language (the link to it is named in that language)."""
        return text(locale, key)

    def points(self, value: Decimal | int) -> str:
        return format_points(value, self.locale)

    def stage(self, view: PublicTournament, stage_id: str) -> str:
        return stage_name(view.board, self.locale, stage_id) or stage_id

    def role(self, role: str) -> str:
        return text(self.locale, "me-role", role=role)


def standings_tables(view: PublicTournament, locale: str) -> list[WebTable]:
    """The board's tables (teams first in a team tournament), cells written the locale's way."""
    board = view.board
    place = Column(text(locale, "standings-abbr-place"), text(locale, "standings-name-place"))
    points = Column(text(locale, "standings-abbr-points"), text(locale, "standings-name-points"))
    result = []
    for unit in tables(board):
        rows = unit_rows(board, unit)
        name = Column(text(locale, f"standings-abbr-{unit}"), text(locale, "standings-name-name"))
        figures = tuple(
            Column(text(locale, f"standings-abbr-{c}"), text(locale, f"standings-name-{c}"))
            for c in figure_columns(board.regulation)
        )
        cut = cut_after(board, unit)
        label = None
        if cut is not None:
            label = text(locale, "standings-cut-line", count=cut, unit=unit)
        result.append(
            WebTable(
                unit=unit,
                title=text(locale, f"standings-title-{unit}"),
                columns=(place, name, points, *figures),
                rows=tuple(table_rows(board, rows, locale)),
                ids=tuple(row.id for row in rows),
                cut=cut,
                cut_label=label,
            )
        )
    return result


def stages(view: PublicTournament, locale: str) -> list[WebStage]:
    """The regulation's stages, each with its games and how many go on."""
    result = []
    for stage in view.header.regulation.stages:
        advance = None
        if stage.advance is not None:
            advance = text(
                locale, "standings-cut-line", count=stage.advance.count, unit=stage.advance.unit
            )
        result.append(
            WebStage(
                name=stage.name.en if locale == "en" else stage.name.ru,
                games=text(locale, "web-stage-games", games=stage.games_per_player),
                advance=advance,
                current=stage.id == view.header.current_stage,
            )
        )
    return result


def results(view: PublicTournament, locale: str) -> list[tuple[str, list[str]]]:
    """The podium a finished tournament's page opens with, as its channel announced it
    (nothing before the tournament is finished)."""
    if view.header.state is not TournamentState.FINISHED:
        return []
    return podium_lines(view.board, locale, medals=False)


def legend_lines(view: PublicTournament, locale: str) -> Sequence[str]:
    """What the marks and the figure columns' abbreviations mean."""
    return legend(view.board, locale)
