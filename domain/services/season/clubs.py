"""Clubs: a club's page (its spellings, members and rating) and joining spellings of one club."""

from __future__ import annotations

from domain.actor import Actor
from domain.scoring import ZERO
from domain.season.clubs import (
    canonical_club,
    club_key,
    club_rating,
    normalize_name,
    shown_name,
)
from domain.season.rating import Rating
from domain.season.views import ClubProfile, SeriesRow
from domain.services.access import NotFound
from domain.services.ports import UnitOfWorkFactory
from domain.services.season.merging import may_organize
from domain.validation import Invalid, clean_text

MAX_CLUB = 64


class ClubService:
    """A club's page and joining spellings of one club."""

    def __init__(self, uow: UnitOfWorkFactory) -> None:
        self._uow = uow

    async def club_profile(self, club: str) -> ClubProfile:
        """A club by any of its spellings (the web's slug unquoted): its canonical name, the
        spellings joined to it, its members (persons whose latest club resolves to it) by rating,
        and its rating. `NotFound` for a club nobody gave."""
        async with self._uow() as uow:
            aliases = await uow.season.aliases()
            key = club_key(club, aliases)
            if key is None:
                raise NotFound(f"club {club}")
            persons = [
                person
                for person in await uow.season.with_clubs()
                if club_key(person.club, aliases) == key
            ]
            if not persons:
                raise NotFound(f"club {club}")
            canonical = shown_name(canonical_club(p.club, aliases) or key for p in persons)
            ratings = await uow.ratings.ratings([person.id for person in persons])
        start = Rating.initial()
        persons.sort(key=lambda p: (-ratings.get(p.id, start).overall, p.id))
        members = tuple(
            SeriesRow(
                place,
                p.id,
                p.nickname,
                None if p.hidden else p.club,
                0.0 if p.hidden else ratings.get(p.id, start).overall,
                0.0 if p.hidden else ratings.get(p.id, start).red,
                0.0 if p.hidden else ratings.get(p.id, start).black,
                0 if p.hidden else ratings.get(p.id, start).games,
                0,
                ZERO,
                p.hidden,
            )
            for place, p in enumerate(persons, start=1)
        )
        joined = tuple(
            sorted(alias for alias, name in aliases.items() if normalize_name(name) == key)
        )
        return ClubProfile(
            canonical, joined, members, club_rating(r.overall for r in ratings.values())
        )

    async def join_clubs(self, actor: Actor, club: str, alias: str) -> None:
        """Count the spelling `alias` as the club `club` (an organizer or admin), logged."""
        name, spelling = clean_text(club), clean_text(alias)
        if not (1 <= len(name) <= MAX_CLUB and 1 <= len(spelling) <= MAX_CLUB):
            raise Invalid("season-club-name", max=MAX_CLUB)
        async with self._uow() as uow:
            await may_organize(uow, actor)
            aliases = await uow.season.aliases()
            # Joining into a spelling already joined elsewhere joins into that club.
            target = aliases.get(normalize_name(name), name)
            if normalize_name(target) == normalize_name(spelling):
                raise Invalid("season-club-same")
            await uow.season.join_club(target, spelling, actor.user_id, actor.now)
            await uow.season.log(
                "clubs", f"club {spelling} joined to {target}", actor.user_id, actor.now
            )
            await uow.commit()
