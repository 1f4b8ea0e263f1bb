"""How the pure rules name a player or a team, and how that name maps to the database's id.

The database numbers participants and teams (`participant_id`, `team_id`: int). The pure rules
(protocol, scoring, standings, ties, seating, the tournament file) name each by a text key,
`PlayerKey`: a tournament file brings its own ("p01"), and this bot's key is the participant's
(or team's) id written out. The functions here are the only crossing between the two; an
architecture test (`tests/unit/test_architecture_ids.py`) fails on an `int()` of a key anywhere
else, and on a player or team in `domain/` typed a bare `str` instead of `PlayerKey` or `int`.
"""

from __future__ import annotations

# A player's or a team's name in the pure rules: `Seat.player`, `PlayerEntry.id`, a tie's
# entries, a seating's players.
PlayerKey = str


def participant_key(participant_id: int) -> PlayerKey:
    """How a participant (or a team) is named in protocols, standings rows and ties."""
    return str(participant_id)


def participant_id(key: PlayerKey) -> int:
    """The database id of a participant (or a team) a rule names by `key`."""
    return int(key)


def named_participant(key: PlayerKey) -> int | None:
    """The database id `key` names, or None when it names none (an empty seat, a player
    of a tournament file read from elsewhere)."""
    return int(key) if key.isascii() and key.isdigit() else None
