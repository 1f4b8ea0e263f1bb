"""The rating's storage: the rated games as the rating reads them, the rating events (one per
person, track and game, `seq` the game's position in the rating's order) and the ratings after
the last game. Everything here is derived from the confirmed protocols of rated tournaments
and rebuilt by `domain/services/season/recompute.py`."""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Sequence
from typing import Any

from sqlalchemy import delete, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import (
    AnnulledGameRow,
    GameRow,
    GameSeatRow,
    ParticipantRow,
    PersonRatingRow,
    ProtocolRow,
    RatingEventRow,
    RatingStateRow,
    RoundRow,
    StageRow,
    TournamentRow,
)
from bot.db.repositories.protocols import stored_protocol
from domain.cards import Role
from domain.player_keys import PlayerKey, named_participant
from domain.protocol import Protocol
from domain.season.persons import RatedPlace
from domain.season.rating import RatedSeat, Rating, RatingChange, Side
from domain.season.views import RatingPoint

_BLACK_ROLES = frozenset({Role.MAFIA.value, Role.DON.value})
# Rows per INSERT when events are written in bulk.
_BATCH = 5000
_STATE_ID = 1
_RATING_COLUMNS = (
    PersonRatingRow.person_id,
    PersonRatingRow.overall,
    PersonRatingRow.red,
    PersonRatingRow.black,
    PersonRatingRow.games,
    PersonRatingRow.red_games,
    PersonRatingRow.black_games,
)
_EVENT_COLUMNS = ("seq", "person_id", "track", "tournament_id", "game_id", "before", "after")


def protocol_seats(body: str) -> tuple[list[tuple[PlayerKey, str]], Side]:
    """A stored protocol's seats as (player, role) and its winner, read without building the
    whole protocol (a recompute reads every rated game)."""
    data = json.loads(body)
    draft = data.get("draft", data)
    seats = [(seat["player"] or "", seat["role"] or Role.CIVILIAN.value) for seat in draft["seats"]]
    winner: Side = "black" if draft["winner"] == "black" else "red"
    return seats, winner


def _side(role: str) -> Side:
    return "black" if role in _BLACK_ROLES else "red"


async def touch_season(session: AsyncSession) -> None:
    """Count a change of persons, series or clubs (the season's views are read anew)."""
    for _ in range(3):
        result = await session.execute(
            update(RatingStateRow)
            .where(RatingStateRow.id == _STATE_ID)
            .values(season_version=RatingStateRow.season_version + 1)
        )
        if result.rowcount == 1:  # type: ignore[attr-defined]
            return
        try:
            async with session.begin_nested():
                session.add(RatingStateRow(id=_STATE_ID, games=0, version=0, season_version=1))
            return
        except IntegrityError:
            continue


