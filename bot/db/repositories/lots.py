"""The chief judge's lot decisions and annulled games, stored and read back."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import AnnulledGameRow, LotDecisionRow
from domain.tie_decisions import LotDecision, Tie


def _utc(moment: datetime) -> datetime:
    # SQLite hands back naive datetimes; everything is stored in UTC.
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _decision(row: LotDecisionRow) -> LotDecision:
    tie = Tie(row.unit, row.context, tuple(json.loads(row.tied)))  # type: ignore[arg-type]
    return LotDecision(
        tournament_id=row.tournament_id,
        tie=tie,
        method=row.method,  # type: ignore[arg-type]
        seed=row.seed,
        order=tuple(json.loads(row.drawn_order)),
        decided_by=row.decided_by,
        decided_at=_utc(row.decided_at),
        id=row.id,
    )


class SqlLotRepository:
    def __init__(self, session: AsyncSession) -> None:
        self._session = session

    async def of_tournament(self, tournament_id: int) -> list[LotDecision]:
        """The tournament's lot decisions, oldest first."""
        rows = await self._session.scalars(
            select(LotDecisionRow)
            .where(LotDecisionRow.tournament_id == tournament_id)
            .order_by(LotDecisionRow.id)
        )
        return [_decision(row) for row in rows]

    async def add(self, decision: LotDecision) -> LotDecision:
        row = LotDecisionRow(
            tournament_id=decision.tournament_id,
            unit=decision.tie.unit,
            context=decision.tie.context,
            tied=json.dumps(list(decision.tie.tied)),
            method=decision.method,
            seed=decision.seed,
            drawn_order=json.dumps(list(decision.order)),
            decided_by=decision.decided_by,
            decided_at=decision.decided_at.astimezone(UTC),
        )
        self._session.add(row)
        await self._session.flush()
        return _decision(row)


class SqlAnnulmentRepository:
    def __init__(self, session: AsyncSession) -> None:
        self._session = session

    async def of_tournament(self, tournament_id: int) -> set[int]:
        """The ids of the tournament's annulled games."""
        rows = await self._session.scalars(
            select(AnnulledGameRow.game_id).where(AnnulledGameRow.tournament_id == tournament_id)
        )
        return set(rows)

    async def annul(self, tournament_id: int, game_id: int, user_id: int, now: datetime) -> bool:
        """Annul the game; False when it already was (two judges deciding at once)."""
        try:
            # A savepoint: losing the race keeps the rest of the transaction.
            async with self._session.begin_nested():
                self._session.add(
                    AnnulledGameRow(
                        game_id=game_id,
                        tournament_id=tournament_id,
                        annulled_by=user_id,
                        annulled_at=now.astimezone(UTC),
                    )
                )
        except IntegrityError:
            return False
        return True
