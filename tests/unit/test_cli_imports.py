"""The command line starts fast: building its parser imports neither the bot nor its heavy
libraries, which each command imports only when it runs."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import fields

from bot.commands.simulate import default_arguments

HEAVY = ("aiogram", "aiohttp", "matplotlib", "sqlalchemy", "alembic", "numpy", "pydantic_settings")

PROBE = """
import json, sys
from bot.cli import build_parser
build_parser().parse_args(["version"])
print(json.dumps(sorted({name.split(".")[0] for name in sys.modules})))
"""


def test_building_the_parser_imports_no_heavy_library() -> None:
    # A fresh interpreter: this test process may have imported anything already.
    loaded = json.loads(
        subprocess.run(
            [sys.executable, "-c", PROBE], check=True, capture_output=True, text=True, timeout=120
        ).stdout
    )
    assert [name for name in HEAVY if name in loaded] == []


def test_mafiatour_version_prints_the_version() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot", "version"],
        check=True,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.stdout.startswith("mafiatour ")


def test_simulate_defaults_are_the_simulations_own() -> None:
    # The parser spells the defaults out (importing the simulation would load the whole bot).
    from harness.simulation import SimulationOptions

    arguments = vars(default_arguments())
    defaults = SimulationOptions()
    # Every option the command offers defaults to the simulation's own default.
    assert set(arguments) <= {f.name for f in fields(defaults)}
    assert arguments == {name: getattr(defaults, name) for name in arguments}
