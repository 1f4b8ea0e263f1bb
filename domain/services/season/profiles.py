"""A person's profile: his tournaments, games by role, figures from the confirmed protocols
and his rating's history; finding a person; hiding one's own profile."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from domain.actor import Actor
from domain.cards import Role
from domain.player_keys import PlayerKey
from domain.protocol import Protocol, Removal
from domain.scoring import ZERO
from domain.season.persons import Participation, Person
from domain.season.rating import Rating
from domain.season.series_points import category_stars, default_points_table
from domain.season.views import PlayerProfile, RoleStats, TournamentLine
from domain.services.access import NotFound
from domain.services.ports import UnitOfWork, UnitOfWorkFactory
from domain.services.season.places import keep_view, kept_view, tournament_places

ROLE_ORDER = (Role.CIVILIAN, Role.SHERIFF, Role.MAFIA, Role.DON)


async def _kept_person(uow: UnitOfWork, person_id: int) -> Person:
    person = await uow.season.person(await uow.season.kept(person_id))
    if person is None:
        raise NotFound(f"person {person_id}")
    return person


async def _lines(
    uow: UnitOfWork, participations: Sequence[Participation], keys: dict[int, tuple[int, ...]]
) -> tuple[TournamentLine, ...]:
    lines = []
    for participation in participations:
        tournament = participation.tournament
        places = await tournament_places(
            uow, tournament.tournament_id, tournament.state, keys[tournament.tournament_id]
        )
        line = places.get(participation.participant_id)
        if line is None or not line.games:
            continue
        lines.append(
            TournamentLine(
                tournament_id=tournament.tournament_id,
                title=tournament.title,
                starts_on=tournament.starts_on,
                nickname=participation.nickname,
                club=participation.club or None,
                place=line.place,
                points=line.points,
                games=line.games,
                series_id=tournament.series_id,
            )
        )
    return tuple(lines)


class _Figures:
    """What a person's protocols add up to."""

    def __init__(self) -> None:
        self.roles: Counter[Role] = Counter()
        self.wins: Counter[Role] = Counter()
        self.best_moves = self.first_night_deaths = self.fouls = self.disqualifications = 0

    def add(self, protocol: Protocol, players: set[PlayerKey]) -> None:
        for number, seat in enumerate(protocol.seats, start=1):
            if seat.player not in players:
                continue
            self.roles[seat.role] += 1
            if seat.role.side is protocol.winner:
                self.wins[seat.role] += 1
            self.fouls += seat.fouls
            if seat.removed is Removal.DISQUALIFIED:
                self.disqualifications += 1
            if protocol.first_night_victim == number:
                self.first_night_deaths += 1
                if protocol.best_move:
                    self.best_moves += 1

    def role_stats(self) -> tuple[RoleStats, ...]:
        return tuple(
            RoleStats(role.value, self.roles[role], self.wins[role])
            for role in ROLE_ORDER
            if self.roles[role]
        )


async def build_profile(uow: UnitOfWork, person: Person) -> PlayerProfile:
    """The whole profile of a (kept) person, whatever his privacy. Kept (per process) by what
    it is built from: the person, his registrations, their tournaments' standings keys and
    the rating's and season's change counters."""
    participations = await uow.season.participations([person.id])
    tournaments = {p.tournament.tournament_id for p in participations}
    keys = await uow.season.standings_keys(tournaments)
    versions = await uow.ratings.versions()
    key = ("profile", person, tuple(participations), tuple(sorted(keys.items())), *versions)
    kept = kept_view(key)
    if isinstance(kept, PlayerProfile):
        return kept
    built = await _built_profile(uow, person, participations, keys)
    keep_view(key, built)
    return built


async def _built_profile(
    uow: UnitOfWork,
    person: Person,
    participations: Sequence[Participation],
    keys: dict[int, tuple[int, ...]],
) -> PlayerProfile:
    lines = await _lines(uow, participations, keys)
    figures = _Figures()
    players = {str(p.participant_id) for p in participations}
    for _, protocol in await uow.ratings.protocols_of([p.participant_id for p in participations]):
        figures.add(protocol, players)
    rating = (await uow.ratings.ratings([person.id])).get(person.id)
    games = sum(line.games for line in lines)
    return PlayerProfile(
        person_id=person.id,
        nickname=person.nickname,
        club=person.club,
        city=person.city,
        hidden=person.hidden,
        rating=rating,
        rank=await uow.ratings.rank(rating.overall) if rating is not None else None,
        tournaments=lines,
        roles=figures.role_stats(),
        games=games,
        points_per_game=sum((line.points for line in lines), ZERO) / games if games else ZERO,
        best_moves=figures.best_moves,
        first_night_deaths=figures.first_night_deaths,
        fouls=figures.fouls,
        disqualifications=figures.disqualifications,
        history=tuple(await uow.ratings.history(person.id)),
    )


class ProfileService:
    """A person's profile, finding persons, hiding one's own profile, a person's rating."""

    def __init__(self, uow: UnitOfWorkFactory) -> None:
        self._uow = uow

    async def profile(self, person_id: int, *, viewer: Actor | None = None) -> PlayerProfile:
        """A person's profile (a merged-away person's is the kept one's); a hidden profile shows
        only the nickname to anyone but the person himself."""
        async with self._uow() as uow:
            person = await _kept_person(uow, person_id)
            own = viewer is not None and viewer.user_id == person.telegram_id
            if person.hidden and not own:
                return PlayerProfile.hidden_view(person.id, person.nickname)
            return await build_profile(uow, person)

    async def my_person(self, actor: Actor) -> int | None:
        """The person of the actor's Telegram account (None: he never registered)."""
        async with self._uow() as uow:
            person = await uow.season.person_of_account(actor.user_id)
            return person.id if person is not None else None

    async def find_players(self, query: str, limit: int = 20) -> list[tuple[int, str, str]]:
        """Persons whose nickname contains `query` (any case): (person id, nickname, club); a
        hidden person's club is not shown."""
        async with self._uow() as uow:
            found = await uow.season.find_persons(query, max(1, min(limit, 100)))
        return [(p.id, p.nickname, "" if p.hidden else (p.club or "")) for p in found]

    async def person_rating(self, person_id: int) -> tuple[Rating | None, int | None]:
        """A person's rating (None before his first rated game) and the stars of its band."""
        async with self._uow() as uow:
            kept = await uow.season.kept(person_id)
            rating = (await uow.ratings.ratings([kept])).get(kept)
        return rating, rating_stars(rating)

    async def hide_profile(self, actor: Actor, hidden: bool) -> None:
        """Hide (or show again) the actor's own profile: tables and pages then show only his
        nickname. `NotFound` when he has no person yet (he never registered)."""
        async with self._uow() as uow:
            person = await uow.season.person_of_account(actor.user_id)
            if person is None:
                raise NotFound("person")
            await uow.season.set_hidden(person.id, hidden)
            await uow.commit()


def rating_stars(rating: Rating | None) -> int | None:
    """The stars of the band a rating is in (the default table's category thresholds)."""
    if rating is None:
        return None
    return category_stars(default_points_table(), rating.overall)
