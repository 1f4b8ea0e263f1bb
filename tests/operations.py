"""What the operator's tests share: `mafiatour` run as its own process (as beside a running
bot), and tournaments to fill a database with."""

from __future__ import annotations

import asyncio
import os
import socket
import sys
from datetime import UTC, datetime
from pathlib import Path

from bot.db.backup import summarize
from bot.db.engine import create_engine, create_session_factory
from bot.db.uow import SqlUnitOfWorkFactory
from domain.actor import Actor
from domain.services.catalog import build_services

# Generous: the process starts Python and imports the bot on a loaded machine.
PROCESS_TIMEOUT_S = 120


async def mafiatour(database_url: str, *arguments: str) -> tuple[int, str, str]:
    """Exit status, standard output and standard error (stripped) of one command."""
    env = {**os.environ, "DATABASE_URL": database_url}
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        *arguments,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), PROCESS_TIMEOUT_S)
    assert process.returncode is not None
    return process.returncode, out.decode().strip(), err.decode().strip()


def free_port() -> int:
    """A TCP port nothing listens on right now, for a server under test."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


CUP = (Path(__file__).parent / "data" / "black-raven-cup.tournament.json").read_text(
    encoding="utf-8"
)
OWNER = 7


async def remember_owner(uow_factory: SqlUnitOfWorkFactory) -> None:
    """The organizer the tournaments below belong to."""
    services = build_services(uow_factory)
    await services.users.remember_user(
        telegram_id=OWNER,
        first_name="Owner",
        last_name=None,
        username=None,
        default_locale="ru",
    )


async def add_cup_tournament(uow_factory: SqlUnitOfWorkFactory, title: str) -> int:
    """A black-raven-cup tournament with its 27 games, committed in one transaction."""
    services = build_services(uow_factory)
    tournament = await services.exports.import_tournament(
        Actor(OWNER, datetime.now(UTC)), CUP, title
    )
    return tournament.id


async def exports(url: str) -> dict[int, str]:
    """Every tournament of the database at `url` as its `mafia-tournament/1` file."""
    engine = create_engine(url)
    try:
        services = build_services(SqlUnitOfWorkFactory(create_session_factory(engine)))
        summary = await summarize(url)
        return {
            number: await services.exports.dump_tournament(number)
            for number, _ in summary.tournaments
        }
    finally:
        await engine.dispose()
