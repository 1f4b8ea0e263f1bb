"""`mafiatour standings FILE`: score a `mafia-tournament/1` file and print its standings."""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from domain.lot_draw import Lot
    from domain.regulation import TieBreaker
    from domain.standings import StandingRow, Standings

INVALID = 2


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "standings", help="score a mafia-tournament/1 file and print the standings"
    )
    parser.add_argument("file", type=Path, help="the tournament file (JSON)")
    parser.add_argument("--format", choices=("table", "json", "csv"), default="table")
    lot = parser.add_mutually_exclusive_group()
    lot.add_argument("--lot-seed", help="settle ties that survive every tie-breaker by this seed")
    lot.add_argument(
        "--lot-order", help="settle such ties by the chief judge's order: ids, best first, commas"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from domain.interchange import InterchangeError, load_tournament
    from domain.lot_draw import LotError
    from domain.regulation import TieBreaker
    from domain.standings import compute_standings

    try:
        text = args.file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        print(f"{args.file}: cannot read: {error}", file=sys.stderr)
        return INVALID
    try:
        tournament = load_tournament(text)
        lot = _lot(args)
        standings = compute_standings(
            tournament.regulation, tournament.players, tournament.teams, tournament.games, lot
        )
    except InterchangeError as error:
        for problem in error.problems:
            print(f"{args.file}: {problem}", file=sys.stderr)
        return INVALID
    except LotError as error:
        print(f"{args.file}: lot: {error}", file=sys.stderr)
        return INVALID
    chain: list[TieBreaker] = [
        b for b in tournament.regulation.tie_breakers if b is not TieBreaker.LOT
    ]
    render = {"table": _table, "json": _json, "csv": _csv}[args.format]
    sys.stdout.write(render(standings, chain))
    return 0


def _lot(args: argparse.Namespace) -> Lot | None:
    from domain.lot_draw import Lot

    if args.lot_seed is not None:
        return Lot(seed=args.lot_seed)
    if args.lot_order is not None:
        return Lot(order=tuple(item.strip() for item in args.lot_order.split(",") if item.strip()))
    return None


def _number(value: Decimal | int) -> float | int:
    return value if isinstance(value, int) else float(round(value, 2))


def _row(row: StandingRow, chain: list[TieBreaker], *, player: bool) -> dict[str, Any]:
    fields: dict[str, Any] = {"place": row.place, "id": row.id}
    fields["nickname" if player else "name"] = row.name
    if player:
        fields["team"] = row.team
    fields["stage"] = row.stage
    fields["points"] = _number(row.points)
    fields["games"] = row.figures.games
    fields["wins"] = row.figures.wins
    for breaker in chain:
        fields[breaker.value] = _number(row.figures.figure(breaker))
    fields["lot"] = row.lot
    fields["tied"] = row.tied
    return fields


def _rows(standings: Standings, chain: list[TieBreaker]) -> dict[str, list[dict[str, Any]]]:
    return {
        "players": [_row(row, chain, player=True) for row in standings.players],
        "teams": [_row(row, chain, player=False) for row in standings.teams],
    }


def _json(standings: Standings, chain: list[TieBreaker]) -> str:
    return json.dumps(_rows(standings, chain), ensure_ascii=False, indent=2) + "\n"


def _csv(standings: Standings, chain: list[TieBreaker]) -> str:
    rows = [
        {"list": kind[:-1], **row}
        for kind, kind_rows in _rows(standings, chain).items()
        for row in kind_rows
    ]
    columns: list[str] = []
    for row in rows:
        columns.extend(key for key in row if key not in columns)
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def _table(standings: Standings, chain: list[TieBreaker]) -> str:
    lines: list[str] = []
    for title, kind_rows in _rows(standings, chain).items():
        if not kind_rows:
            continue
        lines.append(title.capitalize())
        columns = [key for key in kind_rows[0] if key not in ("lot", "tied")]
        cells = [[_cell(row[key]) for key in columns] for row in kind_rows]
        widths = [max(len(c), *(len(r[i]) for r in cells)) for i, c in enumerate(columns)]
        lines.append("  ".join(c.ljust(w) for c, w in zip(columns, widths, strict=True)))
        for row, line in zip(kind_rows, cells, strict=True):
            mark = "  (lot)" if row["lot"] else "  (tied: needs a lot)" if row["tied"] else ""
            lines.append("  ".join(c.ljust(w) for c, w in zip(line, widths, strict=True)) + mark)
        lines.append("")
    for cut in standings.cuts:
        lines.append(
            f"Cut after {cut.stage}: top {cut.count} {cut.unit} advance: "
            + (", ".join(cut.advancing) or "nobody yet")
        )
        if cut.tied_at_line:
            how = "settled by lot"
            if not cut.settled_by_lot:
                how = f"{cut.open_places} place(s) need a lot"
            lines.append(f"  the cut line falls in a tie of {', '.join(cut.tied_at_line)}: {how}")
    for draw in standings.lot_draws:
        lines.append(f"Lot ({draw.method}) in {draw.context}: {' > '.join(draw.order)}")
    return "\n".join(lines).rstrip("\n") + "\n"


def _cell(value: object) -> str:
    return "" if value is None else str(value)
