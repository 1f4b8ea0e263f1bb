"""The standings as Telegram HTML: monospace tables in `<pre>`, nicknames escaped.

`standings_pages` cuts the text into messages on row boundaries, each table part under its own
column header, so every message reads on its own. `live_standings_text` always fits one
message (an edit cannot be split): below the cut line it lists as many rows as fit and says how
many more there are.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from bot.rendering.standings_table import (
    EXCLUDED_MARK,
    LOT_MARK,
    PROVISIONAL_MARK,
    TIED_MARK,
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
from bot.rendering.text import telegram_length
from domain.outgoing import TEXT_LIMIT
from domain.standings_board import StandingsBoard

NAME_WIDTH = 14
ELLIPSIS = "…"


@dataclass(frozen=True)
class _Table:
    """One table ready to print: its title, header line and row lines (plain, unescaped)."""

    title: str
    header: str
    lines: tuple[str, ...]


def _fit(name: str, width: int) -> str:
    return name if len(name) <= width else name[: width - 1] + ELLIPSIS


def _table(board: StandingsBoard, locale: str, unit: Unit, rows: Sequence[TableRow]) -> _Table:
    """The table of `rows` (the unit's rows from the top, maybe not all of them): the columns
    are as wide as the rows shown need."""
    columns = figure_columns(board.regulation)
    place_head = text(locale, "standings-abbr-place")
    name_head = text(locale, f"standings-abbr-{unit}")
    points_head = text(locale, "standings-abbr-points")
    figure_heads = [text(locale, f"standings-abbr-{column}") for column in columns]

    def place(row: TableRow) -> str:
        return f"{row.place}{row.mark}"

    def points(row: TableRow) -> str:
        return row.points + (PROVISIONAL_MARK if row.provisional else "")

    name_width = min(NAME_WIDTH, max([len(name_head), *(len(row.name) for row in rows)]))
    place_width = max([len(place_head), *(len(place(row)) for row in rows)])
    points_width = max([len(points_head), *(len(points(row)) for row in rows)])
    figure_widths = [
        max([len(head), *(len(row.figures[index]) for row in rows)])
        for index, head in enumerate(figure_heads)
    ]

    def line(place_cell: str, name: str, points_cell: str, figures: Sequence[str]) -> str:
        cells = [
            place_cell.rjust(place_width),
            _fit(name, name_width).ljust(name_width),
            points_cell.ljust(points_width),
            *(cell.rjust(width) for cell, width in zip(figures, figure_widths, strict=True)),
        ]
        return " ".join(cells).rstrip()

    header = line(place_head, name_head, points_head, figure_heads)
    lines = [line(place(row), row.name, points(row), row.figures) for row in rows]
    cut = cut_after(board, unit)
    if cut is not None and cut < len(lines):
        label = text(locale, "standings-cut-line", count=cut, unit=unit)
        lines.insert(cut, f"── {label} ──")
    return _Table(text(locale, f"standings-title-{unit}"), header, tuple(lines))


def _pre(table: _Table, lines: Sequence[str]) -> str:
    body = "\n".join(escape(line) for line in [table.header, *lines])
    return f"<b>{escape(table.title)}</b>\n<pre>{body}</pre>\n"


def _preamble(board: StandingsBoard, locale: str, heading: str | None) -> str:
    lines = [heading or text(locale, "standings-heading", tournament=escape(board.title))]
    stage = stage_name(board, locale)
    if stage is not None:
        games = board.stage_games
        lines.append(text(locale, "standings-stage", stage=escape(stage), games=games))
    if not board.games:
        lines.append(text(locale, "standings-no-games"))
    return "\n".join(lines) + "\n\n"


def _marks_used(board: StandingsBoard) -> set[str]:
    rows = [*board.standings.players, *board.standings.teams]
    marks = {LOT_MARK for row in rows if row.lot} | {TIED_MARK for row in rows if row.tied}
    marks |= {EXCLUDED_MARK for row in rows if row.excluded}
    if board.provisional_games:
        marks.add(PROVISIONAL_MARK)
    return marks


def _footer(board: StandingsBoard, locale: str, hidden: int = 0) -> str:
    lines: list[str] = []
    if hidden:
        lines.append(text(locale, "standings-more", count=hidden))
    cut = board.cut
    if cut is not None and cut.needs_lot:
        lines.append(text(locale, "standings-cut-needs-lot", places=cut.open_places))
    lines.extend(legend(board, locale))
    return "\n" + "\n".join(lines)


def legend(board: StandingsBoard, locale: str, columns: tuple[str, ...] = ()) -> list[str]:
    """What the table's marks (*, ~, =, ×) and its figure columns' abbreviations mean; `columns`
    are explained first (the picture's place and points)."""
    lines: list[str] = []
    marks = _marks_used(board)
    if PROVISIONAL_MARK in marks:
        lines.append(text(locale, "standings-mark-provisional", games=board.provisional_games))
    if LOT_MARK in marks:
        lines.append(text(locale, "standings-mark-lot"))
    if TIED_MARK in marks:
        lines.append(text(locale, "standings-mark-tied"))
    if EXCLUDED_MARK in marks:
        lines.append(text(locale, "standings-mark-excluded"))
    named = (
        (text(locale, f"standings-abbr-{column}"), text(locale, f"standings-name-{column}"))
        for column in (*columns, *figure_columns(board.regulation))
    )
    # A column headed by its whole name ("Points") explains itself.
    abbreviations = [
        text(locale, "standings-legend-item", abbr=abbr, name=name)
        for abbr, name in named
        if abbr.casefold() != name.casefold()
    ]
    if abbreviations:
        lines.append("; ".join(abbreviations))
    return lines


def _rows(board: StandingsBoard, locale: str) -> dict[Unit, list[TableRow]]:
    """Every table's rows as text cells, made once per rendering."""
    return {unit: table_rows(board, unit_rows(board, unit), locale) for unit in tables(board)}


def standings_pages(
    board: StandingsBoard, locale: str, heading: str | None = None, limit: int = TEXT_LIMIT
) -> list[str]:
    """The whole standings as messages of at most `limit` characters, cut between rows.

    `heading` (HTML) replaces the default "Standings: <tournament>" line.
    """
    pages: list[str] = []
    current = _preamble(board, locale, heading)
    for unit, rows in _rows(board, locale).items():
        table = _table(board, locale, unit, rows)
        chunk: list[str] = []
        for line in table.lines:
            if chunk and telegram_length(current + _pre(table, [*chunk, line])) > limit:
                pages.append((current + _pre(table, chunk)).rstrip())
                current, chunk = "", []
            chunk.append(line)
        part = _pre(table, chunk)
        if current and telegram_length(current + part) > limit:
            pages.append(current.rstrip())
            current = ""
        current += part
    footer = _footer(board, locale)
    if telegram_length(current + footer) > limit:
        pages.append(current.rstrip())
        current = ""
    pages.append((current + footer).strip())
    return pages


def live_standings_text(board: StandingsBoard, locale: str, limit: int = TEXT_LIMIT) -> str:
    """The standings in one message of at most `limit` characters, for the pinned message.

    Every team is listed, and as many players, from the top, as fit.
    """
    # The rows' cells, the preamble and the teams' table are made once; only the players'
    # table is laid out again for each count of players tried.
    rows = _rows(board, locale)
    players = rows["players"]
    preamble = _preamble(board, locale, None)
    teams = "".join(
        _pre(table, table.lines)
        for table in (_table(board, locale, unit, rows[unit]) for unit in rows if unit != "players")
    )

    def render(shown: int) -> str:
        table = _table(board, locale, "players", players[:shown])
        body = teams + _pre(table, table.lines)
        return preamble + body + _footer(board, locale, len(players) - shown)

    full = render(len(players))
    if telegram_length(full) <= limit:
        return full.strip()
    # The most rows that fit: the text grows with every row shown.
    low, high = 0, len(players)
    while low < high:
        middle = (low + high + 1) // 2
        if telegram_length(render(middle)) <= limit:
            low = middle
        else:
            high = middle - 1
    return render(low).strip()
