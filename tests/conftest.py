"""Databases for the tests: a fresh SQLite file, and a fresh PostgreSQL database per test; the
layers' markers; skips failing on CI.

PostgreSQL is the one these machines run on 127.0.0.1:5432 (`.ci/run` starts it if needed);
`MAFIATOUR_TEST_POSTGRES_URL` points the tests elsewhere.

Migrating a database through every revision costs far more than copying one: each test process
migrates one template per kind once (`DatabaseTemplates`), and `engine` starts from a copy of
it (SQLite: the file copied; PostgreSQL: `CREATE DATABASE ... TEMPLATE`). `database_url` is
empty unless the test uses `engine`, for the tests that migrate for real (the stairway,
`mafiatour migrate`, a bot starting on an empty database).
"""

from __future__ import annotations

import asyncio
import gc
import os
import shutil
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncpg
import pytest
from hypothesis import settings
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.db.engine import create_engine, create_session_factory
from bot.db.migrate import upgrade
from bot.db.uow import SqlUnitOfWorkFactory
from domain.services.catalog import Services, build_services
from harness.sandbox import shared_pictures
from tests.examples import FULL, QUICK

# Opt-in: each test's wall and CPU time to a file (`MAFIATOUR_TEST_TIMES`, tests/timing.py).
from tests.timing import pytest_runtest_protocol  # noqa: F401

POSTGRES_URL = os.environ.get(
    "MAFIATOUR_TEST_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
)
DATABASES = ("sqlite", "postgresql")
SQLITE_FILE = "mafiatour.sqlite3"
# Each test layer is its folder under tests/; `-m unit` (or integration, e2e, browser) runs one.
LAYERS = ("unit", "integration", "e2e", "browser")

# Property tests try every example in `make test` and a quarter of them in the quick lane
# (`make check`: `--hypothesis-profile=quick`); see tests/examples.py.
settings.register_profile("full", max_examples=FULL)
settings.register_profile("quick", max_examples=QUICK)


def _asyncpg_dsn(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


async def _admin(statement: str) -> None:
    connection = await asyncpg.connect(_asyncpg_dsn(POSTGRES_URL))
    try:
        await connection.execute(statement)
    finally:
        await connection.close()


def _postgres_url(name: str) -> str:
    return make_url(POSTGRES_URL).set(database=name).render_as_string(hide_password=False)


async def _fresh_postgres_database(template: str | None = None) -> str:
    name = f"mt_{uuid.uuid4().hex[:12]}"
    await _admin(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else ""))
    return _postgres_url(name)


async def _drop_postgres_database(url: str) -> None:
    await _admin(f'DROP DATABASE IF EXISTS "{make_url(url).database}" WITH (FORCE)')


async def make_database_url(kind: str, folder: Path) -> str:
    """An empty database of `kind` ("sqlite" or "postgresql")."""
    if kind == "sqlite":
        return f"sqlite+aiosqlite:///{folder / SQLITE_FILE}"
    return await _fresh_postgres_database()


def sqlite_path(url: str) -> Path:
    """The file of an SQLite URL."""
    database = make_url(url).database
    assert database, f"not an SQLite file: {url}"
    return Path(database)


async def _migrate(url: str) -> None:
    engine = create_engine(url)
    try:
        await upgrade(engine)
    finally:
        # Closing the last connection folds SQLite's write-ahead log into the file, and
        # PostgreSQL copies a template only while nobody is connected to it.
        await engine.dispose()


class DatabaseTemplates:
    """A database of each kind migrated to the newest schema, once per test process, made on
    first use, and copies of them."""

    def __init__(self, folder: Path) -> None:
        self._folder = folder
        self._sqlite: Path | None = None
        self._postgres: str | None = None

    async def migrated(self, kind: str, folder: Path, name: str = SQLITE_FILE) -> str:
        """The URL of a new database of `kind` at the newest schema (SQLite: the file `name`
        in `folder`)."""
        if kind == "sqlite":
            url = f"sqlite+aiosqlite:///{folder / name}"
            shutil.copyfile(await self._sqlite_template(), sqlite_path(url))
            return url
        return await _fresh_postgres_database(template=await self._postgres_template())

    async def _sqlite_template(self) -> Path:
        if self._sqlite is None:
            path = self._folder / SQLITE_FILE
            await _migrate(f"sqlite+aiosqlite:///{path}")
            self._sqlite = path
        return self._sqlite

    async def _postgres_template(self) -> str:
        if self._postgres is None:
            url = await _fresh_postgres_database()
            await _migrate(url)
            self._postgres = url
        return make_url(self._postgres).database or ""

    def drop(self) -> None:
        if self._postgres is not None:
            asyncio.run(_drop_postgres_database(self._postgres))


