"""The standings as PNG pictures for phones, drawn headless with matplotlib (Agg).

A phone shows a picture about 360 pixels wide, so what matters is the type's height against the
picture's width: the pictures are 720 pixels wide and the smallest type's capitals are 14 pixels
tall, 7 once shown 360 wide (`smallest_capitals`). Telegram scales a photo's longer side down to
1280 pixels, so a long table is split into pictures of `ROWS_PER_PICTURE` rows, sent as an album.
Every picture carries the legend of its marks and abbreviations, wrapped to the picture's width
as it is drawn.

DejaVu Sans, which ships with matplotlib, has the Cyrillic glyphs nicknames are written in.
Rows above the current stage's cut line are shaded; a row's place carries its lot or tie mark
and its points the provisional mark, as in the text table.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg, RendererAgg
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.textpath import TextPath
from matplotlib.transforms import Bbox

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
from bot.rendering.standings_text import legend
from domain.standings_board import ROWS_PER_PICTURE, StandingsBoard

FONT = "DejaVu Sans"
WIDTH_INCHES = 4.8
DPI = 150
# Telegram's largest side for a photo it does not shrink, in pixels.
MAX_HEIGHT_PIXELS = 1280
ROW_INCHES = 0.3
TITLE_INCHES = 0.36
TOP_INCHES = 0.5
MARGIN_INCHES = 0.14
LEGEND_LINE_INCHES = 0.2
# A cell's room beside its text, in pixels.
CELL_PADDING_PIXELS = 16
# The narrowest column, so that columns of single digits still look like a grid.
COLUMN_PIXELS = 40
# Type sizes in points: the legend's is the smallest.
TITLE_POINTS = 13.0
BLOCK_POINTS = 11.0
TABLE_POINTS = 10.5
LEGEND_POINTS = 9.5
# How wide a phone shows a picture in a chat, in pixels.
PHONE_PIXELS = 360
ADVANCING_COLOUR = "#e3f2e1"
HEADER_COLOUR = "#d9d9d9"


@dataclass(frozen=True)
class _Block:
    """A part of one table on one picture: its rows from `start` (0-based) on."""

    unit: Unit
    start: int
    rows: list[list[str]]


def _cells(board: StandingsBoard, locale: str, unit: Unit) -> list[list[str]]:
    return [
        [
            f"{row.place}{row.mark}",
            row.name,
            row.points + (PROVISIONAL_MARK if row.provisional else ""),
            *row.figures,
        ]
        for row in table_rows(board, unit_rows(board, unit), locale)
    ]


def _header(board: StandingsBoard, locale: str, unit: Unit) -> list[str]:
    return [
        text(locale, "standings-abbr-place"),
        text(locale, f"standings-abbr-{unit}"),
        text(locale, "standings-abbr-points"),
        *(text(locale, f"standings-abbr-{column}") for column in figure_columns(board.regulation)),
    ]


def _pages(board: StandingsBoard, locale: str) -> list[list[_Block]]:
    """The tables (teams first in a team tournament) cut into pictures of at most
    `ROWS_PER_PICTURE` rows; a short table shares a picture with the start of the next."""
    pages: list[list[_Block]] = [[]]
    room = ROWS_PER_PICTURE
    for unit in tables(board):
        rows = _cells(board, locale, unit)
        start = 0
        while True:
            if room <= 0:
                pages.append([])
                room = ROWS_PER_PICTURE
            taken = rows[start : start + room]
            pages[-1].append(_Block(unit, start, taken))
            room -= max(len(taken), 1)  # an empty table still shows its header
            start += len(taken)
            if start >= len(rows):
                break
    return pages


def standings_pngs(board: StandingsBoard, locale: str) -> list[bytes]:
    """The board's tables as PNG pictures a phone shows without shrinking, in order."""
    pages = _pages(board, locale)
    return [_draw(board, locale, page, number, len(pages)) for number, page in enumerate(pages, 1)]


def standings_png(board: StandingsBoard, locale: str, page: int = 1) -> bytes:
    """Picture `page` (from 1) of the board; the last one when the board has shrunk since."""
    pages = _pages(board, locale)
    number = min(max(page, 1), len(pages))
    return _draw(board, locale, pages[number - 1], number, len(pages))


def smallest_capitals(shown_width: int = PHONE_PIXELS) -> float:
    """How tall, in pixels, the capitals of the smallest type are when a picture is shown
    `shown_width` pixels wide."""
    path = TextPath((0, 0), "Н", size=LEGEND_POINTS, prop=FontProperties(family=FONT))
    capital_pixels = path.get_extents().height * DPI / 72
    return capital_pixels * shown_width / (WIDTH_INCHES * DPI)


