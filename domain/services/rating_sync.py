"""Keeping the ratings current, inside the transaction that changes what they depend on.

Every change a rating depends on calls one of these before its unit of work commits, so the
ratings and the change are committed together or not at all (a restart mid-way leaves both
as they were): a confirmed protocol (`after_game`: incremental when it is the last game in
the rating's order, else a recompute from it), a correction or annulment (`after_game`), a
merge or a tournament rated on/off (`recompute` from the first affected game). The rating's
lock row makes these go one after another.

The recompute compares the rated games in their order (tournament day, tournament id, stage
order, round, table; game id) with the games the stored events hold, and rebuilds from the
first position where they differ (or the `hint`, a game whose content changed): the ratings
before it come from the stored events, the games from it on are rated anew. The result is
the same as a recompute from scratch (`domain.season.rating.compute_ratings`), whatever the
order in which things happened.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from domain.season.persons import RatedPlace
from domain.season.rating import DEFAULT_RULES, RatedGame, RatingChange, rate_game
from domain.season.series_points import category_stars, stored_points_table
from domain.services.ports import UnitOfWork

OrderKey = tuple[int, int, int, int, int]


async def _keys(uow: UnitOfWork, places: Sequence[RatedPlace]) -> dict[int, OrderKey]:
    """Each game's position key: (day, tournament, stage order, round, table)."""
    stage_orders: dict[int, dict[str, int]] = {}
    keys: dict[int, OrderKey] = {}
    for place in places:
        orders = stage_orders.get(place.tournament_id)
        if orders is None:
            tournament = await uow.tournaments.get(place.tournament_id)
            stages = tournament.regulation.stages if tournament is not None else ()
            orders = stage_orders[place.tournament_id] = {
                stage.id: index for index, stage in enumerate(stages)
            }
        keys[place.game_id] = (
            place.day.toordinal(),
            place.tournament_id,
            orders.get(place.stage, len(orders)),
            place.round,
            place.table,
        )
    return keys


async def ordered_games(
    uow: UnitOfWork, tournament_ids: Collection[int] | None = None
) -> list[tuple[OrderKey, RatedPlace]]:
    """The rated games (or every counted game of these tournaments) in the rating's order."""
    places = await uow.ratings.rated_places(tournament_ids)
    keys = await _keys(uow, places)
    return sorted(((keys[p.game_id], p) for p in places), key=lambda kp: (kp[0], kp[1].game_id))


async def _rate(
    uow: UnitOfWork, ordered: Sequence[tuple[OrderKey, RatedPlace]], first: int
) -> None:
    """Rate the games from position `first` on, from the ratings the events before it end at."""
    ratings = await uow.ratings.ratings_before(first)
    affected = await uow.ratings.persons_from(first)
    await uow.ratings.drop_from(first)
    tail = ordered[first:]
    seats = await uow.ratings.game_seats([place.game_id for _, place in tail])
    events: list[tuple[int, int, RatingChange]] = []
    for position, (key, place) in enumerate(tail, start=first):
        at_table, winner = seats.get(place.game_id, ((), "red"))
        game = RatedGame(key, place.game_id, place.tournament_id, at_table, winner)
        for change in rate_game(ratings, game):
            events.append((position, place.tournament_id, change))
            affected.add(change.person_id)
    await uow.ratings.add_events(events)
    await uow.ratings.store_ratings(affected, ratings)
    await uow.ratings.set_games(len(ordered))


async def recompute(uow: UnitOfWork, hint: int | None = None, *, scratch: bool = False) -> int:
    """Bring the ratings up to date from the first position that changed (at the latest
    `hint`; `scratch`: from the first game); the number of rated games. Takes the lock."""
    await uow.ratings.lock()
    if scratch:
        await uow.ratings.clear()
    ordered = await ordered_games(uow)
    stored = await uow.ratings.event_games()
    first = next(
        (i for i, (a, (_, b)) in enumerate(zip(stored, ordered, strict=False)) if a != b.game_id),
        min(len(stored), len(ordered)),
    )
    if hint is not None:
        first = min(first, hint)
    if first < len(ordered) or len(stored) != len(ordered):
        await _rate(uow, ordered, first)
    return len(ordered)


async def after_game(uow: UnitOfWork, tournament_id: int, game_id: int) -> None:
    """A game of the tournament was confirmed, corrected or annulled: its rating changes.

    A new game that comes after every rated game is rated alone (the common case: the
    ratings of its ten players read, twenty events written); anything else recomputes from
    the game's position."""
    season = await uow.season.tournament(tournament_id)
    if season is None or not season.rated:
        return
    games = await uow.ratings.lock()
    last = await uow.ratings.last_event()
    rated_before = await uow.ratings.first_seq(game_id=game_id)
    if rated_before is None and await _rate_last(uow, tournament_id, game_id, last, games):
        return
    await recompute(uow, hint=rated_before)


async def _rate_last(
    uow: UnitOfWork,
    tournament_id: int,
    game_id: int,
    last: tuple[int, int, int] | None,
    games: int,
) -> bool:
    """Rate a new game alone if it is the last in the order; False when it is not."""
    tournaments = {tournament_id, last[2]} if last is not None else {tournament_id}
    ordered = await ordered_games(uow, tournaments)
    keys = {place.game_id: (key, place) for key, place in ordered}
    if game_id not in keys or (last is not None and last[1] not in keys):
        return game_id not in keys  # an uncounted game changes nothing
    key = keys[game_id][0]
    if last is not None and (keys[last[1]][0], last[1]) >= (key, game_id):
        return False
    position = last[0] + 1 if last is not None else 0
    if position != games:
        return False
    at_table, winner = (await uow.ratings.game_seats([game_id])).get(game_id, ((), "red"))
    ratings = await uow.ratings.ratings([seat.person_id for seat in at_table])
    changes = rate_game(ratings, RatedGame(key, game_id, tournament_id, at_table, winner))
    await uow.ratings.add_events((position, tournament_id, change) for change in changes)
    await uow.ratings.store_ratings({change.person_id for change in changes}, ratings)
    await uow.ratings.set_games(position + 1)
    return True


async def set_category(
    uow: UnitOfWork, tournament_id: int, *, before_games: bool = False
) -> int | None:
    """Set the tournament's category (stars) from its participants' average overall rating
    (those without a rated game count at the start; `before_games`: their ratings before the
    tournament's first rated game, for a tournament imported after it was played); the
    stars, None for no participant."""
    season = await uow.season.tournament(tournament_id)
    if season is None:
        return None
    participants = await uow.participants.of_tournament(tournament_id)
    persons = [p.person_id for p in participants if p.playing and p.person_id is not None]
    if not persons:
        return None
    first = await uow.ratings.first_seq(tournament_id=tournament_id) if before_games else None
    if first is not None:
        ratings = await uow.ratings.ratings_before(first)
    else:
        ratings = await uow.ratings.ratings(persons)
    start = DEFAULT_RULES.start
    average = sum(ratings[p].overall if p in ratings else start for p in persons) / len(persons)
    series = await uow.season.series(season.series_id) if season.series_id else None
    stars = category_stars(stored_points_table(series.points_table if series else None), average)
    await uow.season.set_tournament(
        tournament_id, category_stars=stars, category_rating=round(average, 2)
    )
    return stars
