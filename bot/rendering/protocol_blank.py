"""The judge's protocol blank of one table and round, as FIIM's form lays it out.

One A4 page: the game's heading (tournament, stage, round, table, judge, date), the ten seats
with nickname and club, a role to write in, four foul boxes, extra points and points; then the
game circle by circle (each day's nominations and votes, each night's shot, the don's and the
sheriff's checks), the best move of the first killed, the result to tick and the signature.
Every word comes from the tournament's locale; no header breaks inside a word (ReportLab's
long-word splitting is off, the columns are wide enough for their headers).
"""

from __future__ import annotations

from collections.abc import Callable

from domain.seating.sheets import RoundSheet, StageSheet, TableSheet

# Circles of day and night a blank has room for: ten players rarely last longer than six.
CIRCLES = 6
FOUL_BOXES = 4
# A4 portrait, 28 pt margins: 539 pt of width for the grids.
_WIDTH = 539
# Seat, nickname, club, role, four fouls, extra points, points.
_SEAT_COLUMNS = (44, 150, 100, 46, 22, 22, 22, 22, 55, 56)
_LABEL_COLUMN = 113

Text = Callable[..., str]


def protocol_page(
    sheet: StageSheet, round_: RoundSheet, table: TableSheet, text: Text, font: str
) -> list:
    """The flowables of one blank; `text(key, **args)` words it in the tournament's locale."""
    from reportlab.platypus import Paragraph, Spacer

    styles = _styles(font)
    heading = " · ".join(
        (
            _round_heading(round_, text),
            text("seating-sheet-table-heading", table=table.table),
            text("seating-sheet-judge-heading", judge=_escape(table.judge or "—")),
        )
    )
    title = f"{_escape(sheet.title)} — {_escape(stage_name(sheet.stage, text))}"
    return [
        Paragraph(f"{text('seating-sheet-protocol')} · {title}", styles["title"]),
        Spacer(0, 4),
        Paragraph(f"{heading} · {text('seating-sheet-date')}", styles["heading"]),
        Spacer(0, 8),
        _seat_grid(table, text, font, styles),
        Spacer(0, 3),
        Paragraph(text("seating-sheet-roles-hint"), styles["small"]),
        Spacer(0, 8),
        _circle_grid(text, font, styles),
        Spacer(0, 12),
        Paragraph(text("seating-sheet-best-move-line"), styles["heading"]),
        Spacer(0, 12),
        _result_line(text, font),
        Spacer(0, 16),
        Paragraph(text("seating-sheet-signature"), styles["heading"]),
    ]


def stage_name(stage: str, text: Text) -> str:
    """The stage as the tournament's language names it (a preset's stage ids are English)."""
    return text("seating-sheet-stage", stage=stage)


def _round_heading(round_: RoundSheet, text: Text) -> str:
    heading = text("seating-sheet-round-heading", round=round_.number)
    return f"{heading} · {round_.time}" if round_.time else heading


def _styles(font: str) -> dict:
    from reportlab.lib.styles import ParagraphStyle

    def style(name: str, bold: bool, size: float, **extra: object) -> ParagraphStyle:
        face = f"{font}-Bold" if bold else font
        return ParagraphStyle(
            name, fontName=face, fontSize=size, leading=size * 1.25, splitLongWords=0, **extra
        )

    return {
        "title": style("title", True, 14),
        "heading": style("heading", False, 11),
        "header": style("header", True, 9, alignment=1),
        "cell": style("cell", False, 11),
        "small": style("small", False, 8),
    }


def _escape(value: str) -> str:
    from xml.sax.saxutils import escape

    return escape(value)


def _seat_grid(table: TableSheet, text: Text, font: str, styles: dict) -> object:
    from reportlab.lib import colors
    from reportlab.platypus import Paragraph, Table, TableStyle

    def header(key: str) -> Paragraph:
        return Paragraph(text(key), styles["header"])

    fouls = [header("seating-sheet-fouls")] + [""] * (FOUL_BOXES - 1)
    rows: list[list] = [
        [
            header("seating-sheet-seat"),
            header("seating-sheet-player"),
            header("seating-sheet-club"),
            header("seating-sheet-role"),
            *fouls,
            header("seating-sheet-extra"),
            header("seating-sheet-points"),
        ]
    ]
    for line in table.seats:
        rows.append(
            [
                str(line.seat),
                Paragraph(_escape(line.nickname), styles["cell"]),
                Paragraph(_escape(line.club), styles["small"]),
                *[""] * (2 + FOUL_BOXES),
            ]
        )
    grid = Table(rows, colWidths=_SEAT_COLUMNS, rowHeights=[30] + [27] * len(table.seats))
    first_foul = 4
    grid.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), font, 11),
                ("GRID", (0, 0), (-1, -1), 0.6, colors.black),
                ("BACKGROUND", (0, 0), (-1, 0), colors.lightgrey),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("ALIGN", (0, 1), (0, -1), "CENTER"),
                ("SPAN", (first_foul, 0), (first_foul + FOUL_BOXES - 1, 0)),
                ("LEFTPADDING", (0, 0), (-1, 0), 2),
                ("RIGHTPADDING", (0, 0), (-1, 0), 2),
            ]
        )
    )
    return grid


def _circle_grid(text: Text, font: str, styles: dict) -> object:
    """A column per circle: the day's nominations and votes, then the night's shot and checks."""
    from reportlab.lib import colors
    from reportlab.platypus import Paragraph, Table, TableStyle

    keys = (
        "seating-sheet-nominated",
        "seating-sheet-votes",
        "seating-sheet-shot",
        "seating-sheet-don-check",
        "seating-sheet-sheriff-check",
    )
    header = [""] + [
        Paragraph(text("seating-sheet-day", day=day), styles["header"])
        for day in range(1, CIRCLES + 1)
    ]
    rows = [header] + [[Paragraph(text(key), styles["heading"])] + [""] * CIRCLES for key in keys]
    day_width = (_WIDTH - _LABEL_COLUMN) / CIRCLES
    grid = Table(
        rows,
        colWidths=[_LABEL_COLUMN] + [day_width] * CIRCLES,
        rowHeights=[22, 40, 40, 28, 28, 28],
    )
    grid.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), font, 10),
                ("GRID", (0, 0), (-1, -1), 0.6, colors.black),
                ("BACKGROUND", (0, 0), (-1, 0), colors.lightgrey),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ]
        )
    )
    return grid


def _result_line(text: Text, font: str) -> object:
    from reportlab.platypus import Table, TableStyle

    result = Table(
        [
            [
                text("seating-sheet-winner"),
                "☐ " + text("seating-sheet-red"),
                "☐ " + text("seating-sheet-black"),
            ]
        ],
        colWidths=(120, 150, 150),
        hAlign="LEFT",
    )
    result.setStyle(TableStyle([("FONT", (0, 0), (-1, -1), font, 13)]))
    return result
