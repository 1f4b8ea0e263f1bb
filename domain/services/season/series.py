"""Series (seasons): created by an admin, tournaments attached by their organizers, rated on or
off, their points table; a series' view (calendar, players' and clubs' tables)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from domain.actor import Actor
from domain.permissions import Action, Forbidden
from domain.scoring import ZERO
from domain.season.clubs import canonical_club, club_key, club_rating, shown_name
from domain.season.persons import Person, TournamentSeason
from domain.season.rating import Rating
from domain.season.series_points import (
    SeriesPointsError,
    SeriesPointsTable,
    read_points_table,
    series_points,
    stored_points_table,
)
from domain.season.views import ClubRow, SeriesEvent, SeriesRow, SeriesView
from domain.services.access import NotFound, authorize
from domain.services.ports import UnitOfWork, UnitOfWorkFactory
from domain.services.rating_sync import recompute, set_category
from domain.services.season.places import keep_view, kept_view, tournament_places
from domain.tournament import TournamentState
from domain.validation import Invalid, clean_text

MAX_TITLE = 128
# A points table is a few hundred bytes; nothing near this is a table.
MAX_TABLE_FILE = 100_000
_UPCOMING = (TournamentState.REGISTRATION_OPEN.value, TournamentState.REGISTRATION_CLOSED.value)


class SeriesService:
    """Series: created, tournaments attached and rated, their points tables and views."""

    def __init__(self, uow: UnitOfWorkFactory) -> None:
        self._uow = uow

    async def series_list(self) -> list[tuple[int, str]]:
        """Every series: (id, title), oldest first."""
        async with self._uow() as uow:
            return [(series.id, series.title) for series in await uow.season.all_series()]

    async def create_series(self, actor: Actor, title: str, locale: str = "ru") -> int:
        """A new series (admins only); its id."""
        if not actor.is_admin:
            raise Forbidden(Action.EDIT_SETTINGS)
        name = clean_text(title)
        if not 1 <= len(name) <= MAX_TITLE:
            raise Invalid("season-series-title", max=MAX_TITLE)
        async with self._uow() as uow:
            series_id = await uow.season.add_series(name, actor.user_id, actor.now, locale)
            await uow.season.log(
                "series",
                f"series {series_id} created: {name}",
                actor.user_id,
                actor.now,
                series_id=series_id,
            )
            await uow.commit()
            return series_id

    async def attach_tournament(
        self, actor: Actor, tournament_id: int, series_id: int | None
    ) -> None:
        """Attach the tournament to a series (None: detach); its organizer or an admin."""
        async with self._uow() as uow:
            await authorize(uow, actor, tournament_id, Action.EDIT_SETTINGS)
            if series_id is not None and await uow.season.series(series_id) is None:
                raise NotFound(f"series {series_id}")
            await uow.season.set_tournament(tournament_id, series_id=series_id)
            season = await uow.season.tournament(tournament_id)
            if season is not None and season.category_stars is not None:
                # The category follows the thresholds of the series' own table.
                await set_category(uow, tournament_id, before_games=True)
            uow.changed_tournaments.add(tournament_id)
            await uow.commit()

    async def mark_rated(self, actor: Actor, tournament_id: int, rated: bool) -> None:
        """Count the tournament's games for the rating, or stop counting them; the ratings are
        recomputed from its first game in the same transaction."""
        async with self._uow() as uow:
            await authorize(uow, actor, tournament_id, Action.EDIT_SETTINGS)
            await uow.ratings.lock()
            first = await uow.ratings.first_seq(tournament_id=tournament_id)
            await uow.season.set_tournament(tournament_id, rated=rated)
            await recompute(uow, hint=first)
            # The tournament's page links its players' profiles once it is rated.
            uow.changed_tournaments.add(tournament_id)
            await uow.commit()

    async def set_points_table(self, actor: Actor, series_id: int, text: str) -> None:
        """Give the series its own series-points table (admins); an invalid file is refused
        with its problems and changes nothing."""
        if not actor.is_admin:
            raise Forbidden(Action.EDIT_SETTINGS)
        table = check_points_table(text)
        async with self._uow() as uow:
            if await uow.season.series(series_id) is None:
                raise NotFound(f"series {series_id}")
            await uow.season.set_points_table(series_id, table.to_json())
            await uow.season.log(
                "points-table",
                "series points table set",
                actor.user_id,
                actor.now,
                series_id=series_id,
            )
            await uow.commit()

    async def tournament_category(self, tournament_id: int) -> int | None:
        """The tournament's stars (set when its registration closed, or on import)."""
        async with self._uow() as uow:
            season = await uow.season.tournament(tournament_id)
            return season.category_stars if season is not None else None

    async def recompute_ratings(self) -> int:
        """Recompute every rating from scratch, in one transaction; the games rated."""
        async with self._uow() as uow:
            games = await recompute(uow, scratch=True)
            await uow.commit()
            return games

    async def series_view(self, series_id: int) -> SeriesView:
        """A series: its players' and clubs' tables and its calendar. Kept (per process) by what
        it is built from: the series and its tournaments as stored, their standings' keys and
        the rating's and season's change counters, so a read without a change since costs four
        small queries."""
        async with self._uow() as uow:
            series = await uow.season.series(series_id)
            if series is None:
                raise NotFound(f"series {series_id}")
            tournaments = await uow.season.tournaments_of_series(series_id)
            keys = await uow.season.standings_keys([t.tournament_id for t in tournaments])
            versions = await uow.ratings.versions()
            key = ("series", series, tuple(tournaments), tuple(sorted(keys.items())), *versions)
            kept = kept_view(key)
            if isinstance(kept, SeriesView):
                return kept
            tallies = await _tallies(uow, tournaments, keys, series.points_table, versions[1])
            persons = await uow.season.persons(list(tallies))
            ratings = await uow.ratings.ratings(list(tallies))
            aliases = await uow.season.aliases()
        view = SeriesView(
            series_id=series.id,
            title=series.title,
            locale=series.locale,
            players=player_rows(persons, ratings, tallies),
            clubs=club_rows(persons, ratings, aliases),
            upcoming=tuple(_event(t) for t in tournaments if t.state in _UPCOMING),
            running=tuple(
                _event(t) for t in tournaments if t.state == TournamentState.RUNNING.value
            ),
            finished=tuple(
                _event(t) for t in tournaments if t.state == TournamentState.FINISHED.value
            ),
        )
        keep_view(key, view)
        return view


