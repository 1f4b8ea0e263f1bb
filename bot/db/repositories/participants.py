from __future__ import annotations

from collections.abc import Collection
from dataclasses import fields, replace

from sqlalchemy import func, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import ParticipantRow, UnreachableChatRow
from bot.db.repositories.memo import TransactionMemo
from bot.db.repositories.season import SqlSeasonRepository
from bot.db.repositories.tournaments import as_read, as_stored
from domain.registration import HOLDING, Participant, ParticipantStatus, Places
from domain.validation import Invalid, nickname_key

_COLUMNS = tuple(f.name for f in fields(Participant) if f.name not in ("id", "status"))


def _to_participant(row: ParticipantRow) -> Participant:
    values = {name: as_read(getattr(row, name)) for name in _COLUMNS}
    return Participant(id=row.id, status=ParticipantStatus(row.status), **values)


def _fill(row: ParticipantRow, participant: Participant) -> None:
    row.status = participant.status.value
    row.nickname_key = nickname_key(participant.nickname)
    row.club_key = nickname_key(participant.club)
    for name in _COLUMNS:
        value = getattr(participant, name)
        # A participant built anew keeps the person the stored row is linked to.
        if name != "person_id" or value is not None:
            setattr(row, name, as_stored(value))


_PARTICIPANTS = frozenset({ParticipantRow.__tablename__})
_HOLDING = ParticipantRow.status.in_(sorted(status.value for status in HOLDING))
# The index that refuses a nickname held twice at once (`ParticipantRow`).
_NICKNAME_HELD = "uq_participants_holding_nickname"


