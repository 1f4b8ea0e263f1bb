"""The standings as a CSV document, for a spreadsheet.

One line per player (and, in a team tournament, per team after them), with every figure of the
table in full and the marks spelt out. UTF-8 with a byte order mark, so a spreadsheet opens
Cyrillic nicknames correctly. A Russian reader's file is written the way a Russian Excel or
LibreOffice reads columns and numbers: fields separated by `;`, points with the decimal comma
(and the ASCII minus, which a spreadsheet parses); an English one keeps `,` and the dot.
"""

from __future__ import annotations

import csv
import io

from bot.rendering.standings_table import (
    LOT_MARK,
    TIED_MARK,
    figure_columns,
    stage_name,
    table_rows,
    tables,
    text,
    unit_rows,
)
from domain.standings_board import StandingsBoard

# The separator and the decimal mark a spreadsheet in each language reads.
_DIALECTS = {"ru": (";", ",")}


def standings_csv(board: StandingsBoard, locale: str) -> bytes:
    """The board's rows as CSV with a localized header line, in the spreadsheet dialect of
    `locale`."""
    delimiter, decimal = _DIALECTS.get(locale, (",", "."))

    def number(cell: str) -> str:
        return cell.replace(".", decimal)

    columns = figure_columns(board.regulation)
    yes = text(locale, "standings-yes")
    header = [
        text(locale, "standings-name-list"),
        text(locale, "standings-name-place"),
        text(locale, "standings-name-name"),
        text(locale, "standings-name-team"),
        text(locale, "standings-name-stage"),
        text(locale, "standings-name-points"),
        *(text(locale, f"standings-name-{column}") for column in columns),
        text(locale, "standings-name-provisional"),
        text(locale, "standings-name-lot"),
        text(locale, "standings-name-tied"),
        text(locale, "standings-name-excluded"),
    ]
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\n")
    writer.writerow(header)
    for unit in reversed(tables(board)):
        kind = text(locale, f"standings-title-{unit}")
        rows = unit_rows(board, unit)
        for row, cells in zip(rows, table_rows(board, rows, None), strict=True):
            writer.writerow(
                [
                    kind,
                    row.place,
                    row.name,
                    cells.team,
                    stage_name(board, locale, row.stage) or "",
                    number(cells.points),
                    *(number(figure) for figure in cells.figures),
                    yes if cells.provisional else "",
                    yes if cells.mark == LOT_MARK else "",
                    yes if cells.mark == TIED_MARK else "",
                    yes if row.excluded else "",
                ]
            )
    return out.getvalue().encode("utf-8-sig")
