"""The season's storage: persons, series, a tournament's season settings, club aliases and
the season's audit log (the ratings are `bot/db/repositories/ratings.py`)."""

from __future__ import annotations

from collections.abc import Collection
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import ColumnElement, case, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import (
    ClubAliasRow,
    ParticipantRow,
    PersonRow,
    SeasonAuditRow,
    SeasonSeriesRow,
    StandingsRow,
    TournamentRow,
)
from bot.db.repositories.ratings import touch_season
from bot.db.repositories.tournaments import as_read
from domain.season.clubs import normalize_name
from domain.season.persons import Participation, Person, Series, TournamentSeason

# A merge follows at most this many links (a person merged into one merged later).
_MERGE_HOPS = 16


def _person(row: PersonRow) -> Person:
    return Person(
        row.id, row.telegram_id, row.nickname, row.club, row.city, row.hidden, row.merged_into
    )


def _series(row: SeasonSeriesRow) -> Series:
    return Series(
        row.id, row.title, row.created_by, as_read(row.created_at), row.locale, row.points_table
    )


_PERSON_COLUMNS = (
    PersonRow.id,
    PersonRow.telegram_id,
    PersonRow.nickname,
    PersonRow.club,
    PersonRow.city,
    PersonRow.hidden,
    PersonRow.merged_into,
)
_SEASON_COLUMNS = (
    TournamentRow.id,
    TournamentRow.title,
    TournamentRow.state,
    TournamentRow.starts_on,
    TournamentRow.created_at,
    TournamentRow.series_id,
    TournamentRow.rated,
    TournamentRow.category_stars,
    TournamentRow.category_rating,
    TournamentRow.web_visibility,
)


def _season(row: Any) -> TournamentSeason:
    values = row._mapping
    return TournamentSeason(
        tournament_id=values["id"],
        title=values["title"],
        state=values["state"],
        starts_on=values["starts_on"],
        created_at=as_read(values["created_at"]),
        series_id=values["series_id"],
        rated=bool(values["rated"]),
        category_stars=values["category_stars"],
        category_rating=values["category_rating"],
        web_path=f"/t/{values['id']}" if values["web_visibility"] == "public" else None,
    )