class SqlParticipantRepository:
    """A unit of work's participants. A tournament's list is read once per transaction (a
    confirmation, a registration and the replan that follows each read it two or three times)
    and read anew after it writes any participant (`TransactionMemo`)."""

    def __init__(
        self,
        session: AsyncSession,
        touched: set[tuple[int, int]],
        teams_touched: set[tuple[int, int]],
        memo: TransactionMemo,
    ) -> None:
        self._session = session
        # The participants a write changed (`UnitOfWork.participants_touched`) and the teams
        # they were and are in (`UnitOfWork.teams_touched`).
        self._touched = touched
        self._teams_touched = teams_touched
        self._memo = memo
        # The rows this transaction wrote, held: the session's identity map holds clean rows
        # weakly, and the replan that follows a write reads the participant again (by `get`).
        self._written: list[ParticipantRow] = []

    async def get(self, participant_id: int) -> Participant | None:
        row = await self._session.get(ParticipantRow, participant_id)
        return _to_participant(row) if row else None

    async def of_tournament(self, tournament_id: int) -> list[Participant]:
        """Everyone who ever registered for the tournament, in registration order."""

        async def load() -> list[Participant]:
            rows = await self._session.scalars(
                select(ParticipantRow)
                .where(ParticipantRow.tournament_id == tournament_id)
                .order_by(ParticipantRow.registered_at, ParticipantRow.id)
            )
            return [_to_participant(row) for row in rows]

        return list(await self._memo.read(("participants", tournament_id), _PARTICIPANTS, load))

    async def nicknames(self, participant_ids: Collection[int]) -> dict[int, str]:
        """The nicknames of these participants (a table's ten seats), by id."""
        if not participant_ids:
            return {}
        rows = await self._session.execute(
            select(ParticipantRow.id, ParticipantRow.nickname).where(
                ParticipantRow.id.in_(participant_ids)
            )
        )
        return {row.id: row.nickname for row in rows}

    async def seated_and_substitutes(
        self, tournament_id: int, seated: Collection[int]
    ) -> list[Participant]:
        """These participants (the seats of some games) and every substitute of the
        tournament, in registration order: enough to say who plays each seat now
        (`domain.reminder_plan.who_plays`) without reading everyone."""
        rows = await self._session.scalars(
            select(ParticipantRow)
            .where(
                ParticipantRow.tournament_id == tournament_id,
                or_(ParticipantRow.id.in_(seated), ParticipantRow.substitute_for.is_not(None)),
            )
            .order_by(ParticipantRow.registered_at, ParticipantRow.id)
        )
        return [_to_participant(row) for row in rows]

    async def rivals(
        self, tournament_id: int, nickname: str, club: str | None = None
    ) -> list[Participant]:
        """The participants holding a place whose nickname is `nickname` as the rules compare
        nicknames (`nickname_key`) or, given a `club`, whose club is it: all that the nickname
        rule and the club's quota compare a newcomer with, found by index."""
        same = ParticipantRow.nickname_key == nickname_key(nickname)
        if club is not None:
            same = or_(same, ParticipantRow.club_key == nickname_key(club))
        rows = await self._session.scalars(
            select(ParticipantRow).where(
                ParticipantRow.tournament_id == tournament_id, _HOLDING, same
            )
        )
        return [_to_participant(row) for row in rows]

    async def places(self, tournament_id: int) -> Places:
        """How many are registered and how many wait in the tournament, counted in SQL."""
        rows = await self._session.execute(
            select(ParticipantRow.status, func.count())
            .where(ParticipantRow.tournament_id == tournament_id, _HOLDING)
            .group_by(ParticipantRow.status)
        )
        counts = {status: count for status, count in rows}
        return Places(
            registered=counts.get(ParticipantStatus.REGISTERED.value, 0),
            waiting=counts.get(ParticipantStatus.WAITING.value, 0),
        )

    async def of_team(self, team_id: int) -> list[Participant]:
        """Everyone who ever joined the team, in registration order (a team's checks and its
        captain's notices read these, not the tournament's list)."""
        rows = await self._session.scalars(
            select(ParticipantRow)
            .where(ParticipantRow.team_id == team_id)
            .order_by(ParticipantRow.registered_at, ParticipantRow.id)
        )
        return [_to_participant(row) for row in rows]

    async def first_waiting(self, tournament_id: int, limit: int) -> list[Participant]:
        """The first `limit` of the tournament's waiting list, in its order (registration's),
        read in SQL: those a freed place goes to (`domain.registration.places_to_give`)."""
        if limit <= 0:
            return []
        rows = await self._session.scalars(
            select(ParticipantRow)
            .where(
                ParticipantRow.tournament_id == tournament_id,
                ParticipantRow.status == ParticipantStatus.WAITING.value,
            )
            .order_by(ParticipantRow.registered_at, ParticipantRow.id)
            .limit(limit)
        )
        return [_to_participant(row) for row in rows]

    async def substitute_of(self, participant_id: int) -> Participant | None:
        """Who took over the participant's remaining games, if anyone did."""
        row = await self._session.scalar(
            select(ParticipantRow)
            .where(ParticipantRow.substitute_for == participant_id)
            .order_by(ParticipantRow.registered_at, ParticipantRow.id)
            .limit(1)
        )
        return _to_participant(row) if row else None

    async def of_person(self, tournament_id: int, user_id: int) -> Participant | None:
        """The person's participant in the tournament (read once per transaction: a
        registration asks it for his earlier place and again for his roles)."""

        async def load() -> Participant | None:
            row = await self._session.scalar(
                select(ParticipantRow).where(
                    ParticipantRow.tournament_id == tournament_id,
                    ParticipantRow.user_id == user_id,
                )
            )
            return _to_participant(row) if row else None

        return await self._memo.read(("person", tournament_id, user_id), _PARTICIPANTS, load)

    async def plays_anywhere(self, user_id: int) -> bool:
        """Whether the person is in any tournament's list (whatever his status there)."""
        found = await self._session.scalar(
            select(ParticipantRow.id).where(ParticipantRow.user_id == user_id).limit(1)
        )
        return found is not None

    async def add(self, participant: Participant) -> Participant:
        """Store a new participant, linked to his person: the person of his Telegram account
        (created when absent, named as he registers now), a new one for an imported player."""
        if participant.person_id is None:
            participant = replace(participant, person_id=await self._person_of(participant))
        row = ParticipantRow()
        _fill(row, participant)
        self._session.add(row)
        await self._flush(participant)
        self._written.append(row)
        self._mark(participant, row.id, None)
        return replace(participant, id=row.id)

    async def _person_of(self, participant: Participant) -> int:
        persons = SqlSeasonRepository(self._session)
        club, city = participant.club or None, participant.city or None
        if participant.user_id is None:
            return await persons.add_person(
                participant.nickname, club, city, participant.registered_at
            )
        return await persons.person_for_account(
            participant.user_id, participant.nickname, club, city, participant.registered_at
        )

    async def save(self, participant: Participant) -> None:
        row = await self._session.get(ParticipantRow, participant.id)
        if row is None:
            raise LookupError(f"no participant {participant.id}")
        team_before = row.team_id
        _fill(row, participant)
        await self._flush(participant)
        self._mark(participant, participant.id, team_before)

    def _mark(self, participant: Participant, participant_id: int, team_before: int | None) -> None:
        """The participant's reminders, and his team's (the one he left too), to replan."""
        self._touched.add((participant.tournament_id, participant_id))
        for team_id in (team_before, participant.team_id):
            if team_id is not None:
                self._teams_touched.add((participant.tournament_id, team_id))

    async def _flush(self, participant: Participant) -> None:
        """Write; a nickname another participant took meanwhile (a registration racing this
        one past the rule's check) is refused as the rule refuses it."""
        try:
            await self._session.flush()
        except IntegrityError as error:
            if _NICKNAME_HELD in str(error.orig) or "nickname_key" in str(error.orig):
                raise Invalid("nickname-taken", nickname=participant.nickname) from error
            raise

    async def unreachable(self, tournament_id: int) -> set[int]:
        """The Telegram ids of the tournament's people the bot cannot write to (blocked it)."""
        rows = await self._session.scalars(
            select(ParticipantRow.user_id)
            .join(UnreachableChatRow, UnreachableChatRow.chat_id == ParticipantRow.user_id)
            .where(ParticipantRow.tournament_id == tournament_id)
        )
        return {user_id for user_id in rows if user_id is not None}
