"""`mafiatour backup` while the bot writes, `mafiatour restore`, on SQLite and PostgreSQL.

The backup runs as its own process, as it does beside a running bot, while this test keeps
committing new tournaments; the restored copy must hold whole tournaments only (each exports
exactly as in the original), every tournament committed before the backup started, migrate
cleanly, and show the same tournaments in `restore`'s summary.
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.db.backup import BackupError, backup, restore, summarize
from bot.db.engine import create_engine, create_session_factory
from bot.db.migrate import upgrade
from bot.db.uow import SqlUnitOfWorkFactory
from tests.conftest import _drop_postgres_database, make_database_url
from tests.operations import add_cup_tournament, exports, mafiatour, remember_owner


@pytest.fixture
async def second_database(database_url: str, tmp_path: Path) -> AsyncIterator[str]:
    """Another empty database of the same kind, to restore into."""
    kind = "sqlite" if database_url.startswith("sqlite") else "postgresql"
    folder = tmp_path / "restored"
    folder.mkdir()
    url = await make_database_url(kind, folder)
    yield url
    if kind == "postgresql":
        await _drop_postgres_database(url)


async def test_a_backup_taken_while_the_bot_writes_restores_the_same_tournaments(
    database_url: str,
    uow_factory: SqlUnitOfWorkFactory,
    second_database: str,
    tmp_path: Path,
) -> None:
    await remember_owner(uow_factory)
    before = [await add_cup_tournament(uow_factory, f"before {n}") for n in range(2)]
    file = tmp_path / "mafiatour.backup"
    backing_up = asyncio.create_task(mafiatour(database_url, "backup", str(file)))
    written_during = 0
    while not backing_up.done():  # the bot goes on committing while the copy is taken
        await add_cup_tournament(uow_factory, f"during {written_during}")
        written_during += 1
    status, out, err = await backing_up
    assert (status, err) == (0, "")
    assert out.startswith(f"backup written to {file}")
    assert written_during >= 1

    status, out, err = await mafiatour(second_database, "restore", str(file))
    assert (status, err) == (0, "")
    status, migrated, err = await mafiatour(second_database, "migrate")
    assert (status, err) == (0, "")
    assert migrated.startswith("database at revision ")

    original, restored = await exports(database_url), await exports(second_database)
    assert set(before) <= set(restored)
    assert set(restored) <= set(original)
    # Whole tournaments only, each exactly as the original holds it.
    for number, exported in restored.items():
        assert exported == original[number]
    count = len(restored)
    assert out.startswith(f"restored {file}: revision ")
    assert out.endswith(f", {count} tournaments")


async def test_restore_puts_back_exactly_what_was_backed_up(
    database_url: str, uow_factory: SqlUnitOfWorkFactory, tmp_path: Path
) -> None:
    await remember_owner(uow_factory)
    kept = await add_cup_tournament(uow_factory, "Кубок")
    file = tmp_path / "before-upgrade.backup"
    await backup(database_url, file)
    await add_cup_tournament(uow_factory, "after the backup")

    await restore(database_url, file)

    summary = await summarize(database_url)
    assert summary.tournaments == ((kept, "Кубок"),)
    status, _, err = await mafiatour(database_url, "migrate")
    assert (status, err) == (0, "")


async def test_an_sqlite_backup_is_one_self_contained_file(tmp_path: Path) -> None:
    database_url = await make_database_url("sqlite", tmp_path)
    engine = create_engine(database_url)
    await upgrade(engine)  # the bot's database: WAL mode
    await engine.dispose()
    file = tmp_path / "copy.sqlite3"
    await backup(database_url, file)
    assert not file.with_name(file.name + "-wal").exists()
    with sqlite3.connect(file) as copy:
        assert copy.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


async def test_a_backup_of_the_other_engine_is_refused_with_one_line(
    database_url: str, uow_factory: SqlUnitOfWorkFactory, tmp_path: Path
) -> None:
    file = tmp_path / "other.backup"
    if database_url.startswith("sqlite"):
        file.write_bytes(b"PGDMP\x01\x0e\x00")
        expected = "is a PostgreSQL backup but DATABASE_URL is SQLite"
    else:
        with sqlite3.connect(file) as other:
            other.execute("CREATE TABLE t (x)")
        expected = "is an SQLite backup but DATABASE_URL is PostgreSQL"
    with pytest.raises(BackupError, match=expected):
        await restore(database_url, file)
    nonsense = tmp_path / "notes.txt"
    nonsense.write_text("hello", encoding="utf-8")
    with pytest.raises(BackupError, match="is not a backup written by `mafiatour backup`"):
        await restore(database_url, nonsense)
    # Nothing was touched: the database still migrates and answers.
    assert (await summarize(database_url)).revision is not None


async def test_missing_postgresql_tools_are_named_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no pg_dump anywhere
    url = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
    with pytest.raises(BackupError) as refused:
        await backup(url, tmp_path / "x.backup")
    message = str(refused.value)
    assert message.startswith("pg_dump is not installed; install the PostgreSQL client tools")
    assert "\n" not in message
    assert not (tmp_path / "x.backup").exists()


async def test_a_damaged_sqlite_database_is_restored_in_place(tmp_path: Path) -> None:
    """Random bytes over the first 8 KB of the database: exactly when a restore is needed."""
    database_url = await make_database_url("sqlite", tmp_path)
    engine = create_engine(database_url)
    try:
        await upgrade(engine)
        uow_factory = SqlUnitOfWorkFactory(create_session_factory(engine))
        await remember_owner(uow_factory)
        kept = await add_cup_tournament(uow_factory, "Кубок")
    finally:
        await engine.dispose()
    file = tmp_path / "nightly.backup"
    assert (await mafiatour(database_url, "backup", str(file)))[0] == 0
    database = Path(database_url.removeprefix("sqlite+aiosqlite:///"))
    with database.open("r+b") as damaged:
        damaged.write(random.Random(32).randbytes(8192))

    status, out, err = await mafiatour(database_url, "restore", str(file))

    assert (status, err) == (0, "")
    summary = await summarize(database_url)
    assert out == f"restored {file}: revision {summary.revision}, 1 tournament"
    assert summary.tournaments == ((kept, "Кубок"),)
    assert not database.with_name(database.name + ".restoring").exists()


async def test_a_restored_live_backup_carries_no_lease_of_the_process_it_was_taken_beside(
    database_url: str, uow_factory: SqlUnitOfWorkFactory, tmp_path: Path
) -> None:
    # The bot running on another machine, say: its leases cannot be seen to have died.
    async with uow_factory() as uow:
        assert await uow.leases.take("polling", "elsewhere:1:abc", datetime.now(UTC), 30.0)
        await uow.commit()
    file = tmp_path / "live.backup"
    await backup(database_url, file)

    await restore(database_url, file)

    engine = create_engine(database_url)  # the next start's, on the restored database
    try:
        async with SqlUnitOfWorkFactory(create_session_factory(engine))() as uow:
            assert await uow.leases.holder("polling", datetime.now(UTC)) is None
            assert await uow.leases.take("polling", "here:2:def", datetime.now(UTC), 30.0)
    finally:
        await engine.dispose()