_MEASURE = RendererAgg(WIDTH_INCHES * DPI, 100, DPI)
# The room the tables and the legend have across a picture, in pixels.
ROOM_PIXELS = (WIDTH_INCHES - 2 * MARGIN_INCHES) * DPI


def _width(line: str, points: float) -> float:
    """How wide `line` is drawn in the font at `points`, in pixels."""
    font = FontProperties(family=FONT, size=points)
    width, _, _ = _MEASURE.get_text_width_height_descent(line, font, ismath=False)
    return float(width)


def picture_legend(board: StandingsBoard, locale: str) -> list[str]:
    """The legend under each picture, one line per mark, then the abbreviations, wrapped to
    the picture's width in the legend's type."""
    wrapped: list[str] = []
    for line in legend(board, locale, columns=("place", "points")):
        current = ""
        for word in line.split(" "):
            candidate = f"{current} {word}" if current else word
            if current and _width(candidate, LEGEND_POINTS) > ROOM_PIXELS:
                wrapped.append(current)
                candidate = word
            current = candidate
        wrapped.append(current)
    return wrapped


def _fitted(name: str, room: float) -> str:
    """The name, cut with an ellipsis where it would pass `room` pixels."""
    if _width(name, TABLE_POINTS) <= room:
        return name
    while name and _width(name + "…", TABLE_POINTS) > room:
        name = name[:-1]
    return name.rstrip() + "…"


def _column_widths(header: list[str], rows: list[list[str]]) -> list[float]:
    """Each column as wide as its widest text, the name column taking what is left (as
    fractions of the table's width)."""
    widths = [
        max(max(_width(cell, TABLE_POINTS) for cell in column) + CELL_PADDING_PIXELS, COLUMN_PIXELS)
        for column in zip(header, *rows, strict=True)
    ]
    widths[1] = max(ROOM_PIXELS - sum(widths) + widths[1], ROOM_PIXELS / 4)
    total = sum(widths)
    return [width / total for width in widths]


def _draw(board: StandingsBoard, locale: str, page: list[_Block], number: int, pages: int) -> bytes:
    notes = picture_legend(board, locale)
    blocks = [TITLE_INCHES + ROW_INCHES * (max(len(block.rows), 1) + 1) for block in page]
    legend_height = LEGEND_LINE_INCHES * len(notes) + MARGIN_INCHES
    height = TOP_INCHES + sum(blocks) + legend_height + MARGIN_INCHES
    figure = Figure(figsize=(WIDTH_INCHES, height), dpi=DPI)
    FigureCanvasAgg(figure)
    stage = stage_name(board, locale)
    title = board.title + (f" · {stage}" if stage else "")
    if pages > 1:
        title += f" · {number}/{pages}"
    figure.text(
        0.5,
        1 - MARGIN_INCHES / height,
        title,
        ha="center",
        va="top",
        fontfamily=FONT,
        fontsize=TITLE_POINTS,
        fontweight="bold",
    )
    top = height - TOP_INCHES
    for block, size in zip(page, blocks, strict=True):
        figure.text(
            MARGIN_INCHES / WIDTH_INCHES,
            (top - TITLE_INCHES / 2) / height,
            text(locale, f"standings-title-{block.unit}"),
            va="center",
            fontfamily=FONT,
            fontsize=BLOCK_POINTS,
        )
        top -= size
        axes = figure.add_axes(
            (
                MARGIN_INCHES / WIDTH_INCHES,
                top / height,
                1 - 2 * MARGIN_INCHES / WIDTH_INCHES,
                (size - TITLE_INCHES) / height,
            )
        )
        axes.axis("off")
        advancing = max((cut_after(board, block.unit) or 0) - block.start, 0)
        _draw_table(axes, _header(board, locale, block.unit), block.rows, advancing)
    for index, line in enumerate(notes):
        figure.text(
            MARGIN_INCHES / WIDTH_INCHES,
            (top - MARGIN_INCHES - LEGEND_LINE_INCHES * index) / height,
            line,
            va="top",
            fontfamily=FONT,
            fontsize=LEGEND_POINTS,
        )
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=DPI)
    return buffer.getvalue()


def _draw_table(axes: Axes, header: list[str], rows: list[list[str]], advancing: int) -> None:
    widths = _column_widths(header, [[row[0], "", *row[2:]] for row in rows])
    room = widths[1] * ROOM_PIXELS - CELL_PADDING_PIXELS
    rows = [[row[0], _fitted(row[1], room), *row[2:]] for row in rows]
    table = axes.table(
        cellText=rows or None,
        colLabels=header,
        colWidths=widths,
        bbox=Bbox.from_bounds(0, 0, 1, 1),
        cellLoc="center",
    )
    table.auto_set_font_size(False)
    table.set_fontsize(TABLE_POINTS)
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
