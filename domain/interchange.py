"""The `mafia-tournament/1` JSON format: how tournaments are exported, imported and archived.

`parse_tournament` checks a decoded document and reports every problem with the game, the seat
and the rule it breaks; `dump_tournament` writes a tournament back in the same format.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import Any, Literal

from domain.cards import Role, Side
from domain.game_end import GameEnd
from domain.game_log import Entry, GameLogRefused, entry_from_dict, entry_to_dict, replay
from domain.player_keys import PlayerKey
from domain.protocol import Protocol, Removal, SeatRecord, validate_protocol
from domain.regulation import (
    MAX_NESTING,
    Regulation,
    RegulationError,
    load_preset,
    nesting_depth,
    parse_regulation,
)
from domain.standings import GameRecord, PlayerEntry, TeamEntry

FORMAT = "mafia-tournament/1"


@dataclass(frozen=True)
class Tournament:
    """A whole tournament: its regulation, players, teams and played games."""

    regulation: Regulation
    # The preset id the file named, so a dump names it again; None for an embedded regulation.
    preset: str | None
    players: tuple[PlayerEntry, ...]
    teams: tuple[TeamEntry, ...]
    games: tuple[GameRecord, ...]
    # The live games' logs (the judge ran them in the Mini App), by (stage, round, table);
    # optional in the file: games without one read as before.
    logs: Mapping[tuple[str, int, int], tuple[Entry, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class InterchangeProblem:
    """One problem of a file: where it is (game, seat) and the rule it breaks."""

    where: str
    rule: str
    game: int | None = None
    seat: int | None = None

    def __str__(self) -> str:
        return f"{self.where}: {self.rule}"


class InterchangeError(ValueError):
    """A file that is not a valid tournament; `.problems` lists every problem found."""

    def __init__(self, problems: list[InterchangeProblem]) -> None:
        self.problems = problems
        super().__init__("\n".join(map(str, problems)))


class _Problems(list[InterchangeProblem]):
    def add(self, where: str, rule: str, game: int | None = None, seat: int | None = None) -> None:
        self.append(InterchangeProblem(where, rule, game, seat))


def load_tournament(text: str) -> Tournament:
    """A tournament from the text of a `mafia-tournament/1` file (numbers read as Decimal)."""
    if nesting_depth(text) > MAX_NESTING:
        raise InterchangeError([InterchangeProblem("file", f"nested over {MAX_NESTING} levels")])
    try:
        data = json.loads(text, parse_float=Decimal)
    except json.JSONDecodeError as error:
        where = f"line {error.lineno}, column {error.colno}"
        raise InterchangeError([InterchangeProblem(where, f"not JSON: {error.msg}")]) from None
    return parse_tournament(data)


def parse_tournament(data: object) -> Tournament:
    """A tournament from a decoded document; raises `InterchangeError` listing every problem."""
    problems = _Problems()
    if not isinstance(data, Mapping):
        problems.add("file", "expected a JSON object")
        raise InterchangeError(problems)
    if data.get("format") != FORMAT:
        problems.add("format", f"expected {FORMAT!r}, got {data.get('format')!r}")
    regulation, preset = _regulation(data.get("regulation"), problems)
    teams = _teams(data.get("teams"), regulation, problems)
    players = _players(data.get("players"), {team.id for team in teams}, regulation, problems)
    games: list[GameRecord] = []
    logs: dict[tuple[str, int, int], tuple[Entry, ...]] = {}
    if regulation is not None:
        games = _games(data.get("games"), regulation, {p.id for p in players}, problems, logs)
    if problems or regulation is None:
        raise InterchangeError(problems)
    return Tournament(regulation, preset, tuple(players), tuple(teams), tuple(games), logs)


def _regulation(value: object, problems: _Problems) -> tuple[Regulation | None, str | None]:
    try:
        if isinstance(value, str):
            return load_preset(value), value
        if isinstance(value, Mapping):
            return parse_regulation(value), None
        problems.add("regulation", "expected a preset id or a regulation object")
    except RegulationError as error:
        for path, reason in error.problems:
            where = "regulation" if path == "regulation" else f"regulation.{path}"
            problems.add(where, reason)
    return None, None


def _records(value: object, where: str, problems: _Problems) -> list[Mapping[str, Any]]:
    if value is None:
        return []
    if not isinstance(value, list):
        problems.add(where, "expected a list")
        return []
    records = []
    for index, item in enumerate(value, start=1):
        if isinstance(item, Mapping):
            records.append(item)
        else:
            problems.add(f"{where} {index}", "expected an object")
    return records


def _text(record: Mapping[str, Any], key: str, where: str, problems: _Problems) -> str:
    value = record.get(key)
    if not isinstance(value, str) or not value.strip():
        problems.add(where, f"{key!r} must be a non-empty string")
        return ""
    return value


def _teams(value: object, regulation: Regulation | None, problems: _Problems) -> list[TeamEntry]:
    records = _records(value, "teams", problems)
    if records and regulation is not None and not regulation.is_team_tournament:
        problems.add("teams", f"{regulation.id} is an individual tournament: no teams")
    teams: list[TeamEntry] = []
    for index, record in enumerate(records, start=1):
        where = f"team {index}"
        team = TeamEntry(
            _text(record, "id", where, problems), _text(record, "name", where, problems)
        )
        if team.id and team.id in {t.id for t in teams}:
            problems.add(f"team {team.id}", "the id is used twice")
        teams.append(team)
    return teams


def _players(
    value: object, team_ids: set[PlayerKey], regulation: Regulation | None, problems: _Problems
) -> list[PlayerEntry]:
    team_tournament = regulation is not None and regulation.is_team_tournament
    players: list[PlayerEntry] = []
    seen: set[str] = set()
    for index, record in enumerate(_records(value, "players", problems), start=1):
        where = f"player {index}"
        player_id = _text(record, "id", where, problems)
        nickname = _text(record, "nickname", where, problems)
        team = record.get("team")
        if team is not None and team not in team_ids:
            problems.add(f"player {player_id}", f"no team {team!r}")
        elif team is None and team_tournament:
            problems.add(f"player {player_id}", "a team tournament: every player has a team")
        if player_id in seen:
            problems.add(f"player {player_id}", "the id is used twice")
        seen.add(player_id)
        excluded = record.get("excluded", False)
        if not isinstance(excluded, bool):
            problems.add(f"player {player_id}", "excluded must be true or false")
            excluded = False
        players.append(PlayerEntry(player_id, nickname, team, excluded))
    if not players:
        problems.add("players", "no players")
    return players


def _games(
    value: object,
    regulation: Regulation,
    player_ids: set[PlayerKey],
    problems: _Problems,
    logs: dict[tuple[str, int, int], tuple[Entry, ...]],
) -> list[GameRecord]:
    games: list[GameRecord] = []
    places: dict[tuple[str, int, int], int] = {}
    busy: dict[tuple[str, int, str], int] = {}
    for number, record in enumerate(_records(value, "games", problems), start=1):
        game = _game(number, record, regulation, player_ids, problems)
        if game is None:
            continue
        where = _game_label(number, record)
        place = (game.stage, game.round, game.table)
        log = _log(record.get("log"), regulation, where, number, problems)
        if log:
            logs[place] = log
        if place in places:
            problems.add(where, f"the same table as game {places[place]}", number)
        places.setdefault(place, number)
        for seat, record_of_seat in enumerate(game.protocol.seats, start=1):
            slot = (game.stage, game.round, record_of_seat.player)
            if slot in busy:
                rule = f"player {record_of_seat.player} also plays game {busy[slot]} in this round"
                problems.add(f"{where}, seat {seat}", rule, number, seat)
            busy.setdefault(slot, number)
        games.append(game)
    return games


def _log(
    value: object, regulation: Regulation, where: str, number: int, problems: _Problems
) -> tuple[Entry, ...]:
    """A game's optional live log: every entry an action with its moment and judge, and the
    whole replaying under the regulation's rules."""
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(item, Mapping) for item in value):
        problems.add(where, "log is a list of actions", number)
        return ()
    try:
        entries = tuple(entry_from_dict(item) for item in value)
        replay((entry.action for entry in entries), regulation)
    except GameLogRefused as refused:
        problems.add(where, f"the log does not replay under the regulation: {refused}", number)
        return ()
    return entries


