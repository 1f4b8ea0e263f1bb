"""A series' history: earlier tournaments' files imported into it (matched to its persons by
nickname, refused when the same file came before), and the series written out (players,
ratings and results as JSON or CSV)."""

from __future__ import annotations

import csv
import hashlib
import io
import json
from collections.abc import Callable
from datetime import date
from decimal import Decimal
from typing import Any

from domain import interchange
from domain.actor import Actor
from domain.scoring import ZERO
from domain.season.clubs import normalize_name
from domain.season.series_points import series_points, stored_points_table
from domain.season.views import SeriesRow
from domain.services.access import NotFound
from domain.services.exports import store_imported
from domain.services.ports import UnitOfWork, UnitOfWorkFactory
from domain.services.rating_sync import recompute, set_category
from domain.services.season.places import tournament_places
from domain.services.season.series import SeriesService
from domain.tournament import Tournament, TournamentState
from domain.validation import Invalid

EXPORT_FORMAT = "mafiatour-series/1"
CSV_COLUMNS = (
    "person_id",
    "nickname",
    "club",
    "rating",
    "red",
    "black",
    "games",
    "tournament_id",
    "tournament",
    "starts_on",
    "category_stars",
    "place",
    "points",
    "series_points",
)


def file_digest(text: str) -> str:
    """The digest of a tournament file's content (its JSON, whatever its spacing)."""
    try:
        canonical = json.dumps(json.loads(text), sort_keys=True, ensure_ascii=False)
    except (ValueError, RecursionError):
        canonical = text
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def file_day(text: str, loaded: interchange.Tournament) -> date | None:
    """The tournament's day as its file says: a "starts_on" (or "date") field, else the day
    its first game ended; None when the file says neither."""
    try:
        data = json.loads(text)
    except ValueError:
        data = {}
    for key in ("starts_on", "date"):
        value = data.get(key) if isinstance(data, dict) else None
        if isinstance(value, str):
            try:
                return date.fromisoformat(value[:10])
            except ValueError:
                pass
    ended = [g.protocol.ended_at for g in loaded.games if g.protocol.ended_at is not None]
    return min(ended).date() if ended else None


async def _matcher(uow: UnitOfWork, series_id: int) -> Callable[[str], int | None]:
    """A nickname's person among the series' persons (compared as `normalize_name` does);
    None for a nickname nobody in the series had, or two persons had, and for a nickname
    matched already (two players of one file are two persons)."""
    tournaments = await uow.season.tournaments_of_series(series_id)
    known: dict[str, set[int]] = {}
    for participation in await uow.season.participants_of([t.tournament_id for t in tournaments]):
        known.setdefault(normalize_name(participation.nickname), set()).add(participation.person_id)
    used: set[int] = set()

    def person_of(nickname: str) -> int | None:
        persons = known.get(normalize_name(nickname), set())
        if len(persons) != 1:
            return None
        (person,) = persons
        if person in used:
            return None
        used.add(person)
        return person

    return person_of


class SeriesHistoryService:
    """Earlier tournaments' files imported into a series; the series written out (its
    tables are the series' view, `SeriesService`'s)."""

    def __init__(self, uow: UnitOfWorkFactory, series: SeriesService) -> None:
        self._uow = uow
        self._series = series

    async def import_into_series(
        self,
        owner: Actor,
        text: str,
        title: str,
        series_id: int,
        starts_on: date | None = None,
    ) -> Tournament:
        """Import an earlier tournament's file into a series, rated, in one transaction: its day
        (`starts_on`, else the file's), its players matched by nickname to the series' persons
        (else new persons), its category from their ratings before it, and every rating
        recomputed in date order. An invalid file raises `interchange.InterchangeError`; a file
        imported before (same content) `Invalid("season-import-repeated")`; nothing is stored."""
        loaded = interchange.load_tournament(text)
        digest = file_digest(text)
        day = starts_on or file_day(text, loaded) or owner.now.date()
        async with self._uow() as uow:
            if await uow.season.series(series_id) is None:
                raise NotFound(f"series {series_id}")
            existing = await uow.season.imported_as(digest)
            if existing is not None:
                raise Invalid("season-import-repeated", tournament=existing)
            person_of = await _matcher(uow, series_id)
            tournament = await store_imported(
                uow, owner, loaded, title, starts_on=day, finished=True, person_of=person_of
            )
            await uow.season.set_tournament(
                tournament.id, series_id=series_id, rated=True, import_digest=digest
            )
            await recompute(uow)
            await set_category(uow, tournament.id, before_games=True)
            await uow.commit()
            return tournament

    async def series_export(self, series_id: int) -> dict[str, Any]:
        """The series as data: its players' table, its clubs and each tournament's results (a
        hidden person shows only his nickname and places, as in the tables)."""
        view = await self._series.series_view(series_id)
        async with self._uow() as uow:
            results = await _results(
                uow, series_id, {r.person_id for r in view.players if r.hidden}
            )
        return {
            "format": EXPORT_FORMAT,
            "series": {"id": view.series_id, "title": view.title},
            "players": [_player(row) for row in view.players],
            "clubs": [
                {
                    "place": c.place,
                    "club": c.club,
                    "members": c.members,
                    "rating": round(c.rating, 2),
                }
                for c in view.clubs
            ],
            "tournaments": results,
        }


