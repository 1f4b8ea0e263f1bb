"""What a press on the protocol screen reads, in one go.

A press is the judges' most frequent update (thirty tables at a round's start): the game with
its seats, the tournament, the presser's role in it, the draft and the confirmed protocol and
the seats' nicknames come from the database together (`ProtocolRepository.screen_read`), so a
press costs two reads and one write instead of ten statements, and holds SQLite's one
connection for a fraction of the time.
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.permissions import StaffRole
from domain.protocol import Protocol
from domain.protocol_screen import Screen
from domain.rounds import GameInRound
from domain.tournament import Tournament


@dataclass(frozen=True)
class ProtocolScreenRead:
    """A game's protocol screen as stored, with who may touch it."""

    game: GameInRound
    tournament: Tournament
    # The person's staff role in the game's tournament, if any (None where not read).
    role: StaffRole | None
    # The draft being filled in (or corrected) and its version.
    draft: tuple[Screen, int] | None
    confirmed: Protocol | None
    # The seats' nicknames by participant id.
    nicknames: dict[int, str]

    def seat_nicknames(self) -> tuple[str, ...]:
        """The table's nicknames in seat order (the id where a participant has none)."""
        return tuple(self.nicknames.get(p, str(p)) for p in self.game.game.players)
