"""The season's Elo-type rating: one per person, overall and per side (red, black).

A game is a `RatedGame`: who sat on which side and which side won (the regulation's points do
not enter the rating, the game's result does). Games are rated in the order of their `key`
(tournament date, tournament id, stage order, round, table; `game_id` breaks a tie), so the
ratings never depend on the order in which the games were entered.

One game, per track (docs/ratings.md tells the whole story):
- the red side's strength is the mean of its players' ratings, the black side's likewise
  (overall track: overall ratings; side tracks: the red players' red ratings against the black
  players' black ratings);
- the red side's expected score is `E = 1 / (1 + 10 ** ((B - R) / scale))`, its score `S` is
  1 when red won and 0 otherwise;
- the side's change is spread over its players: a red player gains
  `K * (S - E) * seats / (2 * reds)`, a black player `K * (E - S) * seats / (2 * blacks)`, where
  `K` is the player's own factor on that track (`k_new` for his first `new_games` games on it,
  `k` afterwards). When every K is equal the changes of one game sum to zero.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Literal

Side = Literal["red", "black"]
Track = Literal["overall", "red", "black"]
TRACKS: tuple[Track, ...] = ("overall", "red", "black")


@dataclass(frozen=True)
class RatedSeat:
    """A person at a rated game and the side his card played for."""

    person_id: int
    side: Side


@dataclass(frozen=True)
class RatedGame:
    """A finished game of a rated tournament, as the rating sees it."""

    key: tuple[object, ...]
    game_id: int
    tournament_id: int
    seats: tuple[RatedSeat, ...]
    winner: Side

    @property
    def order(self) -> tuple[tuple[object, ...], int]:
        """The position of the game in the rating's order: its key, then its id."""
        return (self.key, self.game_id)


@dataclass(frozen=True)
class RatingRules:
    """The rating's numbers: the start, the K factors and the Elo scale."""

    start: float = 1000.0
    k: float = 16.0
    k_new: float = 32.0
    new_games: int = 20
    scale: float = 400.0

    def factor(self, games_played: int) -> float:
        """The K factor of a person who has played `games_played` games on the track."""
        return self.k_new if games_played < self.new_games else self.k


DEFAULT_RULES = RatingRules()


@dataclass(frozen=True)
class Rating:
    """A person's ratings on the three tracks and the games counted on each."""

    overall: float
    red: float
    black: float
    games: int = 0
    red_games: int = 0
    black_games: int = 0

    @classmethod
    def initial(cls, rules: RatingRules = DEFAULT_RULES) -> Rating:
        """The rating of a person who has not played a rated game."""
        return cls(rules.start, rules.start, rules.start)

    def value(self, track: Track) -> float:
        """The rating on `track`."""
        return {"overall": self.overall, "red": self.red, "black": self.black}[track]

    def played(self, track: Track) -> int:
        """The games counted on `track`."""
        return {"overall": self.games, "red": self.red_games, "black": self.black_games}[track]

    def with_track(self, track: Track, value: float) -> Rating:
        """The rating after one more game on `track` ending at `value`."""
        if track == "overall":
            return replace(self, overall=value, games=self.games + 1)
        if track == "red":
            return replace(self, red=value, red_games=self.red_games + 1)
        return replace(self, black=value, black_games=self.black_games + 1)


@dataclass(frozen=True)
class RatingChange:
    """One person's rating on one track before and after one game."""

    game_id: int
    person_id: int
    track: Track
    before: float
    after: float

    @property
    def delta(self) -> float:
        """How much the game moved the rating."""
        return self.after - self.before


@dataclass
class RatingLedger:
    """Ratings after a run of games and every change in the games' order."""

    ratings: dict[int, Rating]
    changes: list[RatingChange]


def expected_red(red: float, black: float, rules: RatingRules = DEFAULT_RULES) -> float:
    """The red side's expected score against the black side, from their mean ratings."""
    return float(1.0 / (1.0 + 10.0 ** ((black - red) / rules.scale)))


def _mean(values: list[float]) -> float:
    return sum(values) / len(values)


def _track_changes(
    ratings: Mapping[int, Rating],
    game: RatedGame,
    overall: bool,
    rules: RatingRules,
) -> list[RatingChange]:
    def track_of(seat: RatedSeat) -> Track:
        return "overall" if overall else seat.side

    def current(seat: RatedSeat) -> Rating:
        return ratings.get(seat.person_id) or Rating.initial(rules)

    reds = [seat for seat in game.seats if seat.side == "red"]
    blacks = [seat for seat in game.seats if seat.side == "black"]
    if not reds or not blacks:
        return []
    red_mean = _mean([current(seat).value(track_of(seat)) for seat in reds])
    black_mean = _mean([current(seat).value(track_of(seat)) for seat in blacks])
    surprise = (1.0 if game.winner == "red" else 0.0) - expected_red(red_mean, black_mean, rules)
    seats = len(game.seats)
    share = {
        "red": surprise * seats / (2 * len(reds)),
        "black": -surprise * seats / (2 * len(blacks)),
    }
    changes = []
    for seat in game.seats:
        track = track_of(seat)
        rating = current(seat)
        before = rating.value(track)
        after = before + rules.factor(rating.played(track)) * share[seat.side]
        changes.append(RatingChange(game.game_id, seat.person_id, track, before, after))
    return changes


def game_changes(
    ratings: Mapping[int, Rating], game: RatedGame, rules: RatingRules = DEFAULT_RULES
) -> list[RatingChange]:
    """What one game changes, from the ratings before it: every seat's overall change, then
    every seat's change on his side's track (a person sitting twice counts once per seat)."""
    return _track_changes(ratings, game, True, rules) + _track_changes(ratings, game, False, rules)


def ratings_from_changes(
    changes: Iterable[RatingChange], rules: RatingRules = DEFAULT_RULES
) -> dict[int, Rating]:
    """The ratings a run of stored changes (in the games' order) ends at: the start of a
    recompute from the first game after them."""
    ratings: dict[int, Rating] = {}
    for change in changes:
        rating = ratings.get(change.person_id) or Rating.initial(rules)
        ratings[change.person_id] = rating.with_track(change.track, change.after)
    return ratings


def rate_game(
    ratings: dict[int, Rating], game: RatedGame, rules: RatingRules = DEFAULT_RULES
) -> list[RatingChange]:
    """The incremental step: rate `game` after every game already in `ratings` (updated in
    place) and return its changes."""
    changes = game_changes(ratings, game, rules)
    for change in changes:
        rating = ratings.get(change.person_id) or Rating.initial(rules)
        ratings[change.person_id] = rating.with_track(change.track, change.after)
    return changes


def compute_ratings(
    games: Iterable[RatedGame],
    rules: RatingRules = DEFAULT_RULES,
    start: Mapping[int, Rating] | None = None,
) -> RatingLedger:
    """Rate `games` in their order (key, then id) from `start` (nobody rated: everyone starts
    at `rules.start`); the recompute from a game on uses the ratings before it as `start`."""
    ratings = dict(start or {})
    changes: list[RatingChange] = []
    for game in sorted(games, key=lambda game: game.order):
        changes.extend(rate_game(ratings, game, rules))
    return RatingLedger(ratings, changes)


def ranked(ratings: Mapping[int, Rating]) -> list[tuple[int, Rating]]:
    """People with a rated game, best overall rating first (person id breaks a tie)."""
    played = [(person, rating) for person, rating in ratings.items() if rating.games]
    return sorted(played, key=lambda item: (-item[1].overall, item[0]))
