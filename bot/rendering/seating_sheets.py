"""A stage's seating to print and to export: PDF sheets with a hall poster, and a CSV file.

The PDF (A4, ReportLab) has one page per table and round, for its judge: the seats with
nickname and club and an empty protocol grid (role, fouls, best move, extra points) with the
winner to tick; then the hall poster, the whole stage as rounds × tables on landscape pages.
DejaVu Sans is embedded so that Cyrillic nicknames print. The CSV file holds one line per seat
(round, table, seat, player, club, judge), UTF-8 with a byte order mark as the standings' file.
"""

from __future__ import annotations

import csv
import io
from functools import cache
from pathlib import Path

from bot.i18n import translator
from domain.seating.sheets import RoundSheet, StageSheet, TableSheet

FONT = "DejaVuSans"
_FONT_FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")


def _text(locale: str, key: str, **args: object) -> str:
    return translator().get(locale, key, **args)


def seating_csv(sheet: StageSheet, locale: str) -> bytes:
    """Every seat of the stage as a CSV line under a localized header."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(
        [
            _text(locale, f"seating-sheet-{column}")
            for column in ("round", "table", "seat", "player", "club", "judge")
        ]
    )
    writer.writerows(sheet.rows())
    return buffer.getvalue().encode("utf-8-sig")


@cache
def _font_dir() -> Path:
    """matplotlib (a dependency already) ships DejaVu Sans; Debian's fonts-dejavu does too."""
    import matplotlib

    for folder in (
        Path(matplotlib.get_data_path()) / "fonts" / "ttf",
        Path("/usr/share/fonts/truetype/dejavu"),
    ):
        if all((folder / name).is_file() for name in _FONT_FILES):
            return folder
    raise FileNotFoundError("DejaVuSans.ttf not found for the PDF sheets")


@cache
def _register_fonts() -> None:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    folder = _font_dir()
    pdfmetrics.registerFont(TTFont(FONT, str(folder / _FONT_FILES[0])))
    pdfmetrics.registerFont(TTFont(f"{FONT}-Bold", str(folder / _FONT_FILES[1])))


def seating_pdf(sheet: StageSheet, locale: str) -> bytes:
    """The judges' sheets (one page per table and round), then the hall poster."""
    # ReportLab is imported here: only this document needs it, not the bot's start-up.
    from reportlab.lib.pagesizes import A4, landscape
    from reportlab.platypus import (
        BaseDocTemplate,
        Frame,
        NextPageTemplate,
        PageBreak,
        PageTemplate,
    )

    _register_fonts()
    buffer = io.BytesIO()
    document = BaseDocTemplate(
        buffer,
        pagesize=A4,
        title=f"{sheet.title} — {sheet.stage}",
        leftMargin=36,
        rightMargin=36,
        topMargin=36,
        bottomMargin=36,
    )
    portrait_frame = Frame(36, 36, A4[0] - 72, A4[1] - 72, id="portrait")
    wide = landscape(A4)
    landscape_frame = Frame(24, 24, wide[0] - 48, wide[1] - 48, id="landscape")
    document.addPageTemplates(
        [
            PageTemplate(id="table", frames=[portrait_frame], pagesize=A4),
            PageTemplate(id="poster", frames=[landscape_frame], pagesize=wide),
        ]
    )
    story: list = []
    for round_ in sheet.rounds:
        for table in round_.tables:
            story.extend(_table_page(sheet, round_, table, locale))
            story.append(PageBreak())
    if story:
        story[-1:] = [NextPageTemplate("poster"), PageBreak()]
    story.extend(_poster(sheet, locale))
    document.build(story)
    return buffer.getvalue()


def _styles() -> dict:
    from reportlab.lib.styles import ParagraphStyle

    return {
        "title": ParagraphStyle("title", fontName=f"{FONT}-Bold", fontSize=15, leading=19),
        "heading": ParagraphStyle("heading", fontName=FONT, fontSize=12, leading=16),
        "cell": ParagraphStyle("cell", fontName=FONT, fontSize=10, leading=12),
        "small": ParagraphStyle("small", fontName=FONT, fontSize=7, leading=8.5),
    }


def _escape(text: str) -> str:
    from xml.sax.saxutils import escape

    return escape(text)


def _round_heading(round_: RoundSheet, locale: str) -> str:
    heading = _text(locale, "seating-sheet-round-heading", round=round_.number)
    return f"{heading} · {round_.time}" if round_.time else heading