class SqlSeasonRepository:
    """A unit of work's persons, series and season settings."""

    def __init__(self, session: AsyncSession) -> None:
        self._session = session

    # --- persons ------------------------------------------------------------------------------

    async def person(self, person_id: int) -> Person | None:
        row = await self._session.get(PersonRow, person_id)
        return _person(row) if row else None

    async def persons(self, person_ids: Collection[int]) -> dict[int, Person]:
        found: dict[int, Person] = {}
        ids = list(person_ids)
        for start in range(0, len(ids), 5000):
            rows = await self._session.execute(
                select(*_PERSON_COLUMNS).where(PersonRow.id.in_(ids[start : start + 5000]))
            )
            found.update({row[0]: Person(*row) for row in rows})
        return found

    async def kept(self, person_id: int) -> int:
        """The person a merged-away person now is (himself when never merged)."""
        for _ in range(_MERGE_HOPS):
            merged = await self._session.scalar(
                select(PersonRow.merged_into).where(PersonRow.id == person_id)
            )
            if merged is None:
                return person_id
            person_id = merged
        return person_id

    async def person_of_account(self, telegram_id: int) -> Person | None:
        person_id = await self._session.scalar(
            select(PersonRow.id).where(PersonRow.telegram_id == telegram_id)
        )
        return await self.person(await self.kept(person_id)) if person_id is not None else None

    async def add_person(
        self,
        nickname: str,
        club: str | None,
        city: str | None,
        at: datetime,
        telegram_id: int | None = None,
    ) -> int:
        row = PersonRow(
            telegram_id=telegram_id,
            nickname=nickname,
            club=club,
            city=city,
            hidden=False,
            created_at=at.astimezone(UTC),
        )
        self._session.add(row)
        await self._session.flush()
        return row.id

    async def person_for_account(
        self, telegram_id: int, nickname: str, club: str | None, city: str | None, at: datetime
    ) -> int:
        """The person of a Telegram account (created when absent), named as he registers now."""
        person = await self.person_of_account(telegram_id)
        if person is None:
            return await self.add_person(nickname, club, city, at, telegram_id)
        await self.rename(person.id, nickname, club, city)
        return person.id

    async def rename(
        self, person_id: int, nickname: str, club: str | None, city: str | None
    ) -> None:
        """Name the person as he now plays (the season's views change only if he changed)."""
        result = await self._session.execute(
            update(PersonRow)
            .where(
                PersonRow.id == person_id,
                or_(
                    PersonRow.nickname != nickname,
                    PersonRow.club.is_distinct_from(club),
                    PersonRow.city.is_distinct_from(city),
                ),
            )
            .values(nickname=nickname, club=club, city=city)
        )
        if result.rowcount:  # type: ignore[attr-defined]
            await touch_season(self._session)

    async def set_hidden(self, person_id: int, hidden: bool) -> None:
        await self._session.execute(
            update(PersonRow).where(PersonRow.id == person_id).values(hidden=hidden)
        )
        await touch_season(self._session)

    async def find_persons(self, query: str, limit: int) -> list[Person]:
        """Persons (not merged away) whose latest nickname contains `query`, compared as
        `normalize_name` compares (any case, ё = е; SQLite's lower() knows only ASCII, so
        the comparison is made here)."""
        wanted = normalize_name(query)
        rows = await self._session.scalars(
            select(PersonRow).where(PersonRow.merged_into.is_(None)).order_by(PersonRow.id)
        )
        found = [_person(row) for row in rows if wanted in normalize_name(row.nickname)]
        found.sort(key=lambda person: (normalize_name(person.nickname), person.id))
        return found[:limit]

    async def with_clubs(self) -> list[Person]:
        """Every person (not merged away) who gave a club."""
        rows = await self._session.scalars(
            select(PersonRow).where(PersonRow.merged_into.is_(None), PersonRow.club.is_not(None))
        )
        return [_person(row) for row in rows]

    async def merge(self, keep_id: int, merge_id: int) -> None:
        """Move `merge_id`'s participations (and his account if `keep_id` has none) to
        `keep_id`; `merge_id` points at `keep_id` from now on."""
        await self._session.execute(
            update(ParticipantRow)
            .where(ParticipantRow.person_id == merge_id)
            .values(person_id=keep_id)
        )
        keep = await self._session.get(PersonRow, keep_id)
        merged = await self._session.get(PersonRow, merge_id)
        assert keep is not None and merged is not None
        merged.merged_into = keep_id
        # The merged account's later registrations find the kept person through
        # `merged_into`; his account moves over only when the kept person has none.
        if keep.telegram_id is None and merged.telegram_id is not None:
            account, merged.telegram_id = merged.telegram_id, None
            await self._session.flush()
            keep.telegram_id = account
        keep.hidden = keep.hidden or merged.hidden
        await self._session.flush()
        await touch_season(self._session)

    # --- a person's tournaments --------------------------------------------------------------

    async def participations(self, person_ids: Collection[int]) -> list[Participation]:
        """The registrations of these persons (any status), oldest tournament first."""
        if not person_ids:
            return []
        return await self._participations(ParticipantRow.person_id.in_(person_ids))

    async def participants_of(self, tournament_ids: Collection[int]) -> list[Participation]:
        """Everyone registered for these tournaments (any status), oldest tournament first."""
        if not tournament_ids:
            return []
        return await self._participations(ParticipantRow.tournament_id.in_(tournament_ids))

    async def _participations(self, condition: ColumnElement[bool]) -> list[Participation]:
        rows = (
            await self._session.execute(
                select(
                    ParticipantRow.id,
                    ParticipantRow.person_id,
                    ParticipantRow.tournament_id,
                    ParticipantRow.nickname,
                    ParticipantRow.club,
                    ParticipantRow.city,
                ).where(condition, ParticipantRow.person_id.is_not(None))
            )
        ).all()
        tournaments = {row[2] for row in rows}
        seasons = {
            season.tournament_id: season
            for season in await self._seasons(TournamentRow.id.in_(tournaments))
        }
        found = [
            Participation(pid, person, seasons[tid], nickname, club, city)
            for pid, person, tid, nickname, club, city in rows
            if person is not None
        ]
        found.sort(
            key=lambda p: (
                p.tournament.starts_on or date.min,
                p.tournament.tournament_id,
                p.participant_id,
            )
        )
        return found

    async def _seasons(self, condition: ColumnElement[bool]) -> list[TournamentSeason]:
        rows = await self._session.execute(
            select(*_SEASON_COLUMNS)
            .where(condition)
            .order_by(TournamentRow.starts_on, TournamentRow.id)
        )
        return [_season(row) for row in rows]

    async def unlinked_participants(self, tournament_id: int) -> list[tuple[int, int | None]]:
        """Participants of the tournament without a person yet: (id, Telegram id)."""
        rows = await self._session.execute(
            select(ParticipantRow.id, ParticipantRow.user_id).where(
                ParticipantRow.tournament_id == tournament_id, ParticipantRow.person_id.is_(None)
            )
        )
        return [(row.id, row.user_id) for row in rows]

    async def link(self, participant_id: int, person_id: int) -> None:
        await self._session.execute(
            update(ParticipantRow)
            .where(ParticipantRow.id == participant_id)
            .values(person_id=person_id)
        )
        await touch_season(self._session)

    # --- series and tournaments' season settings ---------------------------------------------

    async def add_series(self, title: str, created_by: int, at: datetime, locale: str) -> int:
        row = SeasonSeriesRow(
            title=title, created_by=created_by, created_at=at.astimezone(UTC), locale=locale
        )
        self._session.add(row)
        await self._session.flush()
        return row.id
        await touch_season(self._session)

    async def series(self, series_id: int) -> Series | None:
        row = await self._session.get(SeasonSeriesRow, series_id)
        return _series(row) if row else None

    async def all_series(self) -> list[Series]:
        rows = await self._session.scalars(select(SeasonSeriesRow).order_by(SeasonSeriesRow.id))
        return [_series(row) for row in rows]

    async def set_points_table(self, series_id: int, text: str | None) -> None:
        await self._session.execute(
            update(SeasonSeriesRow).where(SeasonSeriesRow.id == series_id).values(points_table=text)
        )
        await touch_season(self._session)

    async def tournament(self, tournament_id: int) -> TournamentSeason | None:
        row = (
            await self._session.execute(
                select(*_SEASON_COLUMNS).where(TournamentRow.id == tournament_id)
            )
        ).first()
        return _season(row) if row else None

    async def tournaments_of_series(self, series_id: int) -> list[TournamentSeason]:
        return await self._seasons(TournamentRow.series_id == series_id)

    async def set_tournament(self, tournament_id: int, **values: object) -> None:
        """Set the tournament's season columns (series_id, rated, category_stars,
        category_rating, import_digest)."""
        await self._session.execute(
            update(TournamentRow).where(TournamentRow.id == tournament_id).values(**values)
        )
        await touch_season(self._session)

    async def imported_as(self, digest: str) -> int | None:
        """The tournament imported from the file of this digest, if any."""
        return await self._session.scalar(
            select(TournamentRow.id).where(TournamentRow.import_digest == digest)
        )

    async def standings_keys(self, tournament_ids: Collection[int]) -> dict[int, tuple[int, ...]]:
        """What each tournament's standings depend on besides its games, as a cache key: how
        many results went in (every result, correction, annulment and lot bumps it), the
        participants and those excluded."""
        if not tournament_ids:
            return {}
        stored = await self._session.execute(
            select(StandingsRow.tournament_id, StandingsRow.version).where(
                StandingsRow.tournament_id.in_(tournament_ids)
            )
        )
        versions = {row.tournament_id: row.version for row in stored}
        counts = await self._session.execute(
            select(
                ParticipantRow.tournament_id,
                func.count(),
                func.sum(case((ParticipantRow.status == "excluded", 1), else_=0)),
            )
            .where(ParticipantRow.tournament_id.in_(tournament_ids))
            .group_by(ParticipantRow.tournament_id)
        )
        found = {row[0]: (int(row[1]), int(row[2] or 0)) for row in counts}
        return {
            tournament: (versions.get(tournament, -1), *found.get(tournament, (0, 0)))
            for tournament in tournament_ids
        }

    # --- clubs ----------------------------------------------------------------------------------

    async def aliases(self) -> dict[str, str]:
        """Every joined spelling (normalized) and the club it is joined to."""
        rows = await self._session.execute(select(ClubAliasRow.alias, ClubAliasRow.club))
        return {row.alias: row.club for row in rows}

    async def join_club(self, club: str, alias: str, by: int | None, at: datetime) -> None:
        """Join the spelling `alias` (and every spelling joined to it) to `club`."""
        key = normalize_name(alias)
        await self._session.execute(
            update(ClubAliasRow)
            .where(or_(ClubAliasRow.club == alias, ClubAliasRow.alias == key))
            .values(club=club)
        )
        if await self._session.get(ClubAliasRow, key) is None:
            self._session.add(
                ClubAliasRow(alias=key, club=club, created_by=by, created_at=at.astimezone(UTC))
            )
        own = normalize_name(club)
        if own != key and await self._session.get(ClubAliasRow, own) is None:
            self._session.add(
                ClubAliasRow(alias=own, club=club, created_by=by, created_at=at.astimezone(UTC))
            )
        await self._session.flush()
        await touch_season(self._session)

    # --- the season's audit log ------------------------------------------------------------------

    async def log(
        self,
        kind: str,
        text: str,
        actor_id: int | None,
        at: datetime,
        person_id: int | None = None,
        series_id: int | None = None,
    ) -> None:
        self._session.add(
            SeasonAuditRow(
                kind=kind,
                text=text,
                actor_id=actor_id,
                at=at.astimezone(UTC),
                person_id=person_id,
                series_id=series_id,
            )
        )
        await self._session.flush()

    async def audit(self, person_id: int | None = None) -> list[tuple[datetime, str, str]]:
        """The season's audit entries (of one person), oldest first: (moment, kind, text)."""
        query = select(SeasonAuditRow).order_by(SeasonAuditRow.id)
        if person_id is not None:
            query = query.where(SeasonAuditRow.person_id == person_id)
        return [(as_read(row.at), row.kind, row.text) for row in await self._session.scalars(query)]
