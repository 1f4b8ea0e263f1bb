"""Protocol drafts, confirmed protocols, their corrections and the stored standings.

Everything is stored as JSON: a draft with the screen's tools, a protocol in the draft's
shape (seat by seat), the standings as the rules engine computed them. Points are written as
decimal strings, so they come back exactly.
"""

from __future__ import annotations

import functools
import json
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any, cast

from sqlalchemy import Table, bindparam, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models.protocols import (
    ProtocolCorrectionRow,
    ProtocolDraftRow,
    ProtocolRow,
    StandingsRow,
)
from bot.db.models.rounds import GameRow, RoundRow, StageRow
from bot.db.repositories.protocol_reads import screen_read
from bot.db.repositories.rounds import round_of_game
from domain.cards import Role, Side
from domain.game_end import GameEnd
from domain.protocol import FirstKill, Protocol, ProtocolDraft, Removal, SeatDraft, SeatRecord
from domain.protocol_screen import Mode, Screen
from domain.rounds import GameState, ProtocolCorrection
from domain.services.protocol_reads import ProtocolScreenRead
from domain.standings import GameRecord

# --- the stored form of drafts and protocols -------------------------------------------------


def _draft_json(draft: ProtocolDraft) -> dict[str, Any]:
    kill = draft.first_kill
    return {
        "seats": [
            {
                "player": seat.player,
                "role": seat.role.value if seat.role else None,
                "fouls": seat.fouls,
                "removed": seat.removed.value if seat.removed else None,
                "extra": str(seat.extra),
                # Only where there are any: older bodies (and most games) have none.
                **({"technical": seat.technical} if seat.technical else {}),
            }
            for seat in draft.seats
        ],
        "winner": draft.winner.value if draft.winner else None,
        "first_kill": {"seat": kill.seat, "night": kill.night} if kill else None,
        "best_move_by": draft.best_move_by,
        "best_move": list(draft.best_move) if draft.best_move is not None else None,
        "ended_at": draft.ended_at.astimezone(UTC).isoformat() if draft.ended_at else None,
        "end": draft.end.value if draft.end else None,
    }


def _draft(data: dict[str, Any]) -> ProtocolDraft:
    kill = data["first_kill"]
    return ProtocolDraft(
        seats=tuple(
            SeatDraft(
                player=seat["player"],
                role=Role(seat["role"]) if seat["role"] else None,
                fouls=seat["fouls"],
                removed=Removal(seat["removed"]) if seat["removed"] else None,
                extra=Decimal(seat["extra"]),
                technical=seat.get("technical", 0),
            )
            for seat in data["seats"]
        ),
        winner=Side(data["winner"]) if data["winner"] else None,
        first_kill=FirstKill(kill["seat"], kill["night"]) if kill else None,
        best_move_by=data["best_move_by"],
        best_move=tuple(data["best_move"]) if data["best_move"] is not None else None,
        # Stored since the protocol records the end of the game; older bodies have none.
        ended_at=datetime.fromisoformat(ended) if (ended := data.get("ended_at")) else None,
        # Stored since the protocol records how the game ended.
        end=GameEnd(end) if (end := data.get("end")) else None,
    )


def protocol_json(protocol: Protocol) -> str:
    """A protocol as stored (and as the corrections audit shows it)."""
    return json.dumps(_draft_json(ProtocolDraft.from_protocol(protocol)), ensure_ascii=False)


# Every result of a 300-player day, and then some (a protocol is a few kilobytes).
PARSED_PROTOCOLS = 4096


@functools.lru_cache(maxsize=PARSED_PROTOCOLS)
def _protocol(text: str) -> Protocol:
    """A stored protocol's body read back. Kept by its text (a `Protocol` is immutable and the
    same text always reads the same), so the standings, which read every result of the
    tournament on each change, parse only the results they have not read before; a corrected
    protocol is another text, read anew."""
    draft = _draft(json.loads(text))
    assert draft.winner is not None and draft.first_kill is not None
    return Protocol(
        seats=tuple(
            SeatRecord(
                s.player or "", s.role or Role.CIVILIAN, s.fouls, s.removed, s.extra, s.technical
            )
            for s in draft.seats
        ),
        winner=draft.winner,
        first_killed=draft.first_kill.seat,
        first_killed_night=draft.first_kill.night,
        best_move=draft.best_move or (),
        ended_at=draft.ended_at,
        end=draft.end,
    )


