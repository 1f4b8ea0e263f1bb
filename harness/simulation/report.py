"""The simulation's report: final standings, the channel feed, the figures; as text for the
terminal and as an HTML page, with the tournament as a `mafia-tournament/1` file beside it.

The page opens with a summary (the winner, the podium, the figures); the channel's posts follow
in a section per stage, its standings pictures written into the folder and shown where they
were posted.

Everything here reads what the bot stored and what the fake Telegram shows; nothing is written
to the bot's database.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime
from html import escape
from pathlib import Path

from bot.db.uow import SqlUnitOfWorkFactory
from bot.i18n import format_points, translator
from bot.rendering.standings_text import standings_pages
from domain.actor import Actor
from domain.services.catalog import build_services
from domain.services.standings_posts import refresh_prefix
from domain.standings import Standings
from harness.fake_telegram import FakeTelegram
from harness.fake_telegram.html import parse_html
from harness.simulation.figures import Figures
from harness.simulation.people import ORGANIZER_ID

REPORT_FILE = "report.html"
PICTURE_FILE = "picture-{number:03d}.png"
PODIUM = 3
TOURNAMENT_FILE = "tournament.json"
DATABASE_FILE = "mafiatour.sqlite3"
# The simulation's people speak Russian: its report is written in their language.
LOCALE = "ru"


def say(key: str, **args: object) -> str:
    """A text of the report (bot/locales/*/simulation.ftl) in the simulation's language."""
    return translator().get(LOCALE, key, **args)


@dataclass(frozen=True)
class Outcome:
    """What the bot stored at the end: the standings and their text, the tournament file."""

    title: str
    standings: Standings
    standings_text: str
    document: str
    # The stages' names (Russian, as the channel writes them), in order.
    stages: tuple[str, ...] = ()
    team_tournament: bool = False


@dataclass(frozen=True)
class ChannelPost:
    """A channel post as the channel shows it; `picture` names its PNG in the report folder."""

    text: str
    picture: str | None = None


@dataclass(frozen=True)
class Report:
    outcome: Outcome
    channel: tuple[ChannelPost, ...]
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
    services = build_services(uow_factory)
    board = await services.standings.standings_of_tournament(
        Actor(ORGANIZER_ID, now), tournament_id
    )
    if board is None:
        raise LookupError(f"no tournament {tournament_id}")
    pages = standings_pages(board, "ru")
    return Outcome(
        title=board.title,
        standings=board.standings,
        standings_text="\n\n".join(plain(page) for page in pages),
        # The file `mafiatour export` writes: every game that counts, as confirmed.
        document=await services.exports.dump_tournament(tournament_id),
        stages=tuple(stage.name.ru for stage in board.regulation.stages),
        team_tournament=board.regulation.is_team_tournament,
    )


def channel_feed(fake: FakeTelegram, channel_id: int, folder: Path) -> tuple[ChannelPost, ...]:
    """The channel's posts as it shows them now (the live table as last edited); its pictures
    are written into `folder`."""
    posts: list[ChannelPost] = []
    for message in fake.messages(channel_id):
        text = message.text or ""
        if message.pinned:
            text = say("sim-pinned", text=text)
        picture = None
        if message.photo is not None and message.photo.content:
            picture = PICTURE_FILE.format(number=sum(1 for p in posts if p.picture) + 1)
            (folder / picture).write_bytes(message.photo.content)
        posts.append(ChannelPost(text, picture))
    return tuple(posts)


def podium(outcome: Outcome) -> list[str]:
    """The first places: teams in a team tournament, players otherwise."""
    rows = outcome.standings.teams if outcome.team_tournament else outcome.standings.players
    return [
        f"{row.place}. {row.name} — {format_points(row.points, LOCALE)}" for row in rows[:PODIUM]
    ]


def stage_sections(report: Report) -> list[tuple[str, list[ChannelPost]]]:
    """The channel's posts by stage: a post opens its stage's section when it names the stage
    in its first line (the seating, a result, a closing post); the rest follow where they are."""
    sections: list[tuple[str, list[ChannelPost]]] = [(say("sim-registration"), [])]
    for post in report.channel:
        first_line = post.text.split("\n", 1)[0]
        named = [stage for stage in report.outcome.stages if stage in first_line]
        if named and named[0] != sections[-1][0]:
            sections.append((named[0], []))
        sections[-1][1].append(post)
    return [(name, posts) for name, posts in sections if posts]


def _shown(post: ChannelPost) -> str:
    return say("sim-picture", file=post.picture, text=post.text) if post.picture else post.text


def report_text(report: Report) -> str:
    """The report for the terminal."""
    rule = "─" * 72
    parts = [
        rule,
        say("sim-final-table-of", title=report.outcome.title),
        rule,
        report.outcome.standings_text,
        rule,
        say("sim-channel-count", posts=len(report.channel)),
        rule,
        "\n\n".join(_shown(post) for post in report.channel),
        rule,
        say("sim-figures"),
        rule,
        *report.figures.lines(),
        *report.notes,
        rule,
        f"Report: {report.folder / REPORT_FILE}",
        f"Tournament file (mafia-tournament/1): {report.folder / TOURNAMENT_FILE}",
        f"Database: {report.folder / DATABASE_FILE}",
    ]
    return "\n".join(parts) + "\n"


def _post_html(post: ChannelPost) -> str:
    picture = f'<img src="{escape(post.picture)}" alt="">' if post.picture else ""
    text = f"<div class=text>{escape(post.text)}</div>" if post.text else ""
    return f"<div class=post>{picture}{text}</div>"


def report_html(report: Report) -> str:
    """The report as one HTML page beside its pictures: the summary, the standings, then the
    channel stage by stage, then the figures."""
    figures = "\n".join(f"<li>{escape(line)}</li>" for line in report.figures.lines())
    notes = "\n".join(f"<p>{escape(note)}</p>" for note in report.notes)
    title = escape(report.outcome.title)
    page_title = escape(say("sim-page-title", title=report.outcome.title))
    places = podium(report.outcome)
    winner = escape(places[0].split(". ", 1)[1]) if places else "—"
    top = "\n".join(f"<li>{escape(line)}</li>" for line in places)
    players = report.outcome.standings.players
    summary = say(
        "sim-summary",
        players=len(players),
        # Ten players a game.
        games=sum(row.figures.games for row in players) // 10,
        posts=len(report.channel),
        pictures=sum(1 for post in report.channel if post.picture),
        seconds=f"{report.figures.wall_seconds:.0f}",
        errors=len(report.figures.errors),
    )
    stages = "\n".join(
        f"<section><h3>{escape(name)}</h3>\n" + "\n".join(map(_post_html, posts)) + "</section>"
        for name, posts in stage_sections(report)
    )
    return f"""<!doctype html>
<html lang="{LOCALE}"><head><meta charset="utf-8"><title>{page_title}</title>
<style>
body {{ font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; }}
pre, .text {{ white-space: pre-wrap; font-family: ui-monospace, monospace; }}
.post {{ border-left: 3px solid #5a7; padding: .3rem .8rem; margin: .6rem 0; }}
.post img {{ max-width: 100%; display: block; }}
.summary {{ background: #f3f7f3; padding: .6rem 1rem; }}
</style></head><body>
<h1>{title}</h1>
<div class=summary>
<p><b>{escape(say("sim-winner"))}</b> {winner}</p>
<ol class=podium>
{top}
</ol>
<p>{escape(summary)}</p>
</div>
<h2>{escape(say("sim-final-table"))}</h2>
<pre>{escape(report.outcome.standings_text)}</pre>
<h2>{escape(say("sim-channel-by-stage"))}</h2>
{stages}
<h2>{escape(say("sim-figures"))}</h2>
<ul>
{figures}
</ul>
{notes}
</body></html>
"""


def write_files(report: Report) -> None:
    """report.html and tournament.json into the report's folder (the database and the
    pictures are there)."""
    (report.folder / REPORT_FILE).write_text(report_html(report), encoding="utf-8")
    (report.folder / TOURNAMENT_FILE).write_text(report.outcome.document + "\n", encoding="utf-8")


async def windows_closed(
    uow_factory: SqlUnitOfWorkFactory,
    tournament_id: int,
    timeout: float,
    apart: Callable[[], AbstractContextManager[None]] = contextlib.nullcontext,
) -> None:
    """Wait until the live table's edits for the closing protest windows have gone into the
    outbox (the scheduler moves each at its window's close, on the simulation's clock); each
    look at the database is made within `apart()` (the simulation's meter keeps it apart)."""
    async with asyncio.timeout(timeout):
        while True:
            with apart():
                async with uow_factory() as uow:
                    waiting = await uow.scheduled_pushes.waiting(refresh_prefix(tournament_id))
            if not waiting:
                return
            await asyncio.sleep(0.1)
