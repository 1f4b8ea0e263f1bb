"""How a game ended: by elimination, or by a special end a regulation names.

Its own module: the regulation names the special ends it allows, and the protocol records one
and is validated against the regulation, so both import it.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum

from domain.cards import Side


class GameEnd(StrEnum):
    """How a game ended: the two ends by elimination, or a special end the regulation names.

    Where the end itself decides the winner (`winner`), the protocol's winner must agree; a
    defeat awarded to a team (black-raven-cup 9.1) is recorded with the other team as winner.
    """

    # Every black player left the table: red wins.
    BLACK_OUT = "black_out"
    # As many black players at the table as red ones: black wins.
    PARITY = "parity"
    # Black missed three nights in a row (black-raven-cup 10.2): red wins.
    MISSED_NIGHTS = "missed_nights"
    # Four players left and three nights without a kill (siberia-ural-teams): red wins.
    FOUR_PLAYERS_THREE_NIGHTS = "four_players_three_nights"
    # A defeat awarded to the team whose player got hints from the audience (9.1).
    AWARDED_DEFEAT = "awarded_defeat"

    @property
    def winner(self) -> Side | None:
        """The side this end makes the winner (None: the defeat's team decides)."""
        return _END_WINNERS.get(self)

    @property
    def special(self) -> bool:
        """An end other than by elimination: a regulation must name it to allow it."""
        return self not in NORMAL_ENDS


_END_WINNERS: Mapping[GameEnd, Side] = {
    GameEnd.BLACK_OUT: Side.RED,
    GameEnd.PARITY: Side.BLACK,
    GameEnd.MISSED_NIGHTS: Side.RED,
    GameEnd.FOUR_PLAYERS_THREE_NIGHTS: Side.RED,
}
# The ends every game may have; the special ones come from the regulation.
NORMAL_ENDS: tuple[GameEnd, ...] = (GameEnd.BLACK_OUT, GameEnd.PARITY)
