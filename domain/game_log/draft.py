"""The protocol a live game makes: the `ProtocolDraft` the inline protocol screen fills, for
the rules engine (`domain.protocol`) to validate and `domain.scoring` to score."""

from __future__ import annotations

from domain.game_log.state import Exit, LiveGame, Phase
from domain.player_keys import PlayerKey
from domain.protocol import FirstKill, ProtocolDraft, Removal, SeatDraft


def draft(game: LiveGame, players: tuple[PlayerKey, ...] | None) -> ProtocolDraft:
    limit_removed = {Exit.FOULS: Removal.FOULS, Exit.DISQUALIFIED: Removal.DISQUALIFIED}
    seats = tuple(
        SeatDraft(
            player=players[index] if players else None,
            role=game.roles[index],
            fouls=game.fouls[index],
            removed=limit_removed.get(exit_) if (exit_ := game.exits[index]) else None,
            extra=game.extra[index],
            technical=game.technical[index],
        )
        for index in range(10)
    )
    if game.first_killed is not None:
        first_kill: FirstKill | None = FirstKill(game.first_killed, game.first_killed_night or 1)
    elif game.phase is Phase.FINISHED:
        first_kill = FirstKill(None)
    else:
        first_kill = None
    return ProtocolDraft(
        seats=seats,
        winner=game.winner,
        first_kill=first_kill,
        best_move_by=game.first_killed if game.best_move else None,
        best_move=game.best_move,
        end=game.end,
    )


def to_draft(game: LiveGame, players: tuple[PlayerKey, ...]) -> ProtocolDraft:
    """The protocol the game makes, for the rules engine to validate and score: the same draft
    the inline protocol screen fills (fouls beyond the removal's count are not the protocol's)."""
    return draft(game, players)