async def _results(uow: UnitOfWork, series_id: int, hidden: set[int]) -> list[dict[str, Any]]:
    """Each tournament of the series with its players' places, points and series points."""
    series = await uow.season.series(series_id)
    assert series is not None
    table = stored_points_table(series.points_table)
    tournaments = await uow.season.tournaments_of_series(series_id)
    participations = await uow.season.participants_of([t.tournament_id for t in tournaments])
    results = []
    for tournament in tournaments:
        places = await tournament_places(uow, tournament.tournament_id, tournament.state)
        finished = tournament.state == TournamentState.FINISHED.value
        lines = []
        for p in participations:
            line = places.get(p.participant_id)
            if p.tournament.tournament_id != tournament.tournament_id or not line or not line.games:
                continue
            points = series_points(table, line.place, tournament.category_stars)
            lines.append(
                {
                    "person_id": p.person_id,
                    "nickname": p.nickname,
                    "place": line.place,
                    "points": None if p.person_id in hidden else line.points,
                    "games": line.games,
                    "series_points": points if finished else ZERO,
                }
            )
        lines.sort(key=lambda line: (line["place"] or 10**6, line["nickname"]))
        day = tournament.starts_on
        results.append(
            {
                "tournament_id": tournament.tournament_id,
                "title": tournament.title,
                "starts_on": day.isoformat() if day else None,
                "state": tournament.state,
                "rated": tournament.rated,
                "category_stars": tournament.category_stars,
                "results": lines,
            }
        )
    return results


def _player(row: SeriesRow) -> dict[str, Any]:
    shown = not row.hidden
    return {
        "place": row.place,
        "person_id": row.person_id,
        "nickname": row.nickname,
        "club": row.club,
        "hidden": row.hidden,
        "rating": round(row.rating, 2) if shown else None,
        "red": round(row.red, 2) if shown else None,
        "black": round(row.black, 2) if shown else None,
        "games": row.games,
        "tournaments": row.tournaments,
        "series_points": row.series_points,
    }


def series_csv(data: dict[str, Any]) -> str:
    """The export as CSV: one row per player and tournament he played, with his ratings."""
    players = {player["person_id"]: player for player in data["players"]}
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for tournament in data["tournaments"]:
        for line in tournament["results"]:
            player = players.get(line["person_id"], {})
            writer.writerow(
                [
                    line["person_id"],
                    line["nickname"],
                    player.get("club") or "",
                    _number(player.get("rating")),
                    _number(player.get("red")),
                    _number(player.get("black")),
                    player.get("games", ""),
                    tournament["tournament_id"],
                    tournament["title"],
                    tournament["starts_on"] or "",
                    tournament["category_stars"] or "",
                    line["place"] or "",
                    _number(line["points"]),
                    _number(line["series_points"]),
                ]
            )
    return out.getvalue()


def series_json(data: dict[str, Any]) -> str:
    """The export as JSON text: points and series points as decimal numbers written exactly
    ("0.3", never 0.30000000000000004), ratings as the floats they are."""
    return json.dumps(data, ensure_ascii=False, indent=1, default=_exact)


def _exact(value: object) -> object:
    if not isinstance(value, Decimal):
        raise TypeError(f"cannot write {value!r}")
    if value == value.to_integral_value():
        return int(value)
    # A decimal of at most 15 significant digits is the shortest text of the float nearest
    # it, so that float writes it exactly; a longer one is written as its text.
    nearest = float(value)
    return nearest if Decimal(repr(nearest)) == value else str(value)


def _number(value: object) -> str:
    if isinstance(value, Decimal):
        return format(value.normalize(), "f")  # exact, without trailing zeros or an exponent
    return "" if value is None else f"{value:g}" if isinstance(value, float) else str(value)
