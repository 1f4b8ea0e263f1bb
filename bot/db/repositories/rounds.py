"""Stages, rounds, table games and seats, read back as `domain.rounds` objects."""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping, Sequence
from datetime import UTC, datetime
from typing import cast

from sqlalchemy import Table, delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models.protocols import ProtocolRow
from bot.db.models.rounds import GameRow, GameSeatRow, RoundRow, StageRow
from bot.db.repositories.memo import TransactionMemo
from domain.rounds import (
    GameInRound,
    GamePlace,
    GameState,
    Round,
    RoundSeating,
    SeatedStage,
    TableGame,
)


def _utc(moment: datetime | None) -> datetime | None:
    # SQLite hands back naive datetimes; everything is stored in UTC.
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)


def _game(row: GameRow, players: tuple[int, ...]) -> TableGame:
    return TableGame(
        id=row.id,
        table=row.table_number,
        players=players,
        judge_id=row.judge_id,
        state=GameState(row.state),
        version=row.version,
        protest_until=_utc(row.protest_until),
    )


def game_of_rows(
    game: GameRow, round_row: RoundRow, stage: StageRow, players: tuple[int, ...]
) -> GameInRound:
    """A table game with where it sits, from its rows and its players in seat order."""
    return GameInRound(
        tournament_id=stage.tournament_id,
        stage=stage.stage,
        round_number=round_row.number,
        published=round_row.published_at is not None,
        game=_game(game, players),
        published_at=_utc(round_row.published_at),
    )


async def round_of_game(session: AsyncSession, game_id: int) -> tuple[int, int]:
    """The tournament and the round a table game belongs to."""
    found = (
        await session.execute(
            select(StageRow.tournament_id, RoundRow.id)
            .join(RoundRow, RoundRow.stage_id == StageRow.id)
            .join(GameRow, GameRow.round_id == RoundRow.id)
            .where(GameRow.id == game_id)
        )
    ).first()
    if found is None:
        raise LookupError(f"no game {game_id}")
    return found[0], found[1]


# What `game_places` reads.
# The seats' table, for the inserts that make no ORM object per seat.
_SEATS = cast(Table, GameSeatRow.__table__)
_PLACES = frozenset(table.__tablename__ for table in (StageRow, RoundRow, GameRow, ProtocolRow))