def _game_label(number: int, record: Mapping[str, Any]) -> str:
    stage, round_, table = record.get("stage"), record.get("round"), record.get("table")
    return f"game {number} ({stage}, round {round_}, table {table})"


def _whole(value: object, minimum: int) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        return None
    return value


def _game(
    number: int,
    record: Mapping[str, Any],
    regulation: Regulation,
    player_ids: set[PlayerKey],
    problems: _Problems,
) -> GameRecord | None:
    where = _game_label(number, record)
    before = len(problems)
    stage = record.get("stage")
    if stage not in {s.id for s in regulation.stages}:
        stages = ", ".join(s.id for s in regulation.stages)
        problems.add(where, f"stage {stage!r} is not one of {stages}", number)
    round_, table = _whole(record.get("round"), 1), _whole(record.get("table"), 1)
    if round_ is None or table is None:
        problems.add(where, "round and table are whole numbers from 1", number)
    winner = record.get("winner")
    if winner not in {side.value for side in Side}:
        problems.add(where, f"winner must be 'red' or 'black', got {winner!r}", number)
    first_killed = record.get("first_killed")
    if first_killed is not None and _whole(first_killed, 1) is None:
        problems.add(where, "first_killed is a seat number or null", number)
    night = record.get("first_killed_night", 1)
    if _whole(night, 1) is None:
        problems.add(where, "first_killed_night is a night number from 1", number)
    best_move = record.get("best_move", [])
    if not isinstance(best_move, list) or any(_whole(s, 1) is None for s in best_move):
        problems.add(where, "best_move is a list of seat numbers", number)
    end = record.get("end")
    if end is not None and end not in {e.value for e in GameEnd}:
        ends = ", ".join(e.value for e in GameEnd)
        problems.add(where, f"end must be null or one of {ends}, got {end!r}", number)
    ended_at = _moment(record.get("ended_at"))
    if ended_at is False:
        problems.add(where, "ended_at is a moment with its offset (ISO 8601) or null", number)
    seats = _seats(number, where, record.get("seats"), player_ids, problems)
    if len(problems) > before or seats is None:
        return None
    protocol = Protocol(
        seats,
        Side(str(winner)),
        first_killed,
        night,
        tuple(best_move),
        ended_at=ended_at or None,
        end=GameEnd(end) if end is not None else None,
    )
    for error in validate_protocol(protocol, regulation):
        seat_where = where if error.seat is None else f"{where}, seat {error.seat}"
        problems.add(
            seat_where, str(error).removeprefix(f"seat {error.seat}: "), number, error.seat
        )
    assert round_ is not None and table is not None
    return GameRecord(str(stage), round_, table, protocol)


