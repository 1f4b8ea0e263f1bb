"""The end of a game detected from the record (all black out, black equal to red, black
missing three nights in a row, four players and three nights without a kill), offered to
the judge."""

from __future__ import annotations

from dataclasses import replace

from domain.cards import Side
from domain.game_end import GameEnd
from domain.game_log.state import LiveGame, Phase


def detect_end(game: LiveGame) -> GameEnd | None:
    """The end the record shows, once the roles are known: all black out, or black equal to
    red (the nights' rules are detected as they happen, see `shoot`)."""
    if not game.roles_dealt:
        return None
    black = sum(1 for s in game.in_play if _side(game, s) is Side.BLACK)
    red = len(game.in_play) - black
    if black == 0:
        return GameEnd.BLACK_OUT
    if black >= red:
        return GameEnd.PARITY
    return None


def _side(game: LiveGame, seat: int) -> Side:
    role = game.roles[seat - 1]
    assert role is not None
    return role.side


def offer_end(game: LiveGame) -> LiveGame:
    if game.phase in (Phase.FINISHED, Phase.INTRODUCTION):
        return game
    detected = detect_end(game)
    if detected is None:
        if game.phase is Phase.END_DETECTED and game.detected is not None:
            return game
        return replace(game, detected=None)
    return replace(game, phase=Phase.END_DETECTED, detected=detected)
