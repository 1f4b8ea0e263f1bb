"""Points of one game, seat by seat, with the reason for each part.

A seat's total is its win points (by role, for the winning side), the best move of the first
victim, the judge's extra points, and the penalty for a removal. The best-move rule lives here:
`best_move_points`.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from domain.cards import Role, Side
from domain.player_keys import PlayerKey
from domain.protocol import Protocol, Removal
from domain.regulation import Regulation

ZERO = Decimal(0)


@dataclass(frozen=True)
class SeatScore:
    """What one seat earned in one game, and why."""

    seat: int
    player: PlayerKey
    role: Role
    won: bool
    first_night_death: bool
    win: Decimal
    best_move: Decimal
    extra: Decimal
    penalty: Decimal

    @property
    def total(self) -> Decimal:
        """The seat's points for the game."""
        return self.win + self.best_move + self.extra + self.penalty


def best_move_points(protocol: Protocol, regulation: Regulation) -> Decimal:
    """What the first victim's best move earns: by how many named seats are black.

    Only a victim whose role may make it counts (and, if the regulation says so, only a victim of
    the first night); three blacks earn `three_black`, two earn `two_black` (for the sheriff
    `sheriff_two_black`), fewer earn nothing.
    """
    rule = regulation.best_move
    victim = protocol.first_killed
    if victim is None or not protocol.best_move:
        return ZERO
    if rule.first_night_only and protocol.first_killed_night != 1:
        return ZERO
    role = protocol.seat(victim).role
    if role not in rule.eligible_roles:
        return ZERO
    blacks = sum(1 for seat in protocol.best_move if protocol.seat(seat).role.side is Side.BLACK)
    if blacks == 3:
        return rule.three_black
    if blacks == 2:
        return rule.sheriff_two_black if role is Role.SHERIFF else rule.two_black
    return ZERO


def removal_penalty(removed: Removal | None, regulation: Regulation) -> Decimal:
    """Points taken for leaving the table: a disqualification or the foul limit."""
    if removed is Removal.DISQUALIFIED:
        return regulation.penalties.disqualification
    if removed is Removal.FOULS:
        return regulation.penalties.fouls_removal
    return ZERO


def score_game(protocol: Protocol, regulation: Regulation) -> tuple[SeatScore, ...]:
    """The points of every seat of a valid protocol, seats 1 to 10 in order.

    A removed or disqualified player keeps his side's result: the regulations take nothing away
    but the penalty.
    """
    best_move = best_move_points(protocol, regulation)
    scores = []
    for number, seat in enumerate(protocol.seats, start=1):
        won = seat.role.side is protocol.winner
        scores.append(
            SeatScore(
                seat=number,
                player=seat.player,
                role=seat.role,
                won=won,
                first_night_death=number == protocol.first_night_victim,
                win=regulation.win_points.for_role(seat.role) if won else regulation.loss_points,
                best_move=best_move if number == protocol.first_killed else ZERO,
                extra=seat.extra,
                penalty=removal_penalty(seat.removed, regulation),
            )
        )
    return tuple(scores)