def _moment(value: object) -> datetime | Literal[False] | None:
    """An ISO 8601 moment with its offset; None when absent; False when not one."""
    if value is None:
        return None
    try:
        moment = datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        moment = None
    return moment if moment is not None and moment.tzinfo is not None else False


def _seats(
    number: int, where: str, value: object, player_ids: set[PlayerKey], problems: _Problems
) -> tuple[SeatRecord, ...] | None:
    if not isinstance(value, list):
        problems.add(where, "seats must list seats 1 to 10", number)
        return None
    seats: list[SeatRecord] = []
    for seat, record in enumerate(value, start=1):
        seat_where = f"{where}, seat {seat}"
        if not isinstance(record, Mapping):
            problems.add(seat_where, "expected an object", number, seat)
            continue
        parsed, rules = _seat(record, player_ids)
        for rule in rules:
            problems.add(seat_where, rule, number, seat)
        if parsed is not None:
            seats.append(parsed)
    return tuple(seats) if len(seats) == len(value) else None


def _seat(
    record: Mapping[str, Any], player_ids: set[PlayerKey]
) -> tuple[SeatRecord | None, list[str]]:
    player, role = record.get("player"), record.get("role")
    fouls, removed = record.get("fouls", 0), record.get("removed")
    extra, technical = record.get("extra", 0), record.get("technical", 0)
    rules = []
    if player not in player_ids:
        rules.append(f"player {player!r} is not registered")
    if role not in {r.value for r in Role}:
        rules.append(f"role must be civilian, sheriff, mafia or don, got {role!r}")
    if isinstance(fouls, bool) or not isinstance(fouls, int):
        rules.append(f"fouls must be a whole number, got {fouls!r}")
    if isinstance(technical, bool) or not isinstance(technical, int) or technical < 0:
        rules.append(f"technical must be a whole number, got {technical!r}")
    if removed is not None and removed not in {r.value for r in Removal}:
        rules.append(f"removed must be null, 'fouls' or 'disqualified', got {removed!r}")
    if isinstance(extra, bool) or not isinstance(extra, int | float | Decimal):
        rules.append(f"extra must be a number, got {extra!r}")
    if rules:
        return None, rules
    points = extra if isinstance(extra, Decimal) else Decimal(str(extra))
    seat = SeatRecord(
        str(player),
        Role(str(role)),
        fouls,
        Removal(removed) if removed else None,
        points,
        technical,
    )
    return seat, []