@pytest.fixture(scope="session")
def database_templates(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DatabaseTemplates]:
    templates = DatabaseTemplates(tmp_path_factory.mktemp("templates"))
    yield templates
    templates.drop()


@pytest.fixture(scope="session", autouse=True)
def picture_worker() -> Iterator[None]:
    """The sandbox's bots of a test process draw their pictures in one worker process
    (`harness.sandbox.shared_pictures`), started by the first picture: a worker of each bot's
    own would start a fresh interpreter importing matplotlib for every test that draws."""
    with shared_pictures():
        yield


@pytest.fixture(params=DATABASES)
async def database_url(
    request: pytest.FixtureRequest, tmp_path: Path, database_templates: DatabaseTemplates
) -> AsyncIterator[str]:
    """The URL of a database, once for SQLite and once for PostgreSQL: empty, or at the newest
    schema when the test uses `engine` (which is on it)."""
    if "engine" in request.fixturenames:
        url = await database_templates.migrated(request.param, tmp_path)
    else:
        url = await make_database_url(request.param, tmp_path)
    yield url
    if request.param == "postgresql":
        await _drop_postgres_database(url)


@pytest.fixture
async def engine(database_url: str) -> AsyncIterator[AsyncEngine]:
    """An engine on the database of `database_url`, at the newest schema."""
    engine = create_engine(database_url)
    yield engine
    await engine.dispose()


@pytest.fixture
def uow_factory(engine: AsyncEngine) -> SqlUnitOfWorkFactory:
    return SqlUnitOfWorkFactory(create_session_factory(engine))


@pytest.fixture
def services(uow_factory: SqlUnitOfWorkFactory) -> Services:
    """The use cases over the test's database, built as the composition root builds them."""
    return build_services(uow_factory)


@pytest.fixture
async def migrated_sqlite_url(tmp_path: Path, database_templates: DatabaseTemplates) -> str:
    """The URL of an SQLite file in `tmp_path` at the newest schema (a bot starting on it has
    nothing to migrate)."""
    return await database_templates.migrated("sqlite", tmp_path)


# Telegram lets a bot send a person one message a second, and the bot keeps that pace: an
# end-to-end test would mostly wait for it. Their bots keep limits a hundred times as wide
# (the DELIVERY_* settings, which every bot of the test reads from the environment), except in
# the tests marked `telegram_pace`, which keep Telegram's own against a fake Telegram enforcing
# them.
FAST_PACE = {
    "DELIVERY_MESSAGES_PER_SECOND": "3000",
    "DELIVERY_PRIVATE_CHAT_PER_SECOND": "100",
    "DELIVERY_GROUP_PER_MINUTE": "2000",
}


@pytest.fixture(autouse=True)
def fast_telegram_pace(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    node = request.node
    end_to_end = node.get_closest_marker("e2e") or node.get_closest_marker("browser")
    if end_to_end and not node.get_closest_marker("telegram_pace"):
        for name, value in FAST_PACE.items():
            monkeypatch.setenv(name, value)


# Whole tournaments played through the bot, minutes each, bot processes waiting out a lease
# (about a minute each): they start first, so that the two test processes of `make test` end
# together instead of one playing a cup alone at the end.
LONGEST = (
    "e2e/test_simulate.py",
    "e2e/test_replicas.py",
    "e2e/test_run_command.py",
    "e2e/test_metered_replica.py",
    "e2e/test_simulate_lot.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Each test gets its layer's marker (its folder), and `postgresql` when it runs there;
    the longest run first."""
    tests = Path(__file__).parent
    items.sort(key=lambda item: item.path.relative_to(tests).as_posix() not in LONGEST)
    for item in items:
        layer = item.path.relative_to(tests).parts[0]
        if layer in LAYERS:
            item.add_marker(layer)
        callspec = getattr(item, "callspec", None)
        if callspec is not None and callspec.params.get("database_url") == "postgresql":
            item.add_marker("postgresql")


def pytest_collection_finish(session: pytest.Session) -> None:
    """The test modules and everything they import live as long as the test process: frozen
    out of the garbage collector's sight (`gc.freeze`, as the bot does after start-up,
    `bot.app.heap`), the collections during the tests walk only what the tests made."""
    gc.collect()
    gc.freeze()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):  # type: ignore[no-untyped-def]
    """On CI (`CI=true`) a skipped test fails: the PostgreSQL and Redis tests must run there,
    never be skipped for a missing server."""
    outcome = yield
    report = outcome.get_result()
    if (
        os.environ.get("CI", "").lower() in ("true", "1")
        and report.skipped
        and not hasattr(report, "wasxfail")
    ):
        report.outcome = "failed"
        report.longrepr = f"skipped on CI, where every test must run: {report.longrepr}"