class SqlRoundRepository:
    def __init__(
        self, session: AsyncSession, reminders_touched: set[int], memo: TransactionMemo
    ) -> None:
        self._session = session
        # Tournaments whose reminder facts a write changed (`UnitOfWork.reminders_touched`):
        # seats, judges and publications; the live game and protocol drafts write none of them.
        self._touched = reminders_touched
        self._memo = memo

    async def _touch_round(self, round_id: int) -> None:
        tournament_id = await self._session.scalar(
            select(StageRow.tournament_id)
            .join(RoundRow, RoundRow.stage_id == StageRow.id)
            .where(RoundRow.id == round_id)
        )
        if tournament_id is not None:
            self._touched.add(tournament_id)

    async def stage(
        self, tournament_id: int, stage: str, round_ids: Collection[int] | None = None
    ) -> SeatedStage | None:
        """The seated stage with every round (or only those of `round_ids` that are in it),
        game and seat."""
        row = await self._session.scalar(
            select(StageRow).where(StageRow.tournament_id == tournament_id, StageRow.stage == stage)
        )
        if row is None:
            return None
        rounds_of_stage = select(RoundRow).where(RoundRow.stage_id == row.id)
        if round_ids is not None:
            rounds_of_stage = rounds_of_stage.where(RoundRow.id.in_(round_ids))
        round_rows = (await self._session.scalars(rounds_of_stage.order_by(RoundRow.number))).all()
        game_rows = (
            await self._session.scalars(
                select(GameRow)
                .where(GameRow.round_id.in_([r.id for r in round_rows]))
                .order_by(GameRow.round_id, GameRow.table_number)
            )
        ).all()
        players = await self._players([game.id for game in game_rows])
        games_of: dict[int, list[TableGame]] = {}
        for game in game_rows:
            games_of.setdefault(game.round_id, []).append(_game(game, players.get(game.id, ())))
        rounds = tuple(
            Round(
                id=r.id,
                number=r.number,
                games=tuple(games_of.get(r.id, ())),
                sit_outs=tuple(json.loads(r.sit_outs)),
                published_at=_utc(r.published_at),
            )
            for r in round_rows
        )
        return SeatedStage(row.id, row.tournament_id, row.stage, row.seed, rounds)

    async def game_places(self, tournament_id: int, stage: str | None = None) -> list[GamePlace]:
        """Every game of the tournament (of one stage if `stage` is given) with where it is
        played, whether its protocol is stored and its protest window: one query, no seats,
        once per transaction until it writes a game or a protocol (a confirmation asks for
        the standings, the round's closing and the lot alert)."""
        places = await self._memo.read(
            ("game places", tournament_id), _PLACES, lambda: self._places(tournament_id)
        )
        return [place for place in places if stage is None or place.stage == stage]

    async def _places(self, tournament_id: int) -> list[GamePlace]:
        query = (
            select(
                StageRow.stage,
                RoundRow.number,
                GameRow.table_number,
                GameRow.id,
                ProtocolRow.game_id,
                GameRow.protest_until,
            )
            .join(RoundRow, RoundRow.stage_id == StageRow.id)
            .join(GameRow, GameRow.round_id == RoundRow.id)
            .outerjoin(ProtocolRow, ProtocolRow.game_id == GameRow.id)
            .where(StageRow.tournament_id == tournament_id)
            .order_by(StageRow.id, RoundRow.number, GameRow.table_number)
        )
        rows = await self._session.execute(query)
        return [
            GamePlace(stage_id, number, table, game_id, protocol is not None, _utc(until))
            for stage_id, number, table, game_id, protocol, until in rows
        ]

    async def _players(self, game_ids: Sequence[int]) -> dict[int, tuple[int, ...]]:
        if not game_ids:
            return {}
        rows = await self._session.execute(
            select(GameSeatRow.game_id, GameSeatRow.participant_id)
            .where(GameSeatRow.game_id.in_(game_ids))
            .order_by(GameSeatRow.game_id, GameSeatRow.seat)
        )
        players: dict[int, list[int]] = {}
        for game_id, participant_id in rows:
            players.setdefault(game_id, []).append(participant_id)
        return {game_id: tuple(ids) for game_id, ids in players.items()}

    async def add_stage(
        self,
        tournament_id: int,
        stage: str,
        seed: int,
        created_at: datetime,
        rounds: Sequence[tuple[RoundSeating, tuple[int | None, ...]]],
    ) -> SeatedStage | None:
        """Store a stage's seating: each round's tables with their judges, and its sit-outs.

        None when the stage was seated meanwhile (its first seating stands).
        """
        row = StageRow(tournament_id=tournament_id, stage=stage, seed=seed, created_at=created_at)
        try:
            # A savepoint, so losing the race keeps the transaction usable.
            async with self._session.begin_nested():
                self._session.add(row)
        except IntegrityError:
            return None
        for number, (seating, judges) in enumerate(rounds, start=1):
            round_row = RoundRow(stage_id=row.id, number=number, sit_outs="[]")
            self._session.add(round_row)
            await self._session.flush()
            for table, judge in enumerate(judges, start=1):
                self._session.add(
                    GameRow(
                        round_id=round_row.id,
                        table_number=table,
                        judge_id=judge,
                        state=GameState.OPEN.value,
                        version=0,
                    )
                )
            await self._session.flush()
            await self.seat_round(round_row.id, seating)
        self._touched.add(tournament_id)
        stored = await self.stage(tournament_id, stage)
        assert stored is not None
        return stored

    async def add_played_stage(
        self,
        tournament_id: int,
        stage: str,
        seed: int,
        created_at: datetime,
        games: Mapping[tuple[int, int], Sequence[int]],
    ) -> dict[tuple[int, int], int]:
        """Store the games a stage played at their own round and table numbers (an imported
        tournament): rounds published at `created_at`, games without judges and still open
        until their protocols are stored. The game ids by (round, table)."""
        row = StageRow(tournament_id=tournament_id, stage=stage, seed=seed, created_at=created_at)
        self._session.add(row)
        await self._session.flush()
        ids: dict[tuple[int, int], int] = {}
        for number in sorted({round_number for round_number, _ in games}):
            round_row = RoundRow(
                stage_id=row.id,
                number=number,
                sit_outs="[]",
                published_at=created_at.astimezone(UTC),
            )
            self._session.add(round_row)
            await self._session.flush()
            tables = sorted(table for round_number, table in games if round_number == number)
            for table in tables:
                game = GameRow(
                    round_id=round_row.id,
                    table_number=table,
                    judge_id=None,
                    state=GameState.OPEN.value,
                    version=0,
                )
                self._session.add(game)
                await self._session.flush()
                for seat, participant_id in enumerate(games[(number, table)], start=1):
                    self._session.add(
                        GameSeatRow(game_id=game.id, seat=seat, participant_id=participant_id)
                    )
                ids[(number, table)] = game.id
        await self._session.flush()
        self._touched.add(tournament_id)
        return ids

    async def seat_round(self, round_id: int, seating: RoundSeating) -> None:
        """Put the round's players in their seats anew (games keep their ids and judges).

        A seating with fewer tables drops the round's last games (a round not published yet
        whose players no longer fill its tables).
        """
        games = (
            await self._session.scalars(
                select(GameRow).where(GameRow.round_id == round_id).order_by(GameRow.table_number)
            )
        ).all()
        await self._session.execute(
            delete(GameSeatRow).where(GameSeatRow.game_id.in_([game.id for game in games]))
        )
        dropped = [game.id for game in games[len(seating.tables) :]]
        if dropped:
            await self._session.execute(delete(GameRow).where(GameRow.id.in_(dropped)))
        game_ids = [game.id for game in games[: len(seating.tables)]]
        seats = [
            {"game_id": game_id, "seat": seat, "participant_id": participant_id}
            for game_id, players in zip(game_ids, seating.tables, strict=True)
            for seat, participant_id in enumerate(players, start=1)
        ]
        if seats:
            # One statement for the round's seats, not an ORM object each: a 300-player stage's
            # 1,800 seats flushed one by one held the event loop a tenth of a second.
            await self._session.execute(insert(_SEATS), seats)
        await self._session.execute(
            update(RoundRow)
            .where(RoundRow.id == round_id)
            .values(sit_outs=json.dumps(list(seating.sit_outs)))
        )
        await self._session.flush()
        await self._touch_round(round_id)

    async def set_seed(self, stage_id: int, seed: int) -> None:
        await self._session.execute(
            update(StageRow).where(StageRow.id == stage_id).values(seed=seed)
        )

    async def set_judge(self, game_id: int, judge_id: int | None) -> None:
        await self._session.execute(
            update(GameRow).where(GameRow.id == game_id).values(judge_id=judge_id)
        )
        self._touched.add((await round_of_game(self._session, game_id))[0])

    async def mark_published(self, round_id: int, now: datetime) -> bool:
        """Record the publication; False when the round was already published."""
        result = await self._session.execute(
            update(RoundRow)
            .where(RoundRow.id == round_id, RoundRow.published_at.is_(None))
            .values(published_at=now.astimezone(UTC))
        )
        await self._touch_round(round_id)
        return result.rowcount == 1  # type: ignore[attr-defined]

    async def game(self, game_id: int) -> GameInRound | None:
        """A table game with its players and where it sits in the tournament."""
        found = await self._session.execute(
            select(GameRow, RoundRow, StageRow)
            .join(RoundRow, GameRow.round_id == RoundRow.id)
            .join(StageRow, RoundRow.stage_id == StageRow.id)
            .where(GameRow.id == game_id)
        )
        row = found.first()
        if row is None:
            return None
        game, round_row, stage = row
        players = (await self._players([game.id])).get(game.id, ())
        return game_of_rows(game, round_row, stage, players)

    async def games_of_judge(self, judge_id: int) -> list[GameInRound]:
        """The open games of published rounds this person judges, oldest round first."""
        ids = await self._session.scalars(
            select(GameRow.id)
            .join(RoundRow, GameRow.round_id == RoundRow.id)
            .where(
                GameRow.judge_id == judge_id,
                GameRow.state == GameState.OPEN.value,
                RoundRow.published_at.is_not(None),
            )
            .order_by(RoundRow.published_at, GameRow.table_number)
        )
        games = [await self.game(game_id) for game_id in ids.all()]
        return [game for game in games if game is not None]

    async def recent_games(self, tournament_id: int, rounds: int) -> list[GameInRound]:
        """Every game of the tournament's last `rounds` published rounds, newest round first."""
        round_ids = (
            await self._session.scalars(
                select(RoundRow.id)
                .join(StageRow, RoundRow.stage_id == StageRow.id)
                .where(StageRow.tournament_id == tournament_id, RoundRow.published_at.is_not(None))
                .order_by(RoundRow.published_at.desc(), RoundRow.id.desc())
                .limit(rounds)
            )
        ).all()
        ids = await self._session.scalars(
            select(GameRow.id)
            .where(GameRow.round_id.in_(round_ids))
            .order_by(GameRow.round_id.desc(), GameRow.table_number)
        )
        games = [await self.game(game_id) for game_id in ids.all()]
        return [game for game in games if game is not None]
