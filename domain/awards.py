"""The regulation's nominations: the best player of each role it names, decided from the
protocols of the whole tournament.

A role's best player is the one who earned the most points in the games he played in that
role (the win, the best move, the judge's extra points and any penalty of those games, as
`domain.scoring` counts them). A tie goes to more extra points in that role (the judges named
him best more), then to more wins in it, then to fewer games in it (the same points in fewer
games); players still level share the nomination. Nobody who earned nothing in the role is
named, nor an excluded player.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from decimal import Decimal

from domain.cards import Role
from domain.player_keys import PlayerKey
from domain.regulation import Regulation
from domain.scoring import ZERO, score_game
from domain.standings import GameRecord


@dataclass(frozen=True)
class RoleFigures:
    """What one player did in one role over the tournament."""

    points: Decimal = ZERO
    extra: Decimal = ZERO
    wins: int = 0
    games: int = 0

    def plus(self, points: Decimal, extra: Decimal, won: bool) -> RoleFigures:
        """These figures with one more game in the role."""
        return RoleFigures(
            self.points + points, self.extra + extra, self.wins + int(won), self.games + 1
        )

    def rank_key(self) -> tuple[Decimal, Decimal, int, int]:
        """Higher is better: points, extra points, wins, then fewer games."""
        return (self.points, self.extra, self.wins, -self.games)


@dataclass(frozen=True)
class RoleAward:
    """A role's nomination: its best player (several when they share it), with his figures.
    `players` is empty when nobody earned anything in the role."""

    role: Role
    players: tuple[PlayerKey, ...]
    figures: RoleFigures


def role_figures(
    regulation: Regulation, games: Sequence[GameRecord]
) -> dict[Role, dict[str, RoleFigures]]:
    """Every player's figures in every role he played, over `games`."""
    figures: dict[Role, dict[str, RoleFigures]] = {role: {} for role in Role}
    for game in games:
        for seat in score_game(game.protocol, regulation):
            by_player = figures[seat.role]
            before = by_player.get(seat.player, RoleFigures())
            by_player[seat.player] = before.plus(seat.total, seat.extra, seat.won)
    return figures


def role_awards(
    regulation: Regulation, games: Sequence[GameRecord], excluded: Collection[str] = ()
) -> tuple[RoleAward, ...]:
    """The nominations the regulation names (`Regulation.awards`), in its order."""
    if not regulation.awards:
        return ()
    figures = role_figures(regulation, games)
    awards = []
    for role in regulation.awards:
        candidates = {
            player: done
            for player, done in figures[role].items()
            if player not in excluded and done.points > ZERO
        }
        if not candidates:
            awards.append(RoleAward(role, (), RoleFigures()))
            continue
        best = max(done.rank_key() for done in candidates.values())
        players = tuple(sorted(p for p, done in candidates.items() if done.rank_key() == best))
        awards.append(RoleAward(role, players, candidates[players[0]]))
    return tuple(awards)