class SqlRatingRepository:
    """A unit of work's ratings."""

    def __init__(self, session: AsyncSession) -> None:
        self._session = session

    # --- the lock -----------------------------------------------------------------------------

    async def lock(self) -> int:
        """Take the rating's lock for this transaction (every rating change takes it first, so
        they go in one after another); the number of games the events hold."""
        for _ in range(3):
            result = await self._session.execute(
                update(RatingStateRow)
                .where(RatingStateRow.id == _STATE_ID)
                .values(version=RatingStateRow.version + 1)
            )
            if result.rowcount == 1:  # type: ignore[attr-defined]
                games = await self._session.scalar(
                    select(RatingStateRow.games).where(RatingStateRow.id == _STATE_ID)
                )
                return int(games or 0)
            try:
                async with self._session.begin_nested():
                    self._session.add(
                        RatingStateRow(id=_STATE_ID, games=0, version=0, season_version=0)
                    )
            except IntegrityError:
                continue
        raise RuntimeError("the rating's lock row could not be taken")

    async def set_games(self, games: int) -> None:
        await self._session.execute(
            update(RatingStateRow).where(RatingStateRow.id == _STATE_ID).values(games=games)
        )

    # --- the rated games ----------------------------------------------------------------------

    async def rated_places(self, tournament_ids: Collection[int] | None = None) -> list[RatedPlace]:
        """Every confirmed, not annulled game of the rated tournaments (or of these
        tournaments, rated or not): where it is in the rating's order."""
        query = (
            select(
                GameRow.id,
                TournamentRow.id.label("tournament_id"),
                TournamentRow.starts_on,
                TournamentRow.created_at,
                StageRow.stage,
                RoundRow.number,
                GameRow.table_number,
            )
            .select_from(ProtocolRow)
            .join(GameRow, GameRow.id == ProtocolRow.game_id)
            .join(RoundRow, RoundRow.id == GameRow.round_id)
            .join(StageRow, StageRow.id == RoundRow.stage_id)
            .join(TournamentRow, TournamentRow.id == StageRow.tournament_id)
            .where(GameRow.id.not_in(select(AnnulledGameRow.game_id)))
        )
        if tournament_ids is None:
            query = query.where(TournamentRow.rated.is_(True))
        else:
            query = query.where(TournamentRow.id.in_(tournament_ids))
        rows = await self._session.execute(query)
        return [
            RatedPlace(
                row.id,
                row.tournament_id,
                row.starts_on or row.created_at.date(),
                row.stage,
                row.number,
                row.table_number,
            )
            for row in rows
        ]

    async def game_seats(
        self, game_ids: Collection[int]
    ) -> dict[int, tuple[tuple[RatedSeat, ...], Side]]:
        """The persons at these games, with their sides, and each game's winner."""
        result: dict[int, tuple[tuple[RatedSeat, ...], Side]] = {}
        ids = list(game_ids)
        for start in range(0, len(ids), _BATCH):
            chunk = ids[start : start + _BATCH]
            bodies = await self._session.execute(
                select(ProtocolRow.game_id, ProtocolRow.body).where(ProtocolRow.game_id.in_(chunk))
            )
            parsed = {row.game_id: protocol_seats(row.body) for row in bodies}
            players = {
                number
                for seats, _ in parsed.values()
                for key, _ in seats
                if (number := named_participant(key)) is not None
            }
            persons = await self._persons_of(players)
            for game_id, (seats, winner) in parsed.items():
                rated = tuple(
                    RatedSeat(persons[number], _side(role))
                    for key, role in seats
                    if (number := named_participant(key)) in persons
                )
                result[game_id] = (rated, winner)
        return result

    async def _persons_of(self, participant_ids: Collection[int]) -> dict[int, int]:
        found: dict[int, int] = {}
        ids = list(participant_ids)
        for start in range(0, len(ids), _BATCH):
            rows = await self._session.execute(
                select(ParticipantRow.id, ParticipantRow.person_id).where(
                    ParticipantRow.id.in_(ids[start : start + _BATCH])
                )
            )
            found.update({row.id: row.person_id for row in rows if row.person_id is not None})
        return found

    async def protocols_of(self, participant_ids: Collection[int]) -> list[tuple[int, Protocol]]:
        """The counted (confirmed, not annulled) protocols of the games these participants
        sat at, or took over as substitutes: (tournament id, protocol)."""
        if not participant_ids:
            return []
        rows = await self._session.execute(
            select(StageRow.tournament_id, ProtocolRow.body)
            .select_from(ProtocolRow)
            .join(GameRow, GameRow.id == ProtocolRow.game_id)
            .join(RoundRow, RoundRow.id == GameRow.round_id)
            .join(StageRow, StageRow.id == RoundRow.stage_id)
            .where(
                GameRow.id.in_(
                    select(GameSeatRow.game_id).where(
                        or_(
                            GameSeatRow.participant_id.in_(participant_ids),
                            # A substitute plays the seats of the participant he replaced.
                            GameSeatRow.participant_id.in_(
                                select(ParticipantRow.substitute_for).where(
                                    ParticipantRow.id.in_(participant_ids),
                                    ParticipantRow.substitute_for.is_not(None),
                                )
                            ),
                        )
                    )
                ),
                GameRow.id.not_in(select(AnnulledGameRow.game_id)),
            )
        )
        return [(row.tournament_id, stored_protocol(row.body)) for row in rows]

    # --- the events ---------------------------------------------------------------------------

    async def last_event(self) -> tuple[int, int, int] | None:
        """The last rated game's position, id and tournament."""
        row = (
            await self._session.execute(
                select(RatingEventRow.seq, RatingEventRow.game_id, RatingEventRow.tournament_id)
                .order_by(RatingEventRow.seq.desc())
                .limit(1)
            )
        ).first()
        return (row.seq, row.game_id, row.tournament_id) if row else None

    async def event_games(self) -> list[int]:
        """The rated games' ids as the events hold them, by position."""
        rows = await self._session.execute(
            select(RatingEventRow.seq, RatingEventRow.game_id)
            .where(RatingEventRow.track == "overall")
            .group_by(RatingEventRow.seq, RatingEventRow.game_id)
            .order_by(RatingEventRow.seq)
        )
        return [row.game_id for row in rows]

    async def ratings_before(self, seq: int) -> dict[int, Rating]:
        """Everyone's ratings after the games before position `seq`."""
        if seq <= 0:
            return {}
        counted = (
            select(
                RatingEventRow.person_id,
                RatingEventRow.track,
                func.max(RatingEventRow.seq).label("last"),
                func.count().label("games"),
            )
            .where(RatingEventRow.seq < seq)
            .group_by(RatingEventRow.person_id, RatingEventRow.track)
            .subquery()
        )
        rows = await self._session.execute(
            select(
                counted.c.person_id, counted.c.track, counted.c.games, RatingEventRow.after
            ).join(
                RatingEventRow,
                (RatingEventRow.person_id == counted.c.person_id)
                & (RatingEventRow.track == counted.c.track)
                & (RatingEventRow.seq == counted.c.last),
            )
        )
        values: dict[int, dict[str, Any]] = {}
        for row in rows:
            person = values.setdefault(row.person_id, {})
            person[row.track] = (row.after, row.games)
        return {person: _assembled(tracks) for person, tracks in values.items()}

    async def persons_from(self, seq: int) -> set[int]:
        """The persons with an event at position `seq` or later."""
        rows = await self._session.scalars(
            select(RatingEventRow.person_id).where(RatingEventRow.seq >= seq).distinct()
        )
        return set(rows)

    async def drop_from(self, seq: int) -> None:
        """Forget the events from position `seq` on."""
        await self._session.execute(delete(RatingEventRow).where(RatingEventRow.seq >= seq))

    async def add_events(self, events: Iterable[tuple[int, int, RatingChange]]) -> None:
        """Store events: (position, tournament id, change). PostgreSQL takes them with COPY
        in the transaction's own connection (a recompute writes hundreds of thousands)."""
        rows = [
            (
                seq,
                change.person_id,
                change.track,
                tournament_id,
                change.game_id,
                change.before,
                change.after,
            )
            for seq, tournament_id, change in events
        ]
        if not rows:
            return
        connection = await self._session.connection()
        if connection.dialect.name == "postgresql" and len(rows) > _BATCH:
            raw = await connection.get_raw_connection()
            await raw.driver_connection.copy_records_to_table(  # type: ignore[union-attr]
                RatingEventRow.__tablename__, records=rows, columns=_EVENT_COLUMNS
            )
            return
        for start in range(0, len(rows), _BATCH):
            chunk = [
                dict(zip(_EVENT_COLUMNS, row, strict=True)) for row in rows[start : start + _BATCH]
            ]
            await self._session.execute(insert(RatingEventRow), chunk)

    # --- the ratings after the last game ------------------------------------------------------

    async def ratings(self, person_ids: Collection[int]) -> dict[int, Rating]:
        if not person_ids:
            return {}
        found: dict[int, Rating] = {}
        ids = list(person_ids)
        for start in range(0, len(ids), _BATCH):
            rows = await self._session.execute(
                select(*_RATING_COLUMNS).where(
                    PersonRatingRow.person_id.in_(ids[start : start + _BATCH])
                )
            )
            found.update({row[0]: Rating(*row[1:]) for row in rows})
        return found

    async def all_ratings(self) -> dict[int, Rating]:
        rows = await self._session.execute(select(*_RATING_COLUMNS))
        return {row[0]: Rating(*row[1:]) for row in rows}

    async def versions(self) -> tuple[int, int]:
        """The rating's and the season's change counters (what views are kept by)."""
        row = (
            await self._session.execute(
                select(RatingStateRow.version, RatingStateRow.season_version).where(
                    RatingStateRow.id == _STATE_ID
                )
            )
        ).first()
        return (row[0], row[1]) if row else (0, 0)

    async def touch_season(self) -> None:
        await touch_season(self._session)

    async def rank(self, overall: float) -> int:
        """The place of an overall rating among everyone rated (1: the best)."""
        better = await self._session.scalar(
            select(func.count())
            .select_from(PersonRatingRow)
            .where(PersonRatingRow.overall > overall)
        )
        return int(better or 0) + 1

    async def store_ratings(self, persons: Collection[int], ratings: dict[int, Rating]) -> None:
        """Replace the ratings of `persons` with `ratings` (a person absent from it has none)."""
        ids = list(persons)
        for start in range(0, len(ids), _BATCH):
            await self._session.execute(
                delete(PersonRatingRow).where(
                    PersonRatingRow.person_id.in_(ids[start : start + _BATCH])
                )
            )
        rows = [_row(person, ratings[person]) for person in ids if person in ratings]
        for start in range(0, len(rows), _BATCH):
            await self._session.execute(insert(PersonRatingRow), rows[start : start + _BATCH])

    async def clear(self) -> None:
        """Forget every event and rating (a recompute from scratch follows)."""
        await self._session.execute(delete(RatingEventRow))
        await self._session.execute(delete(PersonRatingRow))

    async def history(self, person_id: int) -> list[RatingPoint]:
        """The person's overall rating after each of his rated games, in order."""
        rows = await self._session.execute(
            select(RatingEventRow.tournament_id, RatingEventRow.game_id, RatingEventRow.after)
            .where(RatingEventRow.person_id == person_id, RatingEventRow.track == "overall")
            .order_by(RatingEventRow.seq)
        )
        return [RatingPoint(row.tournament_id, row.game_id, row.after) for row in rows]

    async def first_seq(
        self,
        person_ids: Sequence[int] = (),
        tournament_id: int | None = None,
        game_id: int | None = None,
    ) -> int | None:
        """The first position holding a game of these persons (or of this tournament, or
        this game)."""
        # `seq + 0`: PostgreSQL would otherwise walk the primary key from the lowest position
        # until a row matches, instead of using the index of the condition.
        query = select(func.min(RatingEventRow.seq + 0))
        if game_id is not None:
            query = query.where(RatingEventRow.game_id == game_id)
        elif tournament_id is not None:
            query = query.where(RatingEventRow.tournament_id == tournament_id)
        else:
            query = query.where(RatingEventRow.person_id.in_(person_ids))
        return await self._session.scalar(query)


def _assembled(tracks: dict[str, tuple[float, int]]) -> Rating:
    start = Rating.initial()
    overall, games = tracks.get("overall", (start.overall, 0))
    red, red_games = tracks.get("red", (start.red, 0))
    black, black_games = tracks.get("black", (start.black, 0))
    return Rating(overall, red, black, games, red_games, black_games)


def _row(person_id: int, rating: Rating) -> dict[str, Any]:
    return {
        "person_id": person_id,
        "overall": rating.overall,
        "red": rating.red,
        "black": rating.black,
        "games": rating.games,
        "red_games": rating.red_games,
        "black_games": rating.black_games,
    }
