"""Smaller tournaments of a preset's own rules, for the end-to-end tests that play whole ones
through the bot: what they prove (a cut, a ranking of teams) needs a few games per stage, not
the preset's two days of them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from domain.presets import PRESETS_DIR


def smaller(preset: str, folder: Path, stages: dict[str, dict[str, Any]], **rules: Any) -> Path:
    """The preset's regulation with its `stages` changed (by stage id: `games_per_player`,
    `tables`, ...; its timetable keeps as many games of each stage) and `rules` changed,
    written to a file in `folder` for the organizer to upload."""
    regulation = json.loads((PRESETS_DIR / f"{preset}.json").read_text(encoding="utf-8"))
    regulation |= {"id": f"smaller-{preset}", **rules}
    by_id = {stage["id"]: stage for stage in regulation["stages"]}
    for stage_id, changes in stages.items():
        by_id[stage_id] |= changes
    for day in regulation.get("timetable", ()):
        planned: dict[str, int] = {}
        events = []
        for event in day["events"]:
            if event["kind"] == "game":
                planned[event["stage"]] = planned.get(event["stage"], 0) + 1
                if planned[event["stage"]] > by_id[event["stage"]]["games_per_player"]:
                    continue
            events.append(event)
        day["events"] = events
    path = folder / f"smaller-{preset}.json"
    path.write_text(json.dumps(regulation, ensure_ascii=False), encoding="utf-8")
    return path
