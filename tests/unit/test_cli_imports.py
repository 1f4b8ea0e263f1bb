"""The command line starts fast: building its parser imports neither the bot nor its heavy
libraries, which each command imports only when it runs; the commands on the database alone
(migrate, backup, restore, copy-data) never import aiogram (2.5 s of CPU). The bot itself
holds neither numpy nor matplotlib while it idles: the seating's search imports numpy when it
first seats a stage, and the pictures are drawn in a process of their own."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import fields

from bot.commands.simulate import default_arguments

HEAVY = ("aiogram", "aiohttp", "matplotlib", "sqlalchemy", "alembic", "numpy", "pydantic_settings")

LOADED = "print(json.dumps(sorted({name.split('.')[0] for name in sys.modules})))"
PROBE = f"""
import json, sys
from bot.cli import build_parser
build_parser().parse_args(["version"])
{LOADED}
"""
STORAGE_PROBE = f"""
import json, sys
import bot.db.backup, bot.db.copy, bot.db.migrate, bot.db.models
{LOADED}
"""
BOT_PROBE = f"""
import json, sys
import bot.app
{LOADED}
"""


def loaded_by(probe: str) -> list[str]:
    """The top-level packages a fresh interpreter holds after `probe` (this test process may
    have imported anything already)."""
    done = subprocess.run(
        [sys.executable, "-c", probe], check=True, capture_output=True, text=True, timeout=120
    )
    return list(json.loads(done.stdout))


def test_building_the_parser_imports_no_heavy_library() -> None:
    loaded = loaded_by(PROBE)
    assert [name for name in HEAVY if name in loaded] == []


def test_the_database_s_commands_import_no_telegram_library() -> None:
    loaded = loaded_by(STORAGE_PROBE)
    assert "sqlalchemy" in loaded
    assert [name for name in ("aiogram", "aiohttp", "matplotlib") if name in loaded] == []


def test_the_bot_s_application_imports_neither_numpy_nor_matplotlib() -> None:
    loaded = loaded_by(BOT_PROBE)
    assert "aiogram" in loaded
    assert [name for name in ("numpy", "matplotlib") if name in loaded] == []


def test_mafiatour_version_prints_the_version() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot", "version"],
        check=True,
        capture_output=True,
        text=True,
        timeout=120,
    )
    from bot import __version__
    from bot.db.migrate import revisions

    assert done.stdout == f"mafiatour {__version__} (database schema revision {revisions()[-1]})\n"


def test_simulate_defaults_are_the_simulations_own() -> None:
    # The parser spells the defaults out (importing the simulation would load the whole bot).
    from harness.simulation import SimulationOptions

    arguments = vars(default_arguments())
    defaults = SimulationOptions()
    # Every option the command offers defaults to the simulation's own default.
    assert set(arguments) <= {f.name for f in fields(defaults)}
    assert arguments == {name: getattr(defaults, name) for name in arguments}


def test_the_changelog_s_newest_entry_is_this_version_and_its_schema() -> None:
    from pathlib import Path

    from bot import __version__
    from bot.db.migrate import revisions

    changelog = (Path(__file__).parents[2] / "CHANGELOG.md").read_text(encoding="utf-8")
    entries = changelog.split("\n## ")[1:]
    # The lines waiting for the next release come first, under "Unreleased".
    newest = entries[1] if entries[0].startswith("Unreleased\n") else entries[0]
    assert newest.startswith(f"{__version__}\n")
    assert f"Database schema revision {revisions()[-1]}" in newest