def check_points_table(text: str) -> SeriesPointsTable:
    """The table of an uploaded file; `Invalid("season-points-table-invalid")` listing the
    problems otherwise."""
    if len(text) > MAX_TABLE_FILE:
        raise Invalid("season-points-table-invalid", problems=f"file: over {MAX_TABLE_FILE} bytes")
    try:
        return read_points_table(text)
    except SeriesPointsError as error:
        problems = "; ".join(f"{path}: {reason}" for path, reason in error.problems[:5])
        raise Invalid("season-points-table-invalid", problems=problems) from None


# --- the series' view ------------------------------------------------------------------------


@dataclass
class _Tally:
    games: int = 0
    tournaments: int = 0
    points: Decimal = ZERO


async def _tournament_tally(
    uow: UnitOfWork,
    tournament: TournamentSeason,
    standings: tuple[int, ...],
    table: SeriesPointsTable,
    key: tuple[object, ...],
) -> dict[int, tuple[int, Decimal]]:
    """Each person's games and series points in one tournament; kept by `key` (the
    tournament as stored, its standings' key, the points table, the season's counter)."""
    kept = kept_view(key)
    if isinstance(kept, dict):
        return kept
    places = await tournament_places(uow, tournament.tournament_id, tournament.state, standings)
    finished = tournament.state == TournamentState.FINISHED.value
    tally: dict[int, tuple[int, Decimal]] = {}
    for participation in await uow.season.participants_of([tournament.tournament_id]):
        line = places.get(participation.participant_id)
        if line is None or not line.games:
            continue
        points = series_points(table, line.place, tournament.category_stars) if finished else ZERO
        games, earned = tally.get(participation.person_id, (0, ZERO))
        tally[participation.person_id] = (games + line.games, earned + points)
    keep_view(key, tally)
    return tally


async def _tallies(
    uow: UnitOfWork,
    tournaments: Sequence[TournamentSeason],
    keys: dict[int, tuple[int, ...]],
    table_text: str | None,
    season_version: int,
) -> dict[int, _Tally]:
    """Each person's games, tournaments played and series points in these tournaments."""
    table = stored_points_table(table_text)
    tallies: dict[int, _Tally] = defaultdict(_Tally)
    for tournament in tournaments:
        if tournament.state not in (TournamentState.RUNNING.value, TournamentState.FINISHED.value):
            continue
        standings = keys[tournament.tournament_id]
        key = ("tally", tournament, standings, table_text, season_version)
        kept = await _tournament_tally(uow, tournament, standings, table, key)
        for person, (games, points) in kept.items():
            tally = tallies[person]
            tally.games += games
            tally.tournaments += 1
            tally.points += points
    return tallies


def player_rows(
    persons: dict[int, Person], ratings: dict[int, Rating], tallies: dict[int, _Tally]
) -> tuple[SeriesRow, ...]:
    """The players' table: best overall rating first (series points, then id, break ties); a
    hidden person keeps his place and shows only his nickname."""
    start = Rating.initial()

    def order(person_id: int) -> tuple[float, Decimal, int]:
        rating = ratings.get(person_id, start)
        return (-rating.overall, -tallies[person_id].points, person_id)

    rows = []
    for place, person_id in enumerate(sorted(tallies, key=order), start=1):
        person, rating, tally = (
            persons[person_id],
            ratings.get(person_id, start),
            tallies[person_id],
        )
        if person.hidden:
            rows.append(
                SeriesRow(place, person_id, person.nickname, None, 0.0, 0.0, 0.0, 0, 0, ZERO, True)
            )
            continue
        rows.append(
            SeriesRow(
                place,
                person_id,
                person.nickname,
                person.club,
                rating.overall,
                rating.red,
                rating.black,
                tally.games,
                tally.tournaments,
                tally.points,
                False,
            )
        )
    return tuple(rows)


def club_rows(
    persons: dict[int, Person], ratings: dict[int, Rating], aliases: dict[str, str]
) -> tuple[ClubRow, ...]:
    """The clubs' table: a club's members are the persons whose latest club resolves to it,
    its rating its best members' mean (`club_rating`)."""
    members: dict[str, list[float]] = defaultdict(list)
    spellings: dict[str, list[str]] = defaultdict(list)
    for person_id, person in persons.items():
        key = club_key(person.club, aliases)
        if key is not None and person_id in ratings:
            members[key].append(ratings[person_id].overall)
            spellings[key].append(canonical_club(person.club, aliases) or key)
    ranked = sorted(members.items(), key=lambda item: (-club_rating(item[1]), item[0]))
    return tuple(
        ClubRow(place, shown_name(spellings[key]), len(values), club_rating(values))
        for place, (key, values) in enumerate(ranked, start=1)
    )


def _event(tournament: TournamentSeason) -> SeriesEvent:
    return SeriesEvent(
        tournament.tournament_id,
        tournament.title,
        tournament.starts_on,
        tournament.state,
        tournament.category_stars,
        tournament.state == TournamentState.REGISTRATION_OPEN.value,
        tournament.web_path,
    )
