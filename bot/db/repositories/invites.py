from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import InviteRow
from bot.db.repositories.tournaments import as_read, as_stored
from domain.invites import Invite, InviteKind


def _to_invite(row: InviteRow) -> Invite:
    return Invite(
        row.token,
        InviteKind(row.kind),
        row.tournament_id,
        row.team_id,
        as_read(row.created_at),
        row.used_by,
    )


class SqlInviteRepository:
    def __init__(self, session: AsyncSession) -> None:
        self._session = session

    async def get(self, token: str) -> Invite | None:
        row = await self._session.get(InviteRow, token)
        return _to_invite(row) if row else None

    async def find(
        self, kind: InviteKind, tournament_id: int | None, team_id: int | None = None
    ) -> Invite | None:
        """The shared link of this kind (registration, a team's), if one was made."""
        row = await self._session.scalar(
            select(InviteRow).where(
                InviteRow.kind == kind.value,
                InviteRow.tournament_id == tournament_id,
                InviteRow.team_id == team_id
                if team_id is not None
                else InviteRow.team_id.is_(None),
                InviteRow.used_by.is_(None),
            )
        )
        return _to_invite(row) if row else None

    async def add(self, invite: Invite) -> None:
        self._session.add(
            InviteRow(
                token=invite.token,
                kind=invite.kind.value,
                tournament_id=invite.tournament_id,
                team_id=invite.team_id,
                created_at=as_stored(invite.created_at),
                used_by=invite.used_by,
            )
        )
        await self._session.flush()

    async def mark_used(self, token: str, user_id: int) -> None:
        row = await self._session.get(InviteRow, token)
        if row is not None:
            row.used_by = user_id
            await self._session.flush()
