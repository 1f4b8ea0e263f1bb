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
from bot.simulation.people import ORGANIZER_ID
from domain.services.exports import dump_tournament
from domain.services.standings import standings_of_tournament
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
    """The final standings as the organizer's /standings shows them (with the chief judge's
    lots), and the tournament with its games."""
    board = await standings_of_tournament(uow_factory, tournament_id, ORGANIZER_ID, now)
    if board is None:
        raise LookupError(f"no tournament {tournament_id}")
    pages = standings_pages(board, "ru")
    return Outcome(
        title=board.title,
        standings=board.standings,
        standings_text="\n\n".join(plain(page) for page in pages),
        # The file `mafiatour export` writes: every game that counts, as confirmed.
        document=await dump_tournament(uow_factory, tournament_id),
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