def dump_tournament(tournament: Tournament) -> dict[str, Any]:
    """The tournament as a `mafia-tournament/1` document (extra points as Decimal)."""
    regulation: object = tournament.preset or tournament.regulation.model_dump(mode="json")
    document: dict[str, Any] = {"format": FORMAT, "regulation": regulation}
    document["players"] = [_dump_player(p) for p in tournament.players]
    document["teams"] = [{"id": t.id, "name": t.name} for t in tournament.teams] or None
    document["games"] = [
        _dump_game(game, tournament.logs.get((game.stage, game.round, game.table), ()))
        for game in tournament.games
    ]
    return document


def _dump_player(player: PlayerEntry) -> dict[str, Any]:
    record: dict[str, Any] = {"id": player.id, "nickname": player.nickname, "team": player.team}
    if player.excluded:  # written only when true: files without exclusions read as before
        record["excluded"] = True
    return record


def _dump_game(game: GameRecord, log: tuple[Entry, ...]) -> dict[str, Any]:
    protocol = game.protocol
    # Written only for a game run live: files without logs read as before.
    logged = {"log": [entry_to_dict(entry) for entry in log]} if log else {}
    return {
        "stage": game.stage,
        "round": game.round,
        "table": game.table,
        "winner": protocol.winner.value,
        "first_killed": protocol.first_killed,
        "first_killed_night": protocol.first_killed_night,
        "best_move": list(protocol.best_move),
        # Written only when recorded: files without them read as before.
        **({"end": protocol.end.value} if protocol.end else {}),
        **({"ended_at": protocol.ended_at.isoformat()} if protocol.ended_at else {}),
        "seats": [
            {
                "player": seat.player,
                "role": seat.role.value,
                "fouls": seat.fouls,
                "removed": seat.removed.value if seat.removed else None,
                "extra": seat.extra,
                # Written only when recorded (the live game's technical fouls).
                **({"technical": seat.technical} if seat.technical else {}),
            }
            for seat in protocol.seats
        ],
        **logged,
    }


def dumps_tournament(tournament: Tournament) -> str:
    """The text of a `mafia-tournament/1` file; reading it back gives the same tournament."""
    return json.dumps(dump_tournament(tournament), ensure_ascii=False, indent=2, default=_number)


def _number(value: object) -> object:
    if isinstance(value, Decimal):
        # A float's repr of a short decimal reads back as the same Decimal with parse_float.
        return int(value) if value == value.to_integral_value() else float(value)
    raise TypeError(f"cannot write {value!r}")
