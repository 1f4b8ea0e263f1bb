"""Lower bounds of a seating's opponents criteria: no seating of the stage can do better.

- Patterns: in any k rounds a player's tables form one of Π T_r patterns; if more players play
  all k rounds than there are patterns, two of them share one and meet k times.
- Round pairs: the players of two rounds fall into T₁·T₂ (table, table) cells; two players in
  one cell meet in both rounds, and S2 counts exactly these coincidences over all round pairs,
  so spreading the players evenly over the cells is the best any seating can do.
- Players: a player with g games has 9g meetings over his possible opponents; evenly spread
  they repeat least.
- Tables and judges (`fewest_at_one_place`): a player's games must each take one of the places
  (tables, judges) open to him in its round; the least possible load of his busiest place.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import TypeVar

TABLE_SIZE = 10

# A player as the caller names him: an index of the search, or an id of the report.
Player = TypeVar("Player", bound=Hashable)


@dataclass(frozen=True)
class SeatingBounds:
    """Lower bounds on the largest meeting count and on S2."""

    max_meet: int
    s2: int


def lower_bounds(
    player_count: int,
    tables: Sequence[int],
    played: Sequence[Sequence[Sequence[int]]],
    apart_counts: Sequence[int],
) -> SeatingBounds:
    """Bounds for players 0..player_count-1 over rounds with `tables[r]` tables each.

    `played` are the tables of the first rounds, already played (player indices); the future
    rounds rotate sit-outs fairly. `apart_counts[p]` is how many players p may never meet.
    """
    rounds = len(tables)
    playing = [TABLE_SIZE * t for t in tables]
    meetings: dict[tuple[int, int], int] = {}
    for tables_of_round in played:
        for table in tables_of_round:
            for pair in combinations(sorted(table), 2):
                meetings[pair] = meetings.get(pair, 0) + 1
    if not played:
        s2 = _free_round_pairs(player_count, tables, playing)
    else:
        s2 = 0
        for r1, r2 in combinations(range(rounds), 2):
            if r2 < len(played):
                s2 += _coincidences(played[r1], played[r2])
            else:
                overlap = max(0, playing[r1] + playing[r2] - player_count)
                s2 += _even_spread(overlap, tables[r1] * tables[r2])
    future_games = sum(playing[len(played) :]) // max(1, player_count)
    per_player = 0
    for p, apart in enumerate(apart_counts):
        games = future_games + sum(1 for tbls in played for table in tbls if p in table)
        per_player += _even_spread(9 * games, max(1, player_count - 1 - apart))
    s2 = max(s2, per_player // 2)
    max_meet = max(meetings.values(), default=0)
    max_meet = max(max_meet, _pattern_bound(player_count, tables, playing))
    for apart in apart_counts:
        opponents = player_count - 1 - apart
        if opponents > 0 and future_games:
            max_meet = max(max_meet, math.ceil(9 * future_games / opponents))
    if s2 > 0:
        max_meet = max(max_meet, 2)
    return SeatingBounds(max_meet=max_meet, s2=s2)


def _free_round_pairs(player_count: int, tables: Sequence[int], playing: Sequence[int]) -> int:
    """The round-pair bound of a stage with nothing played, counting who sits out twice.

    Two rounds share the players who sit out in neither, plus o who sit out in both. Over all
    round pairs the o sum to Σ_p C(s_p, 2) for s_p a player's sit-outs, least when they are
    as even as possible; the coincidences of a round pair grow convexly with o, so handing the
    o out one at a time to the pair they cost least is the least any seating can reach (48
    players at 4 tables over 9 rounds: 624, not 576 with every pair's o as small as can be).
    """
    out = [player_count - p for p in playing]
    base, extra = divmod(sum(out), max(1, player_count))
    shared = (player_count - extra) * math.comb(base, 2) + extra * math.comb(base + 1, 2)
    pairs = list(combinations(range(len(tables)), 2))
    both = {(a, b): max(0, out[a] + out[b] - player_count) for a, b in pairs}

    def cost(pair: tuple[int, int], o: int) -> int:
        a, b = pair
        return _even_spread(player_count - out[a] - out[b] + o, tables[a] * tables[b])

    for _ in range(max(0, shared - sum(both.values()))):
        room = [(a, b) for a, b in pairs if both[a, b] < min(out[a], out[b])]
        if not room:
            break
        cheapest = min(room, key=lambda pair: cost(pair, both[pair] + 1) - cost(pair, both[pair]))
        both[cheapest] += 1
    return sum(cost(pair, both[pair]) for pair in pairs)


def _pattern_bound(player_count: int, tables: Sequence[int], playing: Sequence[int]) -> int:
    best = 1 if any(playing) else 0
    rounds = len(tables)
    for k in range(2, rounds + 1):
        for chosen in combinations(range(rounds), k):
            always = player_count - sum(player_count - playing[r] for r in chosen)
            if always > math.prod(tables[r] for r in chosen):
                best = k
                break
    return best


def _coincidences(first: Sequence[Sequence[int]], second: Sequence[Sequence[int]]) -> int:
    table_in_second = {p: t for t, table in enumerate(second) for p in table}
    count = 0
    for table in first:
        cells: dict[int, int] = {}
        for p in table:
            if p in table_in_second:
                cells[table_in_second[p]] = cells.get(table_in_second[p], 0) + 1
        count += sum(c * (c - 1) // 2 for c in cells.values())
    return count


def _even_spread(items: int, cells: int) -> int:
    """Least Σ C(n_i, 2) when `items` fall into `cells` cells."""
    if cells <= 0:
        return 0
    low, high_cells = divmod(items, cells)
    return (cells - high_cells) * low * (low - 1) // 2 + high_cells * (low + 1) * low // 2


def fewest_at_one_place(games: Sequence[Collection[Hashable]]) -> int:
    """Fewest games a player must play at his busiest place (table or judge), whatever the
    numbering: `games[g]` holds the places game g may take (one when a played round fixed it,
    fewer than all when a table is forbidden to him; leave out a game that may go without a
    judge). It is the least k such that every game gets a place and no place more than k:
    a bipartite matching of games to k copies of every place, at least ⌈games / places⌉.
    """
    places = sorted({place for options in games for place in options}, key=repr)
    if not games or not places:
        return 0
    index = {place: k for k, place in enumerate(places)}
    options = [[index[place] for place in game] for game in games]
    most = math.ceil(len(games) / len(places))
    while not _every_game_placed(options, len(places), most):
        most += 1
    return most


def _every_game_placed(options: Sequence[Sequence[int]], places: int, capacity: int) -> bool:
    """Whether every game gets one of its places with at most `capacity` games a place
    (augmenting paths, Kuhn's algorithm, over `capacity` copies of each place)."""
    holder: dict[tuple[int, int], int] = {}

    def place(game: int, seen: set[tuple[int, int]]) -> bool:
        for where in options[game]:
            for copy in range(capacity):
                slot = (where, copy)
                if slot in seen:
                    continue
                seen.add(slot)
                if slot not in holder or place(holder[slot], seen):
                    holder[slot] = game
                    return True
        return False

    return all(place(game, set()) for game in range(len(options)))


def place_bounds(
    players_of_round: Sequence[Iterable[Player]],
    tables: Sequence[int],
    fixed: Mapping[tuple[Player, int], int],
    forbidden: Collection[tuple[Player, int, int]],
    judges: Sequence[Sequence[Hashable | None]],
) -> tuple[dict[Player, int], dict[Player, int]]:
    """Every player's bound at one table and with one judge over the rounds he plays: the least
    any numbering of the tables can give him. `fixed[player, r]` is his table in a played round
    (it stays), `forbidden` his (player, round, table) placements not allowed (judge
    conflicts), `judges[r][t]` the judge of a table (None: none). A round where a table open to
    him has no judge may spare him a judge, so it counts for no judge."""
    at_table: dict[Player, list[frozenset[int]]] = {}
    with_judge: dict[Player, list[frozenset[Hashable]]] = {}
    for r, players in enumerate(players_of_round):
        judge_of = judges[r] if r < len(judges) else ()
        for player in players:
            if (player, r) in fixed:
                allowed = frozenset({fixed[player, r]})
            else:
                allowed = frozenset(t for t in range(tables[r]) if (player, r, t) not in forbidden)
            at_table.setdefault(player, []).append(allowed)
            named = [judge_of[t] if t < len(judge_of) else None for t in sorted(allowed)]
            judged = with_judge.setdefault(player, [])
            if named and None not in named:
                judged.append(frozenset(j for j in named if j is not None))
    return (
        {player: fewest_at_one_place(games) for player, games in at_table.items()},
        {player: fewest_at_one_place(games) for player, games in with_judge.items()},
    )