def stored_protocol(text: str) -> Protocol:
    """A stored protocol's body read back (cached by its text)."""
    return _protocol(text)


def _screen_json(screen: Screen) -> str:
    return json.dumps(
        {
            "draft": _draft_json(screen.draft),
            "mode": screen.mode.value,
            "role_tool": screen.role_tool.value if screen.role_tool else None,
            "subtract": screen.subtract,
            "disqualify": screen.disqualify,
            "night": screen.night,
            "extra_seat": screen.extra_seat,
        },
        ensure_ascii=False,
    )


def _screen(text: str) -> Screen:
    data = json.loads(text)
    return Screen(
        draft=_draft(data["draft"]),
        mode=Mode(data["mode"]),
        role_tool=Role(data["role_tool"]) if data["role_tool"] else None,
        subtract=data["subtract"],
        disqualify=data["disqualify"],
        night=data["night"],
        # Drafts stored before the extra-points picker have no picked seat.
        extra_seat=data.get("extra_seat"),
    )


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


# A press's write, built once (it runs thirty times a round's second; the values are bound),
# on the table: an ORM-enabled update would synchronize the session's loaded drafts, a third of
# the statement's CPU, and every read of a draft refreshes it from the row (populate_existing).
_DRAFTS = cast(Table, ProtocolDraftRow.__table__)
_SAVE_DRAFT = (
    update(_DRAFTS)
    .where(_DRAFTS.c.game_id == bindparam("game"), _DRAFTS.c.version == bindparam("seen"))
    .values(
        body=bindparam("screen", type_=_DRAFTS.c.body.type),
        version=bindparam("next", type_=_DRAFTS.c.version.type),
        updated_by=bindparam("by", type_=_DRAFTS.c.updated_by.type),
        updated_at=bindparam("at", type_=_DRAFTS.c.updated_at.type),
    )
)


