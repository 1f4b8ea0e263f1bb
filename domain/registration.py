"""Who plays: a participant's record and the rules of capacity, waiting list, quotas, deadline."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from domain.tournament import Tournament, TournamentState
from domain.validation import Invalid, nickname_key


class ParticipantStatus(StrEnum):
    """Where a participant stands in the tournament."""

    REGISTERED = "registered"
    WAITING = "waiting"
    WITHDRAWN = "withdrawn"
    # Did not come: the seats of games not yet played go to a substitute.
    NO_SHOW = "no_show"
    # Excluded by the chief judge (regulation 11.3.3); seats handled like a no-show's.
    EXCLUDED = "excluded"
    # Replaced by a substitute, who plays the games not yet played.
    REPLACED = "replaced"


# The statuses that keep a place (or a place in the queue) and the nickname.
HOLDING = frozenset({ParticipantStatus.REGISTERED, ParticipantStatus.WAITING})
# The statuses whose seats await a substitute.
SEATS_FREED = frozenset({ParticipantStatus.NO_SHOW, ParticipantStatus.EXCLUDED})


@dataclass(frozen=True, slots=True)
class Participant:
    """A person registered for one tournament (`user_id` is None for an imported player)."""

    id: int
    tournament_id: int
    user_id: int | None
    nickname: str
    club: str
    city: str
    status: ParticipantStatus
    registered_at: datetime
    team_id: int | None = None
    paid: bool = False
    checked_in: bool = False
    # The participant whose remaining seats this substitute took over.
    substitute_for: int | None = None
    # Why the chief judge excluded the participant.
    reason: str | None = None
    # The person across tournaments (#28): set by the repository when the participant is
    # stored (the person of his Telegram account, a new one for an imported player).
    person_id: int | None = None

    @property
    def holds_place(self) -> bool:
        """Registered or waiting: the nickname stays taken and the person may still play."""
        return self.status in HOLDING

    @property
    def playing(self) -> bool:
        """Registered to play (not waiting, withdrawn, replaced, a no-show nor excluded): he
        may check in, and the chief judge may exclude him."""
        return self.status is ParticipantStatus.REGISTERED

    @property
    def missing(self) -> bool:
        """Playing but not checked in yet: he is called to check in, and the organizer may
        mark him a no-show."""
        return self.playing and not self.checked_in

    @property
    def replaceable(self) -> bool:
        """A no-show or an excluded player: a substitute may take over his games not yet
        played. A player still registered is marked a no-show (or excluded) first."""
        return self.status in SEATS_FREED

    @property
    def may_substitute(self) -> bool:
        """On the waiting list and standing in for nobody: he may take a freed player's seats
        (one back on the list after withdrawing still stands in for the player he replaced)."""
        return self.status is ParticipantStatus.WAITING and self.substitute_for is None


def awaiting_substitute(participants: Iterable[Participant]) -> list[Participant]:
    """The no-shows and excluded players nobody replaced yet (an excluded player stays excluded
    once replaced, so his status alone does not tell)."""
    people = list(participants)
    replaced = {p.substitute_for for p in people if p.substitute_for is not None}
    return [p for p in people if p.replaceable and p.id not in replaced]


@dataclass(frozen=True, slots=True)
class Application:
    """What a person asks to register with, already validated."""

    nickname: str
    club: str
    city: str


def registration_refusal(tournament: Tournament, now: datetime) -> str | None:
    """Why nobody can register now (a text code), or None when registration is open."""
    past_deadline = (
        tournament.registration_deadline is not None and now >= tournament.registration_deadline
    )
    if tournament.state in (TournamentState.REGISTRATION_OPEN, TournamentState.REGISTRATION_CLOSED):
        if past_deadline:
            return "registration-deadline-passed"
        if tournament.state is TournamentState.REGISTRATION_OPEN:
            return None
    return "registration-not-open"


def deadline_passed(tournament: Tournament, now: datetime) -> bool:
    """Whether an open registration is due to close by itself."""
    return (
        tournament.state is TournamentState.REGISTRATION_OPEN
        and tournament.registration_deadline is not None
        and now >= tournament.registration_deadline
    )


def check_nickname_free(
    nickname: str, others: Iterable[Participant], own_id: int | None = None
) -> None:
    """Refuse a nickname another participant holding a place already uses (case ignored)."""
    key = nickname_key(nickname)
    for other in others:
        if other.id != own_id and other.holds_place and nickname_key(other.nickname) == key:
            raise Invalid("nickname-taken", nickname=nickname)


def check_club_quota(
    club: str, quota: int | None, others: Iterable[Participant], own_id: int | None = None
) -> None:
    """Refuse a player whose club already fills its quota (registered and waiting count)."""
    if quota is None:
        return
    key = nickname_key(club)
    taken = sum(
        1
        for other in others
        if other.id != own_id and other.holds_place and nickname_key(other.club) == key
    )
    if taken >= quota:
        raise Invalid("club-quota-full", club=club, quota=quota)


@dataclass(frozen=True, slots=True)
class Places:
    """How many hold a place in a tournament: registered to play, and on the waiting list
    (counted by the storage, so a registration does not read everyone)."""

    registered: int
    waiting: int


def initial_status(capacity: int | None, places: Places) -> ParticipantStatus:
    """A newcomer plays if a place is free and nobody waits before him; otherwise he waits."""
    if capacity is not None and (places.registered >= capacity or places.waiting > 0):
        return ParticipantStatus.WAITING
    return ParticipantStatus.REGISTERED


def places_to_give(capacity: int | None, places: Places) -> int:
    """How many of the waiting list get a place now free (its first ones: first come first
    served); every one of them without a capacity."""
    if capacity is None:
        return places.waiting
    return min(places.waiting, max(capacity - places.registered, 0))


def may_change_registration(tournament: Tournament) -> bool:
    """A player may edit or withdraw until the tournament starts."""
    return not tournament.has_started
