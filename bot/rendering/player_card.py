"""A player's own card for /me: his place (× when he was excluded), and every game with seat,
role and points by part, and the games that ended by a special rule (three misses...)."""

from __future__ import annotations

from html import escape

from bot.i18n import format_points
from bot.rendering.standings_table import EXCLUDED_MARK, PROVISIONAL_MARK, stage_name, text
from domain.standings import StandingRow
from domain.standings_board import PlayerCard, PlayerGame

_COLUMNS = ("round", "table", "seat", "role", "result", "win", "best_move", "extra", "penalty")


def _cells(game: PlayerGame, locale: str) -> list[str]:
    score = game.score
    return [
        str(game.round),
        str(game.table),
        str(score.seat),
        text(locale, "me-role", role=score.role.value),
        text(locale, "me-won" if score.won else "me-lost"),
        format_points(score.win, locale),
        format_points(score.best_move, locale),
        format_points(score.extra, locale),
        format_points(score.penalty, locale),
        format_points(score.total, locale) + (PROVISIONAL_MARK if game.provisional else ""),
    ]


def _place(row: StandingRow) -> str:
    """His place with its mark: × for a player excluded from the tournament, = for a share."""
    if row.excluded:
        return f"{row.place}{EXCLUDED_MARK}"
    return f"{row.place}{'=' if row.tied else ''}"


def _special_ends(games: list[PlayerGame], locale: str) -> list[str]:
    """The games of a stage that ended by a rule of the regulation, not by elimination."""
    return [
        text(
            locale,
            "me-game-end",
            round=game.round,
            table=game.table,
            end=game.end.value,
            winner=game.winner.value,
        )
        for game in games
        if game.end is not None and game.end.special and game.winner is not None
    ]


def _table(games: list[PlayerGame], locale: str) -> str:
    header = [text(locale, f"me-abbr-{column}") for column in (*_COLUMNS, "total")]
    rows = [_cells(game, locale) for game in games]
    widths = [max(len(cell) for cell in column) for column in zip(header, *rows, strict=True)]
    lines = [
        " ".join(
            cell.ljust(width) if index == 3 else cell.rjust(width)
            for index, (cell, width) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()
        for cells in (header, *rows)
    ]
    return "<pre>" + "\n".join(escape(line) for line in lines) + "</pre>"


def player_card_text(card: PlayerCard, locale: str) -> str:
    """The card as HTML: a summary line, then one table of games per stage."""
    board = card.board
    row = next(r for r in board.standings.players if r.id == card.player)
    lines = [
        text(locale, "me-heading", nickname=escape(card.nickname), tournament=escape(board.title)),
        text(
            locale,
            "me-summary",
            place=_place(row),
            points=format_points(row.points, locale),
            games=row.figures.games,
            wins=row.figures.wins,
        ),
    ]
    if row.excluded:
        lines.append(text(locale, "me-excluded"))
    if not card.games:
        lines.append(text(locale, "me-no-games"))
    stages: dict[str, list[PlayerGame]] = {}
    for game in card.games:
        stages.setdefault(game.stage, []).append(game)
    for stage, games in stages.items():
        lines.append("")
        lines.append(f"<b>{escape(stage_name(board, locale, stage) or stage)}</b>")
        lines.append(_table(games, locale))
        lines.extend(_special_ends(games, locale))
    if any(game.provisional for game in card.games):
        lines.append(text(locale, "me-provisional"))
    legend = "; ".join(
        text(
            locale,
            "standings-legend-item",
            abbr=text(locale, f"me-abbr-{column}"),
            name=text(locale, f"me-name-{column}"),
        )
        for column in (*_COLUMNS[1:3], *_COLUMNS[4:], "total")
    )
    lines.append(legend)
    return "\n".join(lines)
