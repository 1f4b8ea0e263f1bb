"""`mafiatour seating`: seat a stage of p1..pN and print the seating with its quality report.

Judges j1..jK (as many as tables unless told) judge the tables as the bot gives them out: the
rotation's judges, each round's moved between its tables with the seating (`choose_judges`);
`--pdf FILE` writes the judges' sheets and the hall poster, `--csv FILE` every seat.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

# The rules (numpy among them) are imported when the command runs, not when the parser is.
if TYPE_CHECKING:
    from domain.player_keys import PlayerKey
    from domain.seating.quality import SeatingQuality
    from domain.seating.request import Seating, SeatingRequest
    from domain.seating.sheets import StageSheet


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("seating", help="generate a stage's seating and its quality")
    parser.add_argument("--players", type=int, required=True, help="players p1..pN")
    parser.add_argument(
        "--team-size", type=int, default=0, help="teams t1, t2, ... of K consecutive players"
    )
    parser.add_argument("--rounds", type=int, required=True)
    parser.add_argument("--tables", type=int, default=None, help="tables per round")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--swaps", type=int, default=None, help="work of the search (default: the generator's)"
    )
    parser.add_argument("--time-limit", type=float, default=None, help="safety cap on CPU seconds")
    parser.add_argument(
        "--judges", type=int, default=None, help="judges j1..jK rotating (default: one a table)"
    )
    parser.add_argument("--format", choices=("json", "table"), default="json")
    parser.add_argument("--pdf", type=Path, default=None, help="write the sheets to print here")
    parser.add_argument("--csv", type=Path, default=None, help="write every seat as CSV here")
    parser.add_argument("--locale", choices=("ru", "en"), default="ru", help="of the sheets")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from domain.seating.generator import generate_seating
    from domain.seating.judges import rotate_judges
    from domain.seating.quality import evaluate_seating
    from domain.seating.request import DEFAULT_SWAPS, TABLE_SIZE, SeatingError, SeatingRequest

    players = tuple(f"p{i}" for i in range(1, args.players + 1))
    teams: dict[str, list[str]] = {}
    if args.team_size > 0:
        for k, player in enumerate(players):
            teams.setdefault(f"t{k // args.team_size + 1}", []).append(player)
    tables = args.tables if args.tables is not None else args.players // TABLE_SIZE
    judges = [f"j{k}" for k in range(1, (args.judges if args.judges is not None else tables) + 1)]
    request = SeatingRequest(
        players=players,
        rounds=args.rounds,
        tables_per_round=(tables,) * args.rounds,
        team_of={player: team for team, members in teams.items() for player in members},
        table_judges=tuple(rotate_judges(judges, tables, r) for r in range(args.rounds)),
        choose_judges=True,
        seed=args.seed,
        swaps=args.swaps if args.swaps is not None else DEFAULT_SWAPS,
        time_limit=args.time_limit,
    )
    try:
        seating = generate_seating(request, clock=time.process_time)
    except SeatingError as error:
        print(f"seating impossible: {error}", file=sys.stderr)
        return 2
    quality = evaluate_seating(request, seating)
    try:
        if args.csv is not None or args.pdf is not None:
            _write_files(args, _sheet(request, seating, teams, args.locale))
    except OSError as error:
        print(f"cannot write the file: {error}", file=sys.stderr)
        return 2
    if args.format == "json":
        document = {
            "players": list(players),
            "teams": teams,
            "rounds": [[list(table) for table in tables_] for tables_ in seating.rounds],
            "sit_outs": [list(out) for out in seating.sit_outs],
            "judges": [list(judges_) for judges_ in seating.table_judges],
            "seed": seating.seed,
            "quality": dataclasses.asdict(quality),
        }
        print(json.dumps(document, ensure_ascii=False))
    else:
        print(_as_text(seating.rounds, seating.sit_outs, quality))
    return 0


def _sheet(
    request: SeatingRequest, seating: Seating, teams: dict[str, list[str]], locale: str
) -> StageSheet:
    """The generated stage as the bot prints it, titled in the sheets' language; a player's
    team stands for his club."""
    from bot.i18n import translator
    from domain.seating.sheets import stage_sheet

    club = {player: team for team, members in teams.items() for player in members}
    tables = max((len(tables_) for tables_ in seating.rounds), default=0)
    words = translator()
    return stage_sheet(
        title=words.get(
            locale, "seating-sheet-generated-title", players=len(request.players), tables=tables
        ),
        stage=words.get(locale, "seating-sheet-generated-stage", rounds=request.rounds),
        rounds=seating.rounds,
        sit_outs=seating.sit_outs,
        judges=seating.table_judges,
        times=(),
        name=lambda player: (player, club.get(player, "")),
    )


def _write_files(args: argparse.Namespace, sheet: StageSheet) -> None:
    if args.csv is not None:
        from bot.rendering.seating_sheets import seating_csv

        args.csv.write_bytes(seating_csv(sheet, args.locale))
    if args.pdf is not None:
        # ReportLab loads only when a PDF is asked for: the command starts fast without it.
        from bot.rendering.seating_sheets import seating_pdf

        args.pdf.write_bytes(seating_pdf(sheet, args.locale))


def _as_text(
    rounds: tuple[tuple[tuple[str, ...], ...], ...],
    sit_outs: tuple[tuple[str, ...], ...],
    quality: SeatingQuality[PlayerKey],
) -> str:
    from domain.seating.request import TABLE_SIZE

    width = max((len(p) for tables in rounds for table in tables for p in table), default=2)
    lines = ["seat".ljust(12) + " ".join(str(s).rjust(width) for s in range(1, TABLE_SIZE + 1))]
    for r, tables in enumerate(rounds, start=1):
        for t, table in enumerate(tables, start=1):
            label = f"R{r} T{t}".ljust(12)
            lines.append(label + " ".join(p.rjust(width) for p in table))
        if sit_outs[r - 1]:
            lines.append(f"R{r} sit out: " + ", ".join(sit_outs[r - 1]))
    lines.append("")
    lines.append("quality")
    for name, value in dataclasses.asdict(quality).items():
        if name in ("max_meet", "s2", "table_repeats", "most_at_table", "most_with_judge"):
            bound = getattr(quality, f"{name}_bound")
            lines.append(f"  {name}: {value} (bound {bound})")
        elif not name.endswith("_bound"):
            lines.append(f"  {name}: {value}")
    return "\n".join(lines)