def _table_page(sheet: StageSheet, round_: RoundSheet, table: TableSheet, locale: str) -> list:
    from reportlab.lib import colors
    from reportlab.platypus import Paragraph, Spacer, Table, TableStyle

    styles = _styles()
    judge = table.judge or "—"
    heading = " · ".join(
        (
            _round_heading(round_, locale),
            _text(locale, "seating-sheet-table-heading", table=table.table),
            _text(locale, "seating-sheet-judge-heading", judge=_escape(judge)),
        )
    )
    columns = ("seat", "player", "club", "role", "fouls", "best-move", "extra")
    header = [Paragraph(_text(locale, f"seating-sheet-{c}"), styles["cell"]) for c in columns]
    rows = [header] + [
        [
            str(line.seat),
            Paragraph(_escape(line.nickname), styles["cell"]),
            Paragraph(_escape(line.club), styles["cell"]),
            "",
            "",
            "",
            "",
        ]
        for line in table.seats
    ]
    grid = Table(rows, colWidths=(44, 130, 90, 60, 46, 66, 87), rowHeights=[28] + [34] * 10)
    grid.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), FONT, 10),
                ("GRID", (0, 0), (-1, -1), 0.6, colors.black),
                ("BACKGROUND", (0, 0), (-1, 0), colors.lightgrey),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("ALIGN", (0, 1), (0, -1), "CENTER"),
            ]
        )
    )
    winner = Table(
        [
            [
                _text(locale, "seating-sheet-winner"),
                "☐ " + _text(locale, "seating-sheet-red"),
                "☐ " + _text(locale, "seating-sheet-black"),
            ]
        ],
        colWidths=(120, 150, 150),
    )
    winner.setStyle(TableStyle([("FONT", (0, 0), (-1, -1), FONT, 12)]))
    signature = Paragraph(_text(locale, "seating-sheet-signature"), styles["heading"])
    return [
        Paragraph(_escape(f"{sheet.title} — {sheet.stage}"), styles["title"]),
        Spacer(0, 6),
        Paragraph(heading, styles["heading"]),
        Spacer(0, 14),
        grid,
        Spacer(0, 18),
        winner,
        Spacer(0, 24),
        signature,
    ]


def _poster(sheet: StageSheet, locale: str) -> list:
    """The whole stage: a row per table, a column per round, each cell its ten seats."""
    from reportlab.lib import colors
    from reportlab.platypus import Paragraph, Spacer, Table, TableStyle

    styles = _styles()
    story: list = [
        Paragraph(
            _escape(_text(locale, "seating-sheet-poster", title=sheet.title, stage=sheet.stage)),
            styles["title"],
        ),
        Spacer(0, 8),
    ]
    if not sheet.rounds:
        return story
    tables = max(len(round_.tables) for round_ in sheet.rounds)
    header = [""] + [Paragraph(_round_heading(r, locale), styles["cell"]) for r in sheet.rounds]
    rows = [header]
    for t in range(tables):
        row = [Paragraph(_text(locale, "seating-sheet-table-heading", table=t + 1), styles["cell"])]
        for round_ in sheet.rounds:
            if t >= len(round_.tables):
                row.append("")
                continue
            table = round_.tables[t]
            lines = [f"{line.seat}. {_escape(line.nickname)}" for line in table.seats]
            if table.judge:
                lines.insert(0, f"<b>{_escape(table.judge)}</b>")
            row.append(Paragraph("<br/>".join(lines), styles["small"]))
        rows.append(row)
    sit_outs = [", ".join(_escape(name) for name in r.sit_outs) for r in sheet.rounds]
    if any(sit_outs):
        rows.append(
            [Paragraph(_text(locale, "seating-sheet-sit-outs"), styles["cell"])]
            + [Paragraph(names, styles["small"]) for names in sit_outs]
        )
    width = 790 - 70
    grid = Table(
        rows,
        colWidths=[70] + [width / len(sheet.rounds)] * len(sheet.rounds),
        repeatRows=1,
    )
    grid.setStyle(
        TableStyle(
            [
                ("GRID", (0, 0), (-1, -1), 0.5, colors.black),
                ("BACKGROUND", (0, 0), (-1, 0), colors.lightgrey),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ]
        )
    )
    story.append(grid)
    return story
