"""The simulation's report: final standings, the channel feed, the figures; as text for the
terminal and as an HTML page, with the tournament as a `mafia-tournament/1` file beside it.

Everything here reads what the bot stored and what the fake Telegram shows; nothing is written
to the bot's database.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from html import escape
from pathlib import Path

from bot.db.uow import SqlUnitOfWorkFactory
from bot.fake_telegram import FakeTelegram
from bot.fake_telegram.html import parse_html
from bot.rendering.standings_text import standings_pages
from bot.simulation.figures import Figures
from domain import interchange
from domain.services.standings import load_board, played_games, standings_entries
from domain.standings import Standings

REPORT_FILE = "report.html"
TOURNAMENT_FILE = "tournament.json"
DATABASE_FILE = "mafiatour.sqlite3"


@dataclass(frozen=True)
class Outcome:
    """What the bot stored at the end: the standings and their text, the tournament file."""

    title: str
    standings: Standings
    standings_text: str
    document: str


@dataclass(frozen=True)
class Report:
    outcome: Outcome
    channel: tuple[str, ...]
    figures: Figures
    notes: tuple[str, ...]
    folder: Path


def plain(html: str) -> str:
    """A Telegram HTML text as the chat shows it: tags gone, entities decoded."""
    return parse_html(html)[0]


async def read_outcome(
    uow_factory: SqlUnitOfWorkFactory, tournament_id: int, now: datetime
) -> Outcome:
    """The final standings as the bot computes them, and the tournament with its games."""
    async with uow_factory() as uow:
        tournament = await uow.tournaments.get(tournament_id)
        if tournament is None:
            raise LookupError(f"no tournament {tournament_id}")
        games = await played_games(uow, tournament)
        board = await load_board(uow, tournament, games, None, now)
        participants = await uow.participants.of_tournament(tournament.id)
        teams = await uow.teams.of_tournament(tournament.id)
    players, team_entries = standings_entries(participants, teams, games)
    # `mafiatour export` writes no games yet: the file is built from the same entries and
    # protocols the bot scores, so it reproduces the published standings.
    document = interchange.Tournament(
        tournament.regulation,
        None if tournament.regulation_json else tournament.regulation_id,
        tuple(players),
        tuple(team_entries),
        tuple(game.record for game in games),
    )
    pages = standings_pages(board, "ru")
    return Outcome(
        title=tournament.title,
        standings=board.standings,
        standings_text="\n\n".join(plain(page) for page in pages),
        document=interchange.dumps_tournament(document),
    )


def channel_feed(fake: FakeTelegram, channel_id: int) -> tuple[str, ...]:
    """The channel's posts as it shows them now (the live table as last edited)."""
    posts = []
    for message in fake.messages(channel_id):
        text = message.text or ""
        if message.photo is not None:
            text = f"[картинка] {text}"
        if message.pinned:
            text = f"[закреплено] {text}"
        posts.append(text)
    return tuple(posts)


def report_text(report: Report) -> str:
    """The report for the terminal."""
    rule = "─" * 72
    parts = [
        rule,
        f"Итоговая таблица: {report.outcome.title}",
        rule,
        report.outcome.standings_text,
        rule,
        f"Канал турнира: {len(report.channel)} сообщений",
        rule,
        "\n\n".join(report.channel),
        rule,
        "Figures",
        rule,
        *report.figures.lines(),
        *report.notes,
        rule,
        f"Report: {report.folder / REPORT_FILE}",
        f"Tournament file (mafia-tournament/1): {report.folder / TOURNAMENT_FILE}",
        f"Database: {report.folder / DATABASE_FILE}",
    ]
    return "\n".join(parts) + "\n"


def report_html(report: Report) -> str:
    """The report as one self-contained HTML page."""
    posts = "\n".join(f"<div class=post>{escape(post)}</div>" for post in report.channel)
    figures = "\n".join(f"<li>{escape(line)}</li>" for line in report.figures.lines())
    notes = "\n".join(f"<p>{escape(note)}</p>" for note in report.notes)
    title = escape(report.outcome.title)
    return f"""<!doctype html>
<html lang="ru"><head><meta charset="utf-8"><title>{title}: симуляция</title>
<style>
body {{ font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; }}
pre, .post {{ white-space: pre-wrap; font-family: ui-monospace, monospace; }}
.post {{ border-left: 3px solid #5a7; padding: .3rem .8rem; margin: .6rem 0; }}
</style></head><body>
<h1>{title}</h1>
<h2>Итоговая таблица</h2>
<pre>{escape(report.outcome.standings_text)}</pre>
<h2>Канал турнира</h2>
{posts}
<h2>Figures</h2>
<ul>
{figures}
</ul>
{notes}
</body></html>
"""


def write_files(report: Report) -> None:
    """report.html and tournament.json into the report's folder (the database is there)."""
    (report.folder / REPORT_FILE).write_text(report_html(report), encoding="utf-8")
    (report.folder / TOURNAMENT_FILE).write_text(report.outcome.document + "\n", encoding="utf-8")
