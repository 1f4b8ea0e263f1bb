"""Plausible random games: what a table judge writes into a protocol, drawn within the rules.

A plan is drawn from its own `random.Random`, seeded by the simulation's seed and the game's
place in the tournament, so the same seed gives the same games whatever order the tables
finish in. Extra points are counted in the regulation's steps, never as fractions.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import TypeVar

from domain.cards import Role, Side
from domain.protocol import BEST_MOVE_NAMES
from domain.regulation import Regulation

SEATS = tuple(range(1, 11))
# How often things happen at a table, as judges of club tournaments see them.
RED_WINS = 0.55
FIRST_KILL_NIGHTS = ((1, 0.80), (2, 0.14), (3, 0.04), (None, 0.02))
FOUL_COUNTS = ((0, 0.70), (1, 0.20), (2, 0.07), (3, 0.025), (4, 0.005))
DISQUALIFICATION = 0.003
BLACK_GUESSED = 0.5  # the chance the first victim names a black player with each name

T = TypeVar("T")


@dataclass(frozen=True)
class GamePlan:
    """One game as its judge enters it: seats by role, fouls, the first kill and best move,
    extra points in steps, the winner."""

    don: int
    sheriff: int
    mafia: tuple[int, int]
    fouls: tuple[tuple[int, int], ...]
    disqualified: tuple[int, ...]
    first_kill: int | None
    night: int
    best_move: tuple[int, ...] | None  # None: the victim may not make one
    extra_steps: tuple[tuple[int, int], ...]
    winner: Side

    @property
    def black(self) -> tuple[int, ...]:
        return (self.don, *self.mafia)

    def role(self, seat: int) -> Role:
        """The card dealt to `seat`."""
        if seat == self.don:
            return Role.DON
        if seat == self.sheriff:
            return Role.SHERIFF
        return Role.MAFIA if seat in self.mafia else Role.CIVILIAN


def game_random(seed: int, stage: str, round_number: int, table: int) -> random.Random:
    """The random source of one game, independent of every other game's."""
    return random.Random(f"{seed}:{stage}:{round_number}:{table}")


def _weighted(rng: random.Random, choices: tuple[tuple[T, float], ...]) -> T:
    values = [value for value, _ in choices]
    weights = [weight for _, weight in choices]
    return rng.choices(values, weights)[0]


def plan_game(rng: random.Random, regulation: Regulation) -> GamePlan:
    """A random game that the regulation accepts as it is."""
    dealt = rng.sample(SEATS, 4)
    don, sheriff, mafia = dealt[0], dealt[1], (dealt[2], dealt[3])
    plan = GamePlan(
        don=don,
        sheriff=sheriff,
        mafia=(min(mafia), max(mafia)),
        fouls=(),
        disqualified=(),
        first_kill=None,
        night=1,
        best_move=None,
        extra_steps=(),
        winner=Side.RED if rng.random() < RED_WINS else Side.BLACK,
    )
    fouls = _fouls(rng, regulation)
    fouled_out = {seat for seat, count in fouls if count == regulation.penalties.fouls_for_removal}
    disqualified = tuple(
        seat for seat in SEATS if rng.random() < DISQUALIFICATION and seat not in fouled_out
    )
    night = _weighted(rng, FIRST_KILL_NIGHTS)
    # The mafia shoots a red player still at the table.
    gone = fouled_out | set(disqualified)
    red = [seat for seat in SEATS if seat not in plan.black and seat not in gone]
    victim = rng.choice(red) if night is not None and red else None
    plan = replace(
        plan, fouls=fouls, disqualified=disqualified, first_kill=victim, night=night or 1
    )
    plan = replace(plan, best_move=_best_move(rng, regulation, plan))
    return replace(plan, extra_steps=_extras(rng, regulation, plan))


def _fouls(rng: random.Random, regulation: Regulation) -> tuple[tuple[int, int], ...]:
    limit = regulation.penalties.fouls_for_removal
    counts = ((seat, min(_weighted(rng, FOUL_COUNTS), limit)) for seat in SEATS)
    return tuple((seat, count) for seat, count in counts if count)


def _best_move(
    rng: random.Random, regulation: Regulation, plan: GamePlan
) -> tuple[int, ...] | None:
    rules = regulation.best_move
    victim = plan.first_kill
    if victim is None or (rules.first_night_only and plan.night != 1):
        return None
    if plan.role(victim) not in rules.eligible_roles:
        return None
    black = list(plan.black)
    others = [seat for seat in SEATS if seat != victim and seat not in plan.black]
    named: list[int] = []
    for _ in range(BEST_MOVE_NAMES):
        pool = black if black and rng.random() < BLACK_GUESSED else others
        pick = rng.choice(pool)
        pool.remove(pick)
        named.append(pick)
    return tuple(sorted(named))


def _extras(
    rng: random.Random, regulation: Regulation, plan: GamePlan
) -> tuple[tuple[int, int], ...]:
    """Extra points as whole steps: at most the recipients, per-player and total limits."""
    limits = regulation.extra_points
    step = limits.step
    low, high = int(limits.per_player_min / step), int(limits.per_player_max / step)
    budget = int(limits.total_max / step)
    eligible = [
        seat
        for seat in SEATS
        if seat not in plan.disqualified
        and (limits.first_killed_may_receive or seat != plan.first_kill)
    ]
    recipients = rng.randint(0, min(limits.max_recipients, len(eligible)))
    given: list[tuple[int, int]] = []
    for seat in sorted(rng.sample(eligible, recipients)):
        if budget < low:
            break
        steps = rng.randint(low, min(high, budget))
        given.append((seat, steps))
        budget -= steps
    return tuple(given)
