"""Seatings' seeds come from the Dispatcher's seed source: handlers never draw at random on
their own, and a seeded source gives the same seeds again."""

from __future__ import annotations

import ast
from pathlib import Path

from bot.seeds import SEED_LIMIT, SeededSeeds, SystemSeeds

HANDLERS = Path(__file__).resolve().parents[2] / "handlers"
RANDOM_MODULES = {"random", "secrets"}


def _random_imports(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            names = []
        found += [f"{path.name}:{node.lineno} imports {n}" for n in names if n in RANDOM_MODULES]
    return found


def test_handlers_draw_seeds_only_from_the_injected_source() -> None:
    files = sorted(HANDLERS.glob("*.py"))
    assert len(files) > 10
    assert [v for path in files for v in _random_imports(path)] == []


def test_the_check_sees_a_random_draw(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("import secrets\nfrom random import randrange\n")
    assert len(_random_imports(sample)) == 2


def test_a_seeded_source_repeats_its_seeds_and_another_seed_differs() -> None:
    first, again, other = SeededSeeds("seating:1"), SeededSeeds("seating:1"), SeededSeeds(2)
    drawn = [first.draw() for _ in range(5)]
    assert drawn == [again.draw() for _ in range(5)]
    assert drawn != [other.draw() for _ in range(5)]
    assert all(0 <= seed < SEED_LIMIT for seed in drawn)


def test_the_system_source_draws_seeds_the_organizer_can_read_back() -> None:
    seeds = SystemSeeds()
    assert all(0 <= seeds.draw() < SEED_LIMIT for _ in range(100))
