"""One name and one type for each id: the database numbers a participant or a team (an `int`
named `participant_id`, `team_id`), the pure rules name him by a text `PlayerKey`, and
`domain/player_keys.py` is the only crossing between the two. So no code elsewhere calls
`int()` on a player key, and no player or team in `domain/` is typed a bare `str` (it is a
`PlayerKey`, or an `int` id)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("bot", "domain", "handlers", "harness")
CROSSING = ROOT / "domain" / "player_keys.py"
# How code names a player or a team, alone or many, as a key or an id.
PLAYER_NAMES = re.compile(r"^(player|participant|team)s?(_ids?|_keys?)?$")
# A bare name of a player's key (not an id: `int(participant_id)` converts nothing).
KEY_NAMES = re.compile(r"^(player|team)s?(_keys?)?$")


def _annotated(tree: ast.AST) -> list[tuple[str, ast.expr, int]]:
    """Each parameter and annotated name in a module: its name, annotation and line."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            arguments = node.args
            for arg in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs):
                if arg.annotation is not None:
                    found.append((arg.arg, arg.annotation, arg.lineno))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            found.append((node.target.id, node.annotation, node.lineno))
    return found


def _names_in(annotation: ast.expr) -> set[str]:
    return {node.id for node in ast.walk(annotation) if isinstance(node, ast.Name)}


def _key_fields(files: list[Path]) -> set[str]:
    """The names the rules give a `PlayerKey` (`Seat.player`, `PlayerEntry.id`, ...)."""
    return {
        name
        for path in files
        for name, annotation, _ in _annotated(ast.parse(path.read_text(encoding="utf-8")))
        if _names_in(annotation) == {"PlayerKey"}
    }


def _key_conversions(path: Path, key_fields: set[str]) -> list[str]:
    """Each `int()` of a player key in a file: of a field the rules type `PlayerKey`, of a
    parameter so typed, or of a variable named as a player's key."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typed_keys = {
        name for name, annotation, _ in _annotated(tree) if "PlayerKey" in _names_in(annotation)
    }
    found = []
    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "int"
            and len(node.args) == 1
        ):
            continue
        argument = node.args[0]
        if (isinstance(argument, ast.Attribute) and argument.attr in key_fields) or (
            isinstance(argument, ast.Name)
            and (argument.id in typed_keys or KEY_NAMES.match(argument.id))
        ):
            found.append(f"{path.name}:{node.lineno} {ast.unparse(node)}")
    return found


def _players_typed_text(path: Path) -> list[str]:
    """Each player or team (by name) a file types with a bare `str`."""
    return [
        f"{path.name}:{line} {name}: {ast.unparse(annotation)}"
        for name, annotation, line in _annotated(ast.parse(path.read_text(encoding="utf-8")))
        if PLAYER_NAMES.match(name) and "str" in _names_in(annotation)
    ]


def _files(*packages: str) -> list[Path]:
    return sorted(path for package in packages for path in (ROOT / package).rglob("*.py"))


def test_only_the_crossing_turns_a_player_key_into_an_id() -> None:
    key_fields = _key_fields(_files("domain"))
    # The rules do name their keys (else the check below would look for nothing).
    assert {"player", "id", "team"} <= key_fields
    found = [
        problem
        for path in _files(*PACKAGES)
        if path != CROSSING
        for problem in _key_conversions(path, key_fields)
    ]
    assert found == []
    # The crossing itself is seen converting, so the check reads real code.
    assert _key_conversions(CROSSING, key_fields) != []


def test_no_player_in_the_rules_is_typed_a_bare_text() -> None:
    files = _files("domain")
    assert [problem for path in files for problem in _players_typed_text(path)] == []
    # Players are named and typed in the rules (the check is not looking at nothing).
    typed = [
        name
        for path in files
        for name, annotation, _ in _annotated(ast.parse(path.read_text(encoding="utf-8")))
        if PLAYER_NAMES.match(name) and _names_in(annotation) & {"PlayerKey", "int"}
    ]
    assert len(typed) > 20


def test_the_id_checks_see_a_key_turned_into_an_id_and_a_player_typed_text(
    tmp_path: Path,
) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "def scores(protocol, key: PlayerKey, participant_id: int, text: str):\n"
        "    by_id = {int(s.player): s for s in protocol}\n"
        "    return int(key), int(player), int(participant_id), int(text), by_id\n"
        "\n"
        "def seat(player: str | None, team_ids: set[str], players: tuple[PlayerKey, ...]):\n"
        "    participant_id: int = 1\n"
        "    return participant_id\n"
    )
    assert _key_conversions(sample, {"player"}) == [
        "sample.py:2 int(s.player)",
        "sample.py:3 int(key)",
        "sample.py:3 int(player)",
    ]
    assert _players_typed_text(sample) == [
        "sample.py:5 player: str | None",
        "sample.py:5 team_ids: set[str]",
    ]
