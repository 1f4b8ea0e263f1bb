"""/me: a player's card with every game, seat, role and the points of each part."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from bot.rendering.player_card import player_card_text
from domain.game_end import GameEnd
from domain.registration import Participant, ParticipantStatus
from domain.regulation import load_preset
from domain.standings import GameRecord, PlayerEntry
from domain.standings_board import PlayedGame, player_card, standings_board
from tests.unit.protocol_builders import protocol

CUP = load_preset("black-raven-cup")
NOW = datetime(2026, 5, 16, 15, 0, tzinfo=UTC)
KEYS = [str(n) for n in range(1, 11)]


def _participant(number: int, nickname: str) -> Participant:
    return Participant(
        number, 7, None, nickname, "Ворон", "Омск", ParticipantStatus.REGISTERED, NOW
    )


def _card(nickname: str, locale: str, games: list[PlayedGame]) -> str:
    players = [PlayerEntry(key, nickname if key == "1" else f"P{key}") for key in KEYS]
    board = standings_board("Кубок <Ворона>", CUP, players, [], games, None, "qualifying", NOW)
    return player_card_text(player_card(board, _participant(1, nickname), games, NOW), locale)


def _rows(text: str, first_header: str) -> list[list[str]]:
    lines = text.split("<pre>", 1)[1].split("</pre>", 1)[0].splitlines()
    assert lines[0].split()[0] == first_header
    return [line.split() for line in lines[1:]]


def test_each_game_shows_round_table_seat_role_and_the_parts_of_its_points():
    # Round 2 first in the list: the card still orders games as played.
    killed_first = protocol(
        KEYS, winner="black", first_killed=1, best_move=(8, 9, 10), extra={1: "0.2"}
    )
    seats = [KEYS[6], *KEYS[1:6], KEYS[0], *KEYS[7:]]  # player 1 at seat 7: the sheriff
    disqualified = protocol(seats, winner="red", removed={7: "disqualified"})
    games = [
        PlayedGame(GameRecord("qualifying", 2, 3, disqualified)),
        PlayedGame(GameRecord("qualifying", 1, 1, killed_first)),
    ]
    text = _card("Ворон", "ru", games)
    assert text.startswith("<b>Ворон</b> — Кубок &lt;Ворона&gt;")
    # Black won game 1: best move 0.3 + extra 0.2; game 2: win 2, disqualification -1.
    # Russian writes the decimal comma and a real minus.
    assert "баллы: 1,5 · игр: 2 · побед: 1" in text
    assert _rows(text, "Тур") == [
        ["1", "1", "1", "мирный", "−", "0", "0,3", "0,2", "0", "0,5"],
        ["2", "3", "7", "шериф", "+", "2", "0", "0", "\u22121", "1"],
    ]
    assert "<b>Отборочные игры</b>" in text
    assert "*" not in text


def test_a_game_open_to_protest_is_marked_provisional_in_english():
    game = PlayedGame(
        GameRecord("qualifying", 1, 1, protocol(KEYS)), protest_closes_at=NOW + timedelta(minutes=5)
    )
    text = _card("Raven", "en", [game])
    assert _rows(text, "Rnd") == [["1", "1", "1", "civilian", "+", "2", "0", "0", "0", "2*"]]
    assert "* — provisional" in text


def test_a_hostile_nickname_is_escaped_and_a_player_without_games_is_told_so():
    text = _card("<b>&amp;", "en", [])
    assert text.startswith("<b>&lt;b&gt;&amp;amp;</b> — ")
    assert "No games played yet." in text
    assert "<pre>" not in text


def test_an_excluded_player_sees_the_cross_at_his_place_and_why():
    players = [PlayerEntry(key, f"P{key}", excluded=key == "1") for key in KEYS]
    games = [PlayedGame(GameRecord("qualifying", 1, 1, protocol(KEYS)))]
    board = standings_board("Кубок", CUP, players, [], games, None, "qualifying", NOW)
    text = player_card_text(player_card(board, _participant(1, "P1"), games, NOW), "ru")
    # Listed below everyone still in the tournament: 10th of 10, with his points kept.
    assert "Место: 10× · баллы: 2 · игр: 1" in text
    assert "× Вы исключены из турнира" in text
    kept_in = player_card_text(player_card(board, _participant(2, "P2"), games, NOW), "ru")
    assert "×" not in kept_in and "исключен" not in kept_in


def test_a_game_that_ended_by_a_special_rule_says_so_under_its_stage():
    missed = replace(protocol(KEYS, winner="red"), end=GameEnd.MISSED_NIGHTS)
    awarded = replace(protocol(KEYS, winner="black"), end=GameEnd.AWARDED_DEFEAT)
    usual = replace(protocol(KEYS, winner="red"), end=GameEnd.BLACK_OUT)
    games = [
        PlayedGame(GameRecord("qualifying", 1, 2, missed)),
        PlayedGame(GameRecord("qualifying", 2, 4, awarded)),
        PlayedGame(GameRecord("qualifying", 3, 1, usual)),
    ]
    text = _card("Ворон", "ru", games)
    assert "Тур 1, стол 2: три промаха чёрных подряд" in text
    assert "Тур 2, стол 4: красным присуждено поражение" in text
    assert "выбыли" not in text  # an end by elimination is the +/− of its row
    english = _card("Raven", "en", games)
    assert "Round 1, table 2: black missed three nights in a row" in english
