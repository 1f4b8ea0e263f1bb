"""The standings as a PNG picture for phones, drawn headless with matplotlib (Agg).

DejaVu Sans, which ships with matplotlib, has the Cyrillic glyphs nicknames are written in.
Rows above the current stage's cut line are shaded; a row's place carries its lot or tie mark
and its points the provisional mark, as in the text table.
"""

from __future__ import annotations

import io

from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from bot.rendering.standings_table import (
    PROVISIONAL_MARK,
    Unit,
    cut_after,
    figure_columns,
    stage_name,
    table_rows,
    tables,
    text,
    unit_rows,
)
from domain.services.standings import StandingsBoard

FONT = "DejaVu Sans"
WIDTH_INCHES = 7.2
DPI = 150
ROW_INCHES = 0.26
TITLE_INCHES = 0.35
TOP_INCHES = 0.55
MARGIN_INCHES = 0.2
# Telegram refuses photos whose sides differ more than 20 times: a very long table is cut.
MAX_ROWS = 150
NAME_CHARACTERS = 22
ADVANCING_COLOUR = "#e3f2e1"
HEADER_COLOUR = "#d9d9d9"


def _cells(board: StandingsBoard, locale: str, unit: Unit) -> tuple[list[str], list[list[str]]]:
    columns = figure_columns(board.regulation)
    header = [
        text(locale, "standings-abbr-place"),
        text(locale, f"standings-abbr-{unit}"),
        text(locale, "standings-abbr-points"),
        *(text(locale, f"standings-abbr-{column}") for column in columns),
    ]
    rows = [
        [
            f"{row.place}{row.mark}",
            row.name if len(row.name) <= NAME_CHARACTERS else row.name[: NAME_CHARACTERS - 1] + "…",
            row.points + (PROVISIONAL_MARK if row.provisional else ""),
            *row.figures,
        ]
        for row in table_rows(board, unit_rows(board, unit)[:MAX_ROWS], locale)
    ]
    return header, rows


def standings_png(board: StandingsBoard, locale: str) -> bytes:
    """The board's tables (teams first in a team tournament) as one PNG image."""
    parts = [(unit, *_cells(board, locale, unit)) for unit in tables(board)]
    blocks = [TITLE_INCHES + ROW_INCHES * (len(rows) + 1) for _, _, rows in parts]
    height = TOP_INCHES + sum(blocks) + MARGIN_INCHES
    figure = Figure(figsize=(WIDTH_INCHES, height), dpi=DPI)
    FigureCanvasAgg(figure)
    stage = stage_name(board, locale)
    figure.text(
        0.5,
        1 - MARGIN_INCHES / height,
        board.title + (f" · {stage}" if stage else ""),
        ha="center",
        va="top",
        fontfamily=FONT,
        fontsize=12,
        fontweight="bold",
    )
    top = height - TOP_INCHES
    for (unit, header, rows), block in zip(parts, blocks, strict=True):
        figure.text(
            MARGIN_INCHES / WIDTH_INCHES,
            (top - TITLE_INCHES / 2) / height,
            text(locale, f"standings-title-{unit}"),
            va="center",
            fontfamily=FONT,
            fontsize=10,
        )
        top -= block
        axes = figure.add_axes(
            (
                MARGIN_INCHES / WIDTH_INCHES,
                top / height,
                1 - 2 * MARGIN_INCHES / WIDTH_INCHES,
                (block - TITLE_INCHES) / height,
            )
        )
        axes.axis("off")
        _draw_table(axes, header, rows, cut_after(board, unit) or 0)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=DPI)
    return buffer.getvalue()


def _draw_table(axes: Axes, header: list[str], rows: list[list[str]], advancing: int) -> None:
    figures = len(header) - 3
    widths = [0.09, 0.37, 0.1, *([0.44 / figures] * figures)]
    table = axes.table(
        cellText=rows or None,
        colLabels=header,
        colWidths=widths,
        bbox=(0, 0, 1, 1),
        cellLoc="center",
    )
    table.auto_set_font_size(False)
    table.set_fontsize(8)
    for (row, column), cell in table.get_celld().items():
        cell.get_text().set_fontfamily(FONT)
        cell.set_linewidth(0.3)
        if row == 0:
            cell.set_facecolor(HEADER_COLOUR)
        elif row <= advancing:
            cell.set_facecolor(ADVANCING_COLOUR)
        if column == 1 and row > 0:
            cell.get_text().set_horizontalalignment("left")
            cell.PAD = 0.04
