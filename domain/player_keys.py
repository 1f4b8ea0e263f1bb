"""How the pure rules name a player or a team, and how that name maps to the database's id.

The database numbers participants and teams (`participant_id`, `team_id`: int). The pure rules
(protocol, scoring, standings, ties, seating, the tournament file) name each by a text key:
a tournament file brings its own ("p01"), and this bot's key is the participant's (or
team's) id written out. These two functions are the only crossing between the two.
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
