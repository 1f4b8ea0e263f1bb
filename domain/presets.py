"""The built-in regulations by id, apart from their model so that naming them (the command
line's help) does not load pydantic."""

from __future__ import annotations

from pathlib import Path

PRESETS_DIR = Path(__file__).parent / "presets"
PRESET_IDS: tuple[str, ...] = ("black-raven-cup", "siberia-ural-teams")
