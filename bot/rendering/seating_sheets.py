"""A stage's seating to print and to export: PDF sheets with a hall poster, and a CSV file.

The PDF (A4, ReportLab) has one page per table and round, for its judge: the protocol blank
judges fill in (`protocol_blank`); then the hall poster, a landscape page per round (more for
a round of more than six tables) with nicknames in 16 pt, readable from two metres. Every word
is the tournament's locale's. DejaVu Sans is embedded so that Cyrillic nicknames print. The
CSV file holds one line per seat (round, table, seat, player, club, judge), UTF-8 with a byte
order mark as the standings' file.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path

from bot.i18n import translator
from bot.rendering.protocol_blank import protocol_page, stage_name
from domain.seating.sheets import StageSheet, TableSheet

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
    """The judges' blanks (one page per table and round), then the hall poster."""
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
    title = f"{sheet.title} — {stage_name(sheet.stage, _texts(locale))}"
    document = BaseDocTemplate(buffer, pagesize=A4, title=title)
    portrait_frame = Frame(28, 28, A4[0] - 56, A4[1] - 56, id="portrait")
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
            story.extend(protocol_page(sheet, round_, table, _texts(locale), FONT))
            story.append(PageBreak())
    if story:
        story[-1:] = [NextPageTemplate("poster"), PageBreak()]
    story.extend(_poster(sheet, locale))
    document.build(story)
    return buffer.getvalue()


def _texts(locale: str) -> Callable[..., str]:
    return lambda key, **args: _text(locale, key, **args)


# The poster: tables a page holds (three in a row, two rows) and its type sizes (pt).
POSTER_TABLES = 6
_POSTER_COLUMNS = 3
NICKNAME_SIZE = 16
_HEADING_SIZE = 24


def _poster_styles() -> dict:
    from reportlab.lib.styles import ParagraphStyle

    def style(name: str, bold: bool, size: float) -> ParagraphStyle:
        face = f"{FONT}-Bold" if bold else FONT
        return ParagraphStyle(name, fontName=face, fontSize=size, leading=size * 1.15)

    return {
        "title": style("title", False, 14),
        "round": style("round", True, _HEADING_SIZE),
        "table": style("table", True, NICKNAME_SIZE + 2),
        "name": style("name", False, NICKNAME_SIZE),
        "sit-outs": style("sit-outs", False, 14),
    }


def _escape(text: str) -> str:
    from xml.sax.saxutils import escape

    return escape(text)


def _poster(sheet: StageSheet, locale: str) -> list:
    """A page per round: its heading, its tables (judge and ten seats each), who sits out."""
    from reportlab.platypus import PageBreak, Paragraph, Spacer

    styles = _poster_styles()
    title = _text(
        locale,
        "seating-sheet-poster",
        title=sheet.title,
        stage=stage_name(sheet.stage, _texts(locale)),
    )
    story: list = []
    for round_ in sheet.rounds:
        heading = _text(locale, "seating-sheet-round-heading", round=round_.number)
        if round_.time:
            heading = f"{heading} · {round_.time}"
        tables = round_.tables
        for first in range(0, max(len(tables), 1), POSTER_TABLES):
            story += [
                Paragraph(_escape(title), styles["title"]),
                Paragraph(_escape(heading), styles["round"]),
                Spacer(0, 10),
            ]
            chunk = tables[first : first + POSTER_TABLES]
            if chunk:
                story.append(_poster_tables(chunk, locale, styles))
            if first + POSTER_TABLES >= len(tables) and round_.sit_outs:
                names = ", ".join(_escape(name) for name in round_.sit_outs)
                label = _text(locale, "seating-sheet-sit-outs")
                story += [Spacer(0, 8), Paragraph(f"{label}: {names}", styles["sit-outs"])]
            story.append(PageBreak())
    return story[:-1]


def _poster_tables(tables: Sequence[TableSheet], locale: str, styles: dict) -> object:
    """Up to six tables in rows of three, each its heading over its ten seats."""
    from reportlab.lib import colors
    from reportlab.platypus import Paragraph, Table, TableStyle

    width = (842 - 48) / _POSTER_COLUMNS
    blocks = []
    for table in tables:
        heading = _text(locale, "seating-sheet-table-heading", table=table.table)
        if table.judge:
            heading = f"{heading} · {table.judge}"
        rows = [[Paragraph(_escape(heading), styles["table"]), ""]] + [
            [str(line.seat), Paragraph(_escape(line.nickname), styles["name"])]
            for line in table.seats
        ]
        block = Table(rows, colWidths=(30, width - 42))
        block.setStyle(
            TableStyle(
                [
                    ("SPAN", (0, 0), (1, 0)),
                    ("FONT", (0, 1), (0, -1), FONT, NICKNAME_SIZE),
                    ("BOX", (0, 0), (-1, -1), 1, colors.black),
                    ("LINEBELOW", (0, 0), (-1, 0), 1, colors.black),
                    ("BACKGROUND", (0, 0), (-1, 0), colors.lightgrey),
                    ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                    ("TOPPADDING", (0, 0), (-1, -1), 1),
                    ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
                ]
            )
        )
        blocks.append(block)
    rows = [
        blocks[k : k + _POSTER_COLUMNS] + [""] * (_POSTER_COLUMNS - len(blocks[k : k + 3]))
        for k in range(0, len(blocks), _POSTER_COLUMNS)
    ]
    grid = Table(rows, colWidths=[width] * _POSTER_COLUMNS)
    grid.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP")]))
    return grid
