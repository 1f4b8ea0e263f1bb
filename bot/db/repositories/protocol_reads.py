"""The protocol screen's reads in one go (`domain.services.protocol_reads`): two statements,
the game's row joined with its round, stage, tournament, the presser's staff row, the draft
and the confirmed protocol, then the seats with their nicknames."""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from sqlalchemy import Table, and_, bindparam, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models.participants import ParticipantRow
from bot.db.models.protocols import ProtocolDraftRow, ProtocolRow
from bot.db.models.rounds import GameRow, GameSeatRow, RoundRow, StageRow
from bot.db.models.staff import StaffRow
from bot.db.models.tournaments import TournamentRow
from bot.db.repositories.rounds import game_of_rows
from bot.db.repositories.tournaments import tournament_of_row
from domain.permissions import StaffRole
from domain.protocol import Protocol
from domain.protocol_screen import Screen
from domain.services.protocol_reads import ProtocolScreenRead

# Built once: a press runs them thirty times a round's second, and building a joined select
# costs more of the event loop than SQLAlchemy's compiled cache then saves (the values are
# bound at each execution).
_SCREEN = (
    select(
        GameRow,
        RoundRow,
        StageRow,
        TournamentRow,
        StaffRow.role,
        ProtocolDraftRow.body,
        ProtocolDraftRow.version,
        ProtocolRow.body,
    )
    .join(RoundRow, GameRow.round_id == RoundRow.id)
    .join(StageRow, RoundRow.stage_id == StageRow.id)
    .join(TournamentRow, TournamentRow.id == StageRow.tournament_id)
    .outerjoin(
        StaffRow,
        and_(
            StaffRow.tournament_id == StageRow.tournament_id,
            StaffRow.user_id == bindparam("user_id"),
        ),
    )
    .outerjoin(ProtocolDraftRow, ProtocolDraftRow.game_id == GameRow.id)
    .outerjoin(ProtocolRow, ProtocolRow.game_id == GameRow.id)
    .where(GameRow.id == bindparam("game_id"))
    .execution_options(populate_existing=True)
)
# The seats on the tables (no entity in it: an ORM select of columns costs the ORM's compile
# and loading steps for the same rows).
_SEAT_ROWS, _PARTICIPANT_ROWS = (
    cast(Table, GameSeatRow.__table__),
    cast(Table, ParticipantRow.__table__),
)
_SEATS = (
    select(_SEAT_ROWS.c.participant_id, _PARTICIPANT_ROWS.c.nickname)
    .outerjoin(_PARTICIPANT_ROWS, _PARTICIPANT_ROWS.c.id == _SEAT_ROWS.c.participant_id)
    .where(_SEAT_ROWS.c.game_id == bindparam("game_id"))
    .order_by(_SEAT_ROWS.c.seat)
)


async def screen_read(
    session: AsyncSession,
    game_id: int,
    user_id: int,
    parse_screen: Callable[[str], Screen],
    parse_protocol: Callable[[str], Protocol],
) -> ProtocolScreenRead | None:
    """The game's protocol screen as stored; None when there is no such game."""
    found = (await session.execute(_SCREEN, {"game_id": game_id, "user_id": user_id})).first()
    if found is None:
        return None
    game, round_row, stage, tournament, role, draft, version, protocol = found
    seats = await session.execute(_SEATS, {"game_id": game_id})
    nicknames = {participant: nickname for participant, nickname in seats}
    return ProtocolScreenRead(
        game=game_of_rows(game, round_row, stage, tuple(nicknames)),
        tournament=tournament_of_row(tournament),
        role=StaffRole(role) if role is not None else None,
        draft=(parse_screen(draft), version) if draft is not None else None,
        confirmed=parse_protocol(protocol) if protocol is not None else None,
        nicknames={p: n for p, n in nicknames.items() if n is not None},
    )
