from __future__ import annotations

from dataclasses import replace

from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import TournamentRow
from domain.tournament import Tournament, TournamentState


def _to_tournament(row: TournamentRow) -> Tournament:
    return Tournament(
        id=row.id,
        title=row.title,
        regulation_id=row.regulation_id,
        state=TournamentState(row.state),
        timezone=row.timezone,
        created_by=row.created_by,
        created_at=row.created_at,
        city=row.city,
        venue=row.venue,
        channel_id=row.channel_id,
        current_stage=row.current_stage,
    )


class SqlTournamentRepository:
    def __init__(self, session: AsyncSession) -> None:
        self._session = session

    async def get(self, tournament_id: int) -> Tournament | None:
        row = await self._session.get(TournamentRow, tournament_id)
        return _to_tournament(row) if row else None

    async def add(self, tournament: Tournament) -> Tournament:
        """Store a new tournament; its id is given by the database."""
        row = TournamentRow(
            title=tournament.title,
            regulation_id=tournament.regulation_id,
            state=tournament.state.value,
            timezone=tournament.timezone,
            created_by=tournament.created_by,
            created_at=tournament.created_at,
            city=tournament.city,
            venue=tournament.venue,
            channel_id=tournament.channel_id,
            current_stage=tournament.current_stage,
        )
        self._session.add(row)
        await self._session.flush()
        return replace(tournament, id=row.id)
