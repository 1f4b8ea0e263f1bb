"""The Mini App's own copy of the game's rules (bot/web/miniapp/static/rules.js) makes the same
game as the Python rules (domain.game_log) of the same log: random games of both presets
replayed in both, every state compared, every refusal given by both with the same code.

The page applies each tap with that copy before the server sees it (offline first): a tap the
phone accepts and the server refuses would stop the judge's queue, so they must agree. Run with
node (Debian's nodejs, as the browser tests use Debian's Chromium); skipped where there is none.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from bot.web.miniapp.views import rules_of
from domain.cards import ROLE_COUNTS, Role
from domain.game_log import (
    Action,
    AllOrNobody,
    Ballot,
    CastVotes,
    Check,
    DealRoles,
    Disqualify,
    Finish,
    Foul,
    GameLogRefused,
    LiveGame,
    NameBestMove,
    Nominate,
    Phase,
    Proceed,
    Shoot,
    TechnicalFoul,
    Withdraw,
    action_to_dict,
    apply,
)
from domain.regulation import Regulation, load_preset

pytestmark = pytest.mark.unit
NODE = shutil.which("node") or shutil.which("nodejs")
RULES_JS = Path(__file__).parents[2] / "bot/web/miniapp/static/rules.js"
RUNNER = """
const Rules = require(process.argv[1]);
const input = JSON.parse(require("fs").readFileSync(0, "utf8"));
const out = input.games.map((game) => {
  let state = Rules.fresh();
  const states = [];
  const codes = [];
  for (const step of game.steps) {
    try {
      const next = Rules.apply(state, step.action, input.rules[game.regulation]);
      codes.push("ok");
      if (step.kept) { state = next; states.push(state); }
    } catch (error) {
      if (!(error instanceof Rules.Refused)) throw error;
      codes.push(error.code);
    }
  }
  return { states, codes };
});
process.stdout.write(JSON.stringify(out));
"""


def snapshot(game: LiveGame) -> dict[str, Any]:
    """The fields both rules keep, as JSON."""
    return {
        "phase": game.phase.value,
        "day": game.day,
        "night": game.night,
        "roles": [r.value if r else None for r in game.roles],
        "fouls": list(game.fouls),
        "technical": list(game.technical),
        "exits": [e.value if e else None for e in game.exits],
        "order": list(game.order),
        "position": game.position,
        "silent": game.silent,
        "silenced": sorted(game.silenced),
        "nominations": [[n.by, n.target] for n in game.nominations],
        "no_vote": game.no_vote,
        "candidates": list(game.candidates),
        "leaving": list(game.leaving),
        "shot": game.shot,
        "misses_in_row": game.misses_in_row,
        "first_killed": game.first_killed,
        "first_killed_night": game.first_killed_night,
        "best_move": list(game.best_move) if game.best_move is not None else None,
        "checks": [[c.night, c.by.value, c.seat] for c in game.checks],
        "detected": game.detected.value if game.detected else None,
        "winner": game.winner.value if game.winner else None,
        "end": game.end.value if game.end else None,
    }


def js_snapshot(state: dict[str, Any]) -> dict[str, Any]:
    keys = snapshot(LiveGame()).keys()
    shown = {key: state[key] for key in keys}
    shown["silenced"] = sorted(state["silenced"])
    shown["nominations"] = [[n["by"], n["target"]] for n in state["nominations"]]
    shown["checks"] = [[c["night"], c["by"], c["seat"]] for c in state["checks"]]
    return shown


def _deal(rng: random.Random) -> DealRoles:
    roles = [role for role, count in ROLE_COUNTS.items() for _ in range(count)]
    rng.shuffle(roles)
    return DealRoles(tuple(roles))


def _votes(rng: random.Random, game: LiveGame, regulation: Regulation) -> CastVotes:
    players = list(game.in_play)
    cast = [Ballot(voter, rng.choice(game.candidates)) for voter in players]
    counts = tuple(sum(1 for b in cast if b.target == c) for c in game.candidates)
    if rng.random() < 0.1:
        counts = (*counts[:-1], counts[-1] + 1)  # a wrong total
    ballots = tuple(cast) if regulation.game.record_ballots else None
    if rng.random() < 0.05:
        ballots = None if ballots else tuple(cast)
    return CastVotes(counts, ballots)


def _tap(rng: random.Random, game: LiveGame, regulation: Regulation) -> Action:
    """A tap a judge could make (mostly one the rules allow now, sometimes not)."""
    seat = rng.randint(0, 11) if rng.random() < 0.05 else rng.randint(1, 10)
    roll = rng.random()
    if roll < 0.04:
        return Foul(seat)
    if roll < 0.06:
        return TechnicalFoul(seat)
    if roll < 0.065:
        return Disqualify(seat)
    if roll < 0.08:
        return rng.choice([Proceed(), Nominate(seat, rng.randint(1, 10)), Shoot(seat)])
    phase = game.phase
    if phase is Phase.SPEECHES:
        if rng.random() < 0.25 and game.speaker is not None:
            return Nominate(game.speaker, seat)
        if rng.random() < 0.05 and game.speaker is not None:
            return Withdraw(game.speaker)
        return Proceed()
    if phase in (Phase.VOTING, Phase.REVOTE):
        return _votes(rng, game, regulation)
    if phase is Phase.ALL_OR_NOBODY:
        return AllOrNobody(rng.randint(0, len(game.in_play)))
    if phase is Phase.SHOT:
        return Shoot(None if rng.random() < 0.3 else seat)
    if phase in (Phase.DON_CHECK, Phase.SHERIFF_CHECK):
        return Check(seat) if rng.random() < 0.7 else Proceed()
    if phase is Phase.BEST_MOVE:
        return NameBestMove(tuple(rng.sample(range(1, 11), 3))) if rng.random() < 0.5 else Proceed()
    if phase is Phase.END_DETECTED and game.detected is not None:
        winner = game.detected.winner
        assert winner is not None
        return Finish(winner, game.detected, "")
    return Proceed()


def _steps(rng: random.Random, regulation: Regulation) -> list[dict[str, Any]]:
    game = LiveGame()
    steps: list[dict[str, Any]] = []
    first = _deal(rng) if rng.random() < 0.85 else DealRoles((Role.DON, *(None,) * 9))
    while len(steps) < 400 and game.phase is not Phase.FINISHED:
        action = _tap(rng, game, regulation) if steps else first
        try:
            game = apply(game, action, regulation)
            code, kept = "ok", True
        except GameLogRefused as refusal:
            code, kept = refusal.code, False
        state = snapshot(game) if kept else None
        steps.append({"action": action_to_dict(action), "code": code, "kept": kept, "state": state})
    return steps


def _regulations() -> dict[str, Regulation]:
    cup = load_preset("black-raven-cup")
    teams = load_preset("siberia-ural-teams")
    ballots = cup.model_copy(update={"game": cup.game.model_copy(update={"record_ballots": True})})
    return {"cup": cup, "teams": teams, "ballots": ballots}


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_the_pages_rules_make_the_same_games_as_the_servers() -> None:
    regulations = _regulations()
    games = []
    for seed in range(60):
        name = list(regulations)[seed % len(regulations)]
        games.append({"regulation": name, "steps": _steps(random.Random(seed), regulations[name])})
    payload = {"rules": {n: rules_of(r) for n, r in regulations.items()}, "games": games}
    assert NODE is not None
    done = subprocess.run(
        [NODE, "-e", RUNNER, str(RULES_JS)],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)
    phases: set[str] = set()
    for game, result in zip(games, results, strict=True):
        steps = game["steps"]
        # The refusals the protocol's rules engine gives stay the server's (see rules.js).
        expected = [s["code"] if not _servers_only(s["code"]) else "ok" for s in steps]
        pairs = zip(result["codes"], steps, strict=True)
        codes = [c if not _servers_only(e["code"]) else "ok" for c, e in pairs]
        assert codes == expected, game["regulation"]
        kept = [s["state"] for s in steps if s["kept"]]
        assert [js_snapshot(s) for s in result["states"]] == kept
        phases.update(s["phase"] for s in kept)
    # The random games went through every phase of the game.
    assert phases == {phase.value for phase in Phase}


def _servers_only(code: str) -> bool:
    return code.startswith("protocol-") and code != "protocol-role-count"
