"""Season pictures for phones, drawn headless with matplotlib (Agg) as the standings are
(`standings_png`): a player's rating history (/profile) and a series' rating table (/rating).

Both are 720 pixels wide with type no smaller than the standings pictures' legend, so a phone
showing them 360 wide keeps them readable. A long table is cut into pictures of
`ROWS_PER_PICTURE` rows (an album); the reader's own row is shaded and marked.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.transforms import Bbox

from bot.rendering.standings_png import (
    BLOCK_POINTS,
    DPI,
    FONT,
    HEADER_COLOUR,
    LEGEND_POINTS,
    MARGIN_INCHES,
    ROW_INCHES,
    TABLE_POINTS,
    TITLE_POINTS,
    TOP_INCHES,
    WIDTH_INCHES,
)
from domain.standings_board import ROWS_PER_PICTURE

HISTORY_HEIGHT_INCHES = 3.4
LINE_COLOUR = "#b3261e"
MINE_COLOUR = "#fff1c2"
# The name column's share of a table picture's width.
NAME_SHARE = 0.42


def rating_history_png(
    after: Sequence[float], *, title: str, axis: str, start: float = 1000.0
) -> bytes:
    """The rating after each rated game (in order) from `start`, as a line; `title` above,
    `axis` names the bottom axis (games)."""
    figure = Figure(figsize=(WIDTH_INCHES, HISTORY_HEIGHT_INCHES), dpi=DPI)
    FigureCanvasAgg(figure)
    figure.suptitle(title, fontfamily=FONT, fontsize=TITLE_POINTS, fontweight="bold")
    axes = figure.add_axes((0.16, 0.17, 0.8, 0.68))
    values = [start, *after]
    axes.plot(range(len(values)), values, color=LINE_COLOUR, linewidth=2.2)
    axes.plot([len(values) - 1], [values[-1]], "o", color=LINE_COLOUR, markersize=6)
    axes.annotate(
        f"{values[-1]:.0f}",
        (len(values) - 1, values[-1]),
        textcoords="offset points",
        xytext=(0, 8),
        ha="center",
        fontfamily=FONT,
        fontsize=BLOCK_POINTS,
        fontweight="bold",
    )
    axes.grid(True, color="#dddddd", linewidth=0.6)
    axes.set_xlabel(axis, fontfamily=FONT, fontsize=LEGEND_POINTS)
    axes.tick_params(labelsize=LEGEND_POINTS)
    axes.xaxis.get_major_locator().set_params(integer=True)  # type: ignore[call-arg]
    for side in ("top", "right"):
        axes.spines[side].set_visible(False)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=DPI)
    return buffer.getvalue()


def table_pngs(
    title: str, header: Sequence[str], rows: Sequence[Sequence[str]], mine: int | None
) -> list[bytes]:
    """The table (the name in the second column) as pictures of at most `ROWS_PER_PICTURE`
    rows; row `mine` (0-based, or None) is the reader's, shaded."""
    chunks = [rows[at : at + ROWS_PER_PICTURE] for at in range(0, len(rows), ROWS_PER_PICTURE)]
    chunks = chunks or [[]]
    pictures = []
    for number, chunk in enumerate(chunks):
        start = number * ROWS_PER_PICTURE
        marked = mine - start if mine is not None and start <= mine < start + len(chunk) else None
        heading = title if len(chunks) == 1 else f"{title} · {number + 1}/{len(chunks)}"
        pictures.append(_table_png(heading, header, chunk, marked))
    return pictures


def _widths(columns: int) -> list[float]:
    other = (1 - NAME_SHARE) / max(columns - 1, 1)
    return [other if index != 1 else NAME_SHARE for index in range(columns)]


def _fitted(name: str, limit: int = 19) -> str:
    return name if len(name) <= limit else name[: limit - 1].rstrip() + "…"


def _table_png(
    title: str, header: Sequence[str], rows: Sequence[Sequence[str]], marked: int | None
) -> bytes:
    height = TOP_INCHES + ROW_INCHES * (max(len(rows), 1) + 1) + MARGIN_INCHES
    figure = Figure(figsize=(WIDTH_INCHES, height), dpi=DPI)
    FigureCanvasAgg(figure)
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
    axes = figure.add_axes(
        (
            MARGIN_INCHES / WIDTH_INCHES,
            MARGIN_INCHES / height,
            1 - 2 * MARGIN_INCHES / WIDTH_INCHES,
            (height - TOP_INCHES - MARGIN_INCHES) / height,
        )
    )
    axes.axis("off")
    cells = [[row[0], _fitted(row[1]), *row[2:]] for row in rows]
    table = axes.table(
        cellText=cells or None,
        colLabels=list(header),
        colWidths=_widths(len(header)),
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
        elif marked is not None and row == marked + 1:
            cell.set_facecolor(MINE_COLOUR)
            cell.get_text().set_fontweight("bold")
        if column == 1 and row > 0:
            cell.get_text().set_horizontalalignment("left")
            cell.PAD = 0.04
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=DPI)
    return buffer.getvalue()