class SqlProtocolRepository:
    def __init__(self, session: AsyncSession, rounds_touched: set[tuple[int, int]]) -> None:
        self._session = session
        # Rounds whose reminders a write changed (`UnitOfWork.rounds_touched`): a stored
        # protocol changes only its game's round's.
        self._touched = rounds_touched

    # --- drafts ------------------------------------------------------------------------------

    async def draft(self, game_id: int) -> tuple[Screen, int] | None:
        """The protocol screen of a game as last saved, and its version."""
        row = await self._session.get(ProtocolDraftRow, game_id, populate_existing=True)
        return (_screen(row.body), row.version) if row else None

    async def screen_read(self, game_id: int, user_id: int) -> ProtocolScreenRead | None:
        """The game's protocol screen with everything a press needs, in two statements."""
        return await screen_read(self._session, game_id, user_id, _screen, _protocol)

    async def add_draft(self, game_id: int, screen: Screen, user_id: int, now: datetime) -> bool:
        """Start a game's draft; False when someone started it first."""
        row = ProtocolDraftRow(
            game_id=game_id,
            body=_screen_json(screen),
            version=1,
            updated_by=user_id,
            updated_at=now,
        )
        try:
            # A savepoint: losing the race to the other judge keeps the rest of the transaction.
            async with self._session.begin_nested():
                self._session.add(row)
        except IntegrityError:
            return False
        return True

    async def save_draft(
        self, game_id: int, screen: Screen, version: int, user_id: int, now: datetime
    ) -> bool:
        """Store the screen if the draft is still at `version`; False if it moved on meanwhile."""
        result = await self._session.execute(
            _SAVE_DRAFT,
            {
                "game": game_id,
                "seen": version,
                "screen": _screen_json(screen),
                "next": version + 1,
                "by": user_id,
                "at": now.astimezone(UTC),
            },
        )
        return result.rowcount == 1  # type: ignore[attr-defined]

    async def drop_draft(self, game_id: int) -> None:
        row = await self._session.get(ProtocolDraftRow, game_id)
        if row is not None:
            await self._session.delete(row)
            await self._session.flush()

    # --- confirmed protocols -----------------------------------------------------------------

    async def advance_game(
        self, game_id: int, version: int, protest_until: datetime | None
    ) -> bool:
        """Mark the game confirmed at the next version, if it still is at `version`.

        The conditional UPDATE is the guard against two confirmations at the same moment:
        only one of them finds the old version.
        """
        values: dict[str, Any] = {"state": GameState.CONFIRMED.value, "version": version + 1}
        if protest_until is not None:
            values["protest_until"] = protest_until.astimezone(UTC)
        result = await self._session.execute(
            update(GameRow).where(GameRow.id == game_id, GameRow.version == version).values(values)
        )
        return result.rowcount == 1  # type: ignore[attr-defined]

    async def protocol(self, game_id: int) -> Protocol | None:
        row = await self._session.get(ProtocolRow, game_id, populate_existing=True)
        return _protocol(row.body) if row else None

    async def store(self, game_id: int, protocol: Protocol, user_id: int, now: datetime) -> None:
        """Store the game's protocol (replacing the one a correction changes)."""
        row = await self._session.get(ProtocolRow, game_id)
        if row is None:
            row = ProtocolRow(game_id=game_id)
            self._session.add(row)
        row.body = protocol_json(protocol)
        row.game_end = protocol.end.value if protocol.end else None
        row.ended_at = protocol.ended_at.astimezone(UTC) if protocol.ended_at else None
        row.confirmed_by = user_id
        row.confirmed_at = now
        await self._session.flush()
        self._touched.add(await round_of_game(self._session, game_id))

    async def add_correction(self, correction: ProtocolCorrection) -> None:
        self._session.add(
            ProtocolCorrectionRow(
                game_id=correction.game_id,
                corrected_by=correction.corrected_by,
                corrected_at=correction.corrected_at,
                before=protocol_json(correction.before),
                after=protocol_json(correction.after),
            )
        )
        await self._session.flush()

    async def corrections(self, game_id: int) -> list[ProtocolCorrection]:
        """Every correction of a game's protocol, oldest first."""
        rows = await self._session.scalars(
            select(ProtocolCorrectionRow)
            .where(ProtocolCorrectionRow.game_id == game_id)
            .order_by(ProtocolCorrectionRow.id)
        )
        return [
            ProtocolCorrection(
                row.game_id,
                row.corrected_by,
                _utc(row.corrected_at),
                _protocol(row.before),
                _protocol(row.after),
            )
            for row in rows
        ]

    async def results(self, tournament_id: int) -> list[GameRecord]:
        """Every confirmed protocol of the tournament, as the standings count them."""
        rows = await self._session.execute(
            select(StageRow.stage, RoundRow.number, GameRow.table_number, ProtocolRow.body)
            .join(GameRow, ProtocolRow.game_id == GameRow.id)
            .join(RoundRow, GameRow.round_id == RoundRow.id)
            .join(StageRow, RoundRow.stage_id == StageRow.id)
            .where(StageRow.tournament_id == tournament_id)
        )
        return [
            GameRecord(stage, number, table, _protocol(body)) for stage, number, table, body in rows
        ]

    # --- standings ---------------------------------------------------------------------------

    async def start_standings(self, tournament_id: int) -> None:
        """Make sure the tournament has its standings row (the lock results take)."""
        if await self._session.get(StandingsRow, tournament_id) is None:
            self._session.add(StandingsRow(tournament_id=tournament_id, version=0))
            await self._session.flush()

    async def lock_standings(self, tournament_id: int) -> int:
        """Take the tournament's results lock for this transaction; the new standings version.

        Run it before reading any result: a second confirmation in the same tournament waits
        here until the first commits, and then reads its protocol too.
        """
        await self._session.execute(
            update(StandingsRow)
            .where(StandingsRow.tournament_id == tournament_id)
            .values(version=StandingsRow.version + 1)
        )
        version = await self._session.scalar(
            select(StandingsRow.version).where(StandingsRow.tournament_id == tournament_id)
        )
        if version is None:
            raise LookupError(f"tournament {tournament_id} has no standings row")
        return version
