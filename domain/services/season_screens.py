"""What the screens and pages need of the season beside `domain.services.season`'s views:
the tournament card's season line, the registration links of a series' upcoming tournaments
(their `/start` payloads; the page writes the t.me address), and what a tournament's page
links to (its series, its players' profiles)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from domain.actor import Actor
from domain.invites import InviteKind
from domain.public_view import PublicSeason
from domain.season.rating import Rating
from domain.services.ports import UnitOfWork, UnitOfWorkFactory
from domain.services.season.profiles import rating_stars
from domain.standings_board import participant_key


@dataclass(frozen=True)
class CardSeason:
    """The tournament card's season line: its series' title (None: none), whether it is
    rated, its category's stars (None until set)."""

    series_title: str | None
    rated: bool
    category_stars: int | None


class SeasonScreenService:
    """The season's lines and links the screens and pages show beside its views."""

    def __init__(self, uow: UnitOfWorkFactory) -> None:
        self._uow = uow

    async def my_rating(self, actor: Actor) -> tuple[Rating | None, int | None]:
        """The actor's rating and its band's stars (None, None before he has a person or a rated
        game), read in one transaction: his registration screen and /me show it."""
        async with self._uow() as uow:
            person = await uow.season.person_of_account(actor.user_id)
            if person is None:
                return None, None
            kept = await uow.season.kept(person.id)
            rating = (await uow.ratings.ratings([kept])).get(kept)
        return rating, rating_stars(rating)

    async def card_season(self, tournament_id: int) -> CardSeason:
        """The tournament's series, rated switch and category as its card shows them."""
        async with self._uow() as uow:
            season = await uow.season.tournament(tournament_id)
            if season is None:
                return CardSeason(None, False, None)
            series = await uow.season.series(season.series_id) if season.series_id else None
        return CardSeason(series.title if series else None, season.rated, season.category_stars)

    async def registration_payloads(self, tournament_ids: Iterable[int]) -> dict[int, str]:
        """The `/start` payload of each tournament's shared registration link (a tournament
        without one is left out: its card makes it on first need)."""
        payloads = {}
        async with self._uow() as uow:
            for tournament_id in tournament_ids:
                invite = await uow.invites.find(InviteKind.REGISTRATION, tournament_id)
                if invite is not None:
                    payloads[tournament_id] = invite.payload
        return payloads


async def page_season(uow: UnitOfWork, tournament_id: int) -> PublicSeason | None:
    """The season links of a tournament's page, None when it is neither in a series nor
    rated."""
    season = await uow.season.tournament(tournament_id)
    if season is None or (season.series_id is None and not season.rated):
        return None
    series = await uow.season.series(season.series_id) if season.series_id else None
    participants = await uow.participants.of_tournament(tournament_id)
    persons = {
        participant_key(participant.id): participant.person_id
        for participant in participants
        if participant.person_id is not None
    }
    return PublicSeason(season.series_id, series.title if series else None, persons)
