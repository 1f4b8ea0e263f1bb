from __future__ import annotations

from dataclasses import replace

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import TeamRow
from domain.teams import Team


def _to_team(row: TeamRow) -> Team:
    return Team(row.id, row.tournament_id, row.name, row.captain_id, row.withdrawn)


class SqlTeamRepository:
    def __init__(self, session: AsyncSession, touched: set[tuple[int, int]]) -> None:
        self._session = session
        # The teams a write changed (`UnitOfWork.teams_touched`).
        self._touched = touched

    async def get(self, team_id: int) -> Team | None:
        row = await self._session.get(TeamRow, team_id)
        return _to_team(row) if row else None

    async def of_tournament(self, tournament_id: int) -> list[Team]:
        rows = await self._session.scalars(
            select(TeamRow).where(TeamRow.tournament_id == tournament_id).order_by(TeamRow.id)
        )
        return [_to_team(row) for row in rows]

    async def add(self, team: Team) -> Team:
        row = TeamRow(
            tournament_id=team.tournament_id,
            name=team.name,
            captain_id=team.captain_id,
            withdrawn=team.withdrawn,
        )
        self._session.add(row)
        await self._session.flush()
        self._touched.add((team.tournament_id, row.id))
        return replace(team, id=row.id)

    async def save(self, team: Team) -> None:
        row = await self._session.get(TeamRow, team.id)
        if row is None:
            raise LookupError(f"no team {team.id}")
        row.name, row.captain_id, row.withdrawn = team.name, team.captain_id, team.withdrawn
        await self._session.flush()
        self._touched.add((team.tournament_id, team.id))
