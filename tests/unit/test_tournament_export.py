"""What the tournament file holds: the players the standings list, the games in playing order."""

from __future__ import annotations

from domain.interchange import dumps_tournament, load_tournament
from domain.registration import ParticipantStatus
from domain.services.exports import tournament_file
from domain.standings import GameRecord
from tests.unit.lifecycle_builders import player, team, tournament
from tests.unit.protocol_builders import protocol

# Participants 1 to 12 (ids 101 to 112): 1 is excluded after playing, 11 is a no-show
# replaced by 12, who has not played yet.
EXCLUDED = 101
NO_SHOW = 111
SUBSTITUTE = 112


def _participants() -> list:
    people = [player(100 + n, nickname=f"Игрок {n}") for n in range(1, 13)]
    people[0] = player(EXCLUDED, ParticipantStatus.EXCLUDED, nickname="Игрок 1")
    people[10] = player(NO_SHOW, ParticipantStatus.REPLACED, nickname="Игрок 11")
    people[11] = player(SUBSTITUTE, nickname="Игрок 12", substitute_for=NO_SHOW)
    people.append(player(113, ParticipantStatus.WAITING, nickname="Ждущий"))
    return people


def _game(stage: str, round_: int, table: int, first: int, winner: str = "red") -> GameRecord:
    seats = [str(100 + (first + seat) % 10 + 1) for seat in range(10)]
    return GameRecord(stage, round_, table, protocol(seats, winner=winner))


def test_games_come_in_playing_order_with_players_numbered_in_the_file() -> None:
    games = [
        _game("final", 1, 1, 0, "black"),
        _game("qualifying", 2, 1, 3),
        _game("qualifying", 1, 1, 0),
    ]
    file = tournament_file(tournament(), _participants(), [], games)
    assert [(g.stage, g.round, g.table) for g in file.games] == [
        ("qualifying", 1, 1),
        ("qualifying", 2, 1),
        ("final", 1, 1),
    ]
    nickname = {p.id: p.nickname for p in file.players}
    assert [nickname[s.player] for s in file.games[0].protocol.seats] == [
        f"Игрок {n}" for n in range(1, 11)
    ]
    assert [nickname[s.player] for s in file.games[1].protocol.seats][:2] == ["Игрок 4", "Игрок 5"]
    assert file.games[2].protocol.winner.value == "black"


def test_the_excluded_player_keeps_his_games_the_substitute_is_listed_the_no_show_is_not() -> None:
    file = tournament_file(tournament(), _participants(), [], [_game("qualifying", 1, 1, 0)])
    listed = [(p.id, p.nickname) for p in file.players]
    # Registration order, numbered p1, p2...: whoever the standings list, nobody else.
    assert listed == [(f"p{n}", f"Игрок {n}") for n in range(1, 11)] + [("p11", "Игрок 12")]
    assert file.games[0].protocol.seats[0].player == "p1"


def test_teams_are_numbered_and_the_file_reads_back_the_same() -> None:
    teams = [team(7, 101), team(3, 102)]
    people = [
        player(100 + n, nickname=f"Игрок {n}", team_id=7 if n % 2 else 3) for n in range(1, 11)
    ]
    regulated = tournament(regulation_id="siberia-ural-teams")
    file = tournament_file(regulated, people, teams, [])
    assert [(t.id, t.name) for t in file.teams] == [("t1", "Команда 7"), ("t2", "Команда 3")]
    assert {p.team for p in file.players} == {"t1", "t2"}
    assert load_tournament(dumps_tournament(file)) == file
