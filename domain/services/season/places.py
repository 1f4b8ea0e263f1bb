"""A tournament's places, points and games per participant, as its standings say; the
season's views kept by the facts they were built from.

Standings are computed on each read (`domain/services/standings.py`); a series table reads
every tournament of the series, so the places are kept per tournament and per standings
version (every result, correction, annulment and lot bumps it), its state, its number of
participants and of those excluded: a finished tournament is computed once.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from decimal import Decimal

from domain.player_keys import named_participant
from domain.services.ports import UnitOfWork
from domain.services.standings import compute_current

# Tournaments whose places are kept at once (a few series' worth).
KEPT_TOURNAMENTS = 512


@dataclass(frozen=True)
class PlaceLine:
    """A participant's place (None: none yet), points and games in one tournament."""

    place: int | None
    points: Decimal
    games: int


_kept: OrderedDict[tuple[object, ...], dict[int, PlaceLine]] = OrderedDict()


async def tournament_places(
    uow: UnitOfWork, tournament_id: int, state: str, key: tuple[int, ...] | None = None
) -> dict[int, PlaceLine]:
    """Each participant's line in the tournament's standings, by participant id (`key`: the
    tournament's `standings_keys` when the caller read them for several at once)."""
    if key is None:
        key = (await uow.season.standings_keys([tournament_id]))[tournament_id]
    kept_key = (tournament_id, state, *key)
    kept = _kept.get(kept_key)
    if kept is not None:
        _kept.move_to_end(kept_key)
        return kept
    tournament = await uow.tournaments.get(tournament_id)
    if tournament is None:
        return {}
    standings = await compute_current(uow, tournament)
    lines = {
        number: PlaceLine(
            row.place if row.figures.games else None, row.figures.points, row.figures.games
        )
        for row in standings.players
        if (number := named_participant(row.id)) is not None
    }
    _kept[kept_key] = lines
    while len(_kept) > KEPT_TOURNAMENTS:
        _kept.popitem(last=False)
    return lines


# Views kept by what they were built from (`kept_view`): a series' table and profiles.
KEPT_VIEWS = 1024
_views: OrderedDict[tuple[object, ...], object] = OrderedDict()


def kept_view(key: tuple[object, ...]) -> object | None:
    """A view built before from the same facts (`key` says which), or None."""
    view = _views.get(key)
    if view is not None:
        _views.move_to_end(key)
    return view


def keep_view(key: tuple[object, ...], view: object) -> None:
    """Keep a view by the facts it was built from."""
    _views[key] = view
    while len(_views) > KEPT_VIEWS:
        _views.popitem(last=False)
