"""Consistent copies of a live database and their restoration.

SQLite: the online backup API (a file copy of a WAL database may miss what is still in the
`-wal` file, or catch a page half-written); the copy is a single self-contained SQLite file.
PostgreSQL: `pg_dump --format=custom` (one snapshot, so the bot may keep writing) and
`pg_restore` into an emptied schema. Each file says what it is in its first bytes, so
`restore` refuses a file of the other engine with one line instead of failing half-way.

A restore puts back the data, not who was running: the leases (the polling process, the
scheduler, the outbox workers) of the process the backup was taken beside are cleared, so the
next start does not wait for them to run out.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.engine import make_url

from bot.db.engine import SQLITE_BUSY_TIMEOUT_MS, create_engine, is_sqlite
from bot.db.migrate import current_revision

SQLITE_MAGIC = b"SQLite format 3\x00"
PG_DUMP_MAGIC = b"PGDMP"
LEASES_TABLE = "leases"
PG_CLIENT_HINT = (
    "install the PostgreSQL client tools (Debian/Ubuntu: apt-get install postgresql-client)"
)


class BackupError(Exception):
    """The backup or restore could not be made; the message is one line saying why."""


@dataclass(frozen=True)
class DatabaseSummary:
    """What a person checks after a restore: the schema revision and the tournaments."""

    revision: str | None
    tournaments: tuple[tuple[int, str], ...]

    def describe(self) -> str:
        """One line such as "revision 0008, 3 tournaments"."""
        count = len(self.tournaments)
        noun = "tournament" if count == 1 else "tournaments"
        return f"revision {self.revision or 'base (empty)'}, {count} {noun}"


async def summarize(url: str) -> DatabaseSummary:
    """The revision and the tournaments (number, title) of the database at `url`."""
    engine = create_engine(url)
    try:
        revision = await current_revision(engine)
        tournaments: tuple[tuple[int, str], ...] = ()
        if revision is not None:
            async with engine.connect() as connection:
                rows = await connection.execute(
                    text("SELECT id, title FROM tournaments ORDER BY id")
                )
                tournaments = tuple((row.id, row.title) for row in rows)
        return DatabaseSummary(revision, tournaments)
    finally:
        await engine.dispose()


async def backup(url: str, file: Path) -> None:
    """Write a consistent copy of the database at `url` to `file` (replaced atomically)."""
    file.parent.mkdir(parents=True, exist_ok=True)
    partial = file.with_name(file.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
        if is_sqlite(url):
            await asyncio.to_thread(_sqlite_backup, _sqlite_file(url, must_exist=True), partial)
        else:
            await _pg_tool("pg_dump", url, "--format=custom", f"--file={partial}")
        os.replace(partial, file)
    finally:
        partial.unlink(missing_ok=True)


async def restore(url: str, file: Path) -> None:
    """Replace the database at `url` by the copy in `file` (the bot must be stopped)."""
    kind = _backup_kind(file)
    if is_sqlite(url):
        if kind != "sqlite":
            raise BackupError(
                f"{file} is a PostgreSQL backup but DATABASE_URL is SQLite; "
                "restore it into PostgreSQL, or copy the data with `mafiatour copy-data`"
            )
        await asyncio.to_thread(_sqlite_restore, file, _sqlite_file(url, must_exist=False))
        return
    await _pg_restore(url, file, kind)


async def _pg_restore(url: str, file: Path, kind: str) -> None:
    if kind != "postgresql":
        raise BackupError(
            f"{file} is an SQLite backup but DATABASE_URL is PostgreSQL; "
            "to move its data use `mafiatour copy-data` (see README, Deploy)"
        )
    # A damaged file is found before anything is dropped.
    await _pg_tool("pg_restore", None, "--list", str(file))
    await _empty_postgres_schema(url)
    await _pg_tool(
        "pg_restore",
        url,
        "--no-owner",
        "--no-privileges",
        "--single-transaction",
        "--exit-on-error",
        str(file),
    )
    engine = create_engine(url)
    try:
        async with engine.begin() as connection:
            if await connection.scalar(text(f"SELECT to_regclass('{LEASES_TABLE}')")):
                await connection.execute(text(f"DELETE FROM {LEASES_TABLE}"))
    finally:
        await engine.dispose()


# --- SQLite ----------------------------------------------------------------------------------


def _sqlite_file(url: str, *, must_exist: bool) -> Path:
    database = make_url(url).database
    if not database or database == ":memory:":
        raise BackupError("an in-memory SQLite database has nothing to back up or restore")
    path = Path(database)
    if must_exist and not path.is_file():
        raise BackupError(f"no SQLite database at {path}")
    return path


def _connect(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(path, timeout=SQLITE_BUSY_TIMEOUT_MS / 1000)


def _sqlite_backup(source_path: Path, target_path: Path) -> None:
    with (
        contextlib.closing(_connect(source_path)) as source,
        contextlib.closing(_connect(target_path)) as target,
    ):
        # One step: a read snapshot of the WAL database, while the bot goes on writing.
        source.backup(target)
        # A single file that needs no `-wal` beside it.
        target.execute("PRAGMA journal_mode=DELETE")
        _check_integrity(target, target_path)


def _sqlite_restore(file: Path, target_path: Path) -> None:
    """Restore into a new file beside the database, then put it in the database's place: the
    database may be damaged (the very reason for a restore), so it is never opened."""
    target_path.parent.mkdir(parents=True, exist_ok=True)
    partial = target_path.with_name(target_path.name + ".restoring")
    _remove_sqlite_files(partial)
    try:
        with (
            contextlib.closing(_connect(file)) as source,
            contextlib.closing(_connect(partial)) as target,
        ):
            _check_integrity(source, file)
            source.backup(target)
            tables = {row[0] for row in target.execute("SELECT name FROM sqlite_master")}
            if LEASES_TABLE in tables:  # a backup of a schema before 0010 has none
                with target:
                    target.execute(f"DELETE FROM {LEASES_TABLE}")
            target.execute("PRAGMA journal_mode=WAL")
        # The old database's journal files would be replayed into the restored one.
        _remove_sqlite_files(target_path, keep_database=True)
        os.replace(partial, target_path)
    finally:
        _remove_sqlite_files(partial)


def _remove_sqlite_files(path: Path, *, keep_database: bool = False) -> None:
    for suffix in ("-wal", "-shm", "-journal"):
        path.with_name(path.name + suffix).unlink(missing_ok=True)
    if not keep_database:
        path.unlink(missing_ok=True)


def _check_integrity(connection: sqlite3.Connection, path: Path) -> None:
    verdict = connection.execute("PRAGMA integrity_check").fetchone()[0]
    if verdict != "ok":
        raise BackupError(f"{path} is damaged: {verdict}")


def _backup_kind(file: Path) -> str:
    try:
        with file.open("rb") as stream:
            head = stream.read(len(SQLITE_MAGIC))
    except OSError as error:
        raise BackupError(f"cannot read {file}: {error.strerror}") from None
    if head.startswith(SQLITE_MAGIC):
        return "sqlite"
    if head.startswith(PG_DUMP_MAGIC):
        return "postgresql"
    raise BackupError(f"{file} is not a backup written by `mafiatour backup`")


# --- PostgreSQL ------------------------------------------------------------------------------


def _libpq(url: str) -> tuple[str, dict[str, str]]:
    """The libpq connection URI of an asyncpg URL, and the environment carrying its password
    (so the password never shows in the process list)."""
    parsed = make_url(url)
    env = dict(os.environ)
    if parsed.password is not None:
        env["PGPASSWORD"] = str(parsed.password)
    uri = parsed.set(drivername="postgresql", password=None).render_as_string()
    return uri, env


async def _pg_tool(tool: str, url: str | None, *arguments: str) -> None:
    executable = shutil.which(tool)
    if executable is None:
        raise BackupError(f"{tool} is not installed; {PG_CLIENT_HINT}")
    env = dict(os.environ)
    if url is not None:
        uri, env = _libpq(url)
        arguments = (f"--dbname={uri}", *arguments)
    process = await asyncio.create_subprocess_exec(
        executable,
        *arguments,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
        env=env,
    )
    _, errors = await process.communicate()
    if process.returncode != 0:
        lines = [line for line in errors.decode(errors="replace").splitlines() if line.strip()]
        reason = lines[0] if lines else f"exit status {process.returncode}"
        raise BackupError(f"{tool} failed: {reason}")


async def _empty_postgres_schema(url: str) -> None:
    # Tables a newer schema added must go too, or the restored revision could not migrate.
    engine = create_engine(url)
    try:
        async with engine.begin() as connection:
            rows = await connection.execute(
                text("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
            )
            tables = [row.tablename for row in rows]
            if tables:
                names = ", ".join(f'"{name}"' for name in tables)
                await connection.execute(text(f"DROP TABLE {names} CASCADE"))
    finally:
        await engine.dispose()
