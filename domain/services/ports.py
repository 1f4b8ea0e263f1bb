"""What the use cases need from the outside world, as Protocols (the database implements them)."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from types import TracebackType
from typing import Protocol, Self

from domain.game_log import Entry
from domain.invites import Invite, InviteKind
from domain.live_table import StreamLink
from domain.outgoing import DeliveryStatus, OutgoingMessage, ScheduledPush
from domain.permissions import StaffRole
from domain.protests import AuditEntry, Protest, ProtestStatus
from domain.protocol import Protocol as GameProtocol
from domain.protocol_screen import Screen
from domain.registration import Participant, Places
from domain.rounds import (
    GameInRound,
    GamePlace,
    ProtocolCorrection,
    RoundSeating,
    SeatedStage,
)
from domain.services.protocol_reads import ProtocolScreenRead
from domain.services.season_ports import RatingRepository, SeasonRepository
from domain.standings import GameRecord
from domain.teams import Team
from domain.tie_decisions import LotDecision
from domain.tournament import Tournament
from domain.users import User


class UserRepository(Protocol):
    async def get(self, telegram_id: int) -> User | None: ...

    async def many(self, telegram_ids: Collection[int]) -> dict[int, User]: ...

    async def save(self, user: User) -> None: ...


class TournamentRepository(Protocol):
    async def get(self, tournament_id: int) -> Tournament | None: ...

    # Taken by every replan of the tournament's reminders before it reads their facts: the
    # other transactions' replans of it wait for this one's end (and it for theirs), so the
    # last one reads what the others committed. Taken too by every use case that changes
    # the tournament's participants or teams, before it reads them: it decides on counts
    # (free places, a team's seats, who waits) no other one changes meanwhile, and every
    # writer of their rows takes this lock before them (one order: none deadlocks).
    async def lock(self, tournament_id: int) -> None: ...

    async def add(self, tournament: Tournament) -> Tournament: ...

    async def save(self, tournament: Tournament) -> None: ...

    async def of_person(self, user_id: int, everything: bool = False) -> list[Tournament]: ...

    async def registration_due_to_close(self, now: datetime) -> list[Tournament]: ...


class ParticipantRepository(Protocol):
    async def get(self, participant_id: int) -> Participant | None: ...

    async def of_tournament(self, tournament_id: int) -> list[Participant]: ...

    async def nicknames(self, participant_ids: Collection[int]) -> dict[int, str]: ...

    async def seated_and_substitutes(
        self, tournament_id: int, seated: Collection[int]
    ) -> list[Participant]: ...

    async def rivals(
        self, tournament_id: int, nickname: str, club: str | None = None
    ) -> list[Participant]: ...

    async def places(self, tournament_id: int) -> Places: ...

    async def of_team(self, team_id: int) -> list[Participant]: ...

    async def first_waiting(self, tournament_id: int, limit: int) -> list[Participant]: ...

    async def substitute_of(self, participant_id: int) -> Participant | None: ...

    async def of_person(self, tournament_id: int, user_id: int) -> Participant | None: ...

    async def plays_anywhere(self, user_id: int) -> bool: ...

    async def add(self, participant: Participant) -> Participant: ...

    async def save(self, participant: Participant) -> None: ...

    async def unreachable(self, tournament_id: int) -> set[int]: ...


class TeamRepository(Protocol):
    async def get(self, team_id: int) -> Team | None: ...

    async def of_tournament(self, tournament_id: int) -> list[Team]: ...

    async def add(self, team: Team) -> Team: ...

    async def save(self, team: Team) -> None: ...


class StaffRepository(Protocol):
    async def roles(self, tournament_id: int, user_id: int) -> list[StaffRole]: ...

    async def of_tournament(self, tournament_id: int) -> list[tuple[int, StaffRole]]: ...

    async def appoint(self, tournament_id: int, user_id: int, role: StaffRole) -> None: ...

    async def is_organizer(self, user_id: int) -> bool: ...

    async def appoint_organizer(self, user_id: int, appointed_by: int, at: datetime) -> None: ...

    async def standing(self, user_id: int) -> Standing:
        """What the person is to the bot, in one read (his /help, his menu)."""
        ...


@dataclass(frozen=True)
class Standing:
    """A person's standing: an organizer (appointed, or a tournament's author), his judges'
    roles in the tournaments not finished yet, whether he is in any tournament's list."""

    organizer: bool
    judging: frozenset[StaffRole]
    plays: bool


class InviteRepository(Protocol):
    async def get(self, token: str) -> Invite | None: ...

    async def find(
        self, kind: InviteKind, tournament_id: int | None, team_id: int | None = None
    ) -> Invite | None: ...

    async def add(self, invite: Invite) -> None: ...

    async def mark_used(self, token: str, user_id: int) -> None: ...


class Outbox(Protocol):
    """Messages the bot pushes, recorded in the use case's transaction and sent after it."""

    async def add(self, message: OutgoingMessage) -> bool: ...

    async def add_many(self, messages: Sequence[OutgoingMessage]) -> int: ...

    async def mark_reachable(self, chat_id: int) -> None: ...

    async def status_of(self, dedupe_key: str) -> DeliveryStatus | None: ...

    async def anchor_message(self, key: str, chat_id: int, message_id: int) -> None:
        """Remember a message sent directly as the one later pushes under `key` edit."""
        ...


class ScheduledPushes(Protocol):
    """Messages that go into the outbox when due; a push with a known key is replaced."""

    async def schedule(self, push: ScheduledPush) -> None: ...

    async def schedule_many(self, pushes: Sequence[ScheduledPush]) -> None: ...

    async def cancel(self, key: str) -> None: ...

    async def cancel_many(self, keys: Collection[str]) -> None: ...

    async def waiting(self, *key_prefixes: str) -> dict[str, ScheduledPush]: ...

    async def waiting_keys(self, keys: Collection[str]) -> dict[str, ScheduledPush]: ...

    async def due_times(self) -> dict[str, datetime]: ...


class RoundRepository(Protocol):
    """Seated stages, their rounds and table games."""

    async def stage(
        self, tournament_id: int, stage: str, round_ids: Collection[int] | None = None
    ) -> SeatedStage | None: ...

    async def game_places(
        self, tournament_id: int, stage: str | None = None
    ) -> list[GamePlace]: ...

    async def add_stage(
        self,
        tournament_id: int,
        stage: str,
        seed: int,
        created_at: datetime,
        rounds: Sequence[tuple[RoundSeating, tuple[int | None, ...]]],
    ) -> SeatedStage | None: ...

    async def add_played_stage(
        self,
        tournament_id: int,
        stage: str,
        seed: int,
        created_at: datetime,
        games: Mapping[tuple[int, int], Sequence[int]],
    ) -> dict[tuple[int, int], int]: ...

    async def seat_round(self, round_id: int, seating: RoundSeating) -> None: ...

    async def set_seed(self, stage_id: int, seed: int) -> None: ...

    async def set_judge(self, game_id: int, judge_id: int | None) -> None: ...

    async def mark_published(self, round_id: int, now: datetime) -> bool: ...

    async def game(self, game_id: int) -> GameInRound | None: ...

    async def games_of_judge(self, judge_id: int) -> list[GameInRound]: ...

    async def recent_games(self, tournament_id: int, rounds: int) -> list[GameInRound]: ...


class ProtocolRepository(Protocol):
    """Protocol drafts, confirmed protocols with their corrections, and stored standings."""

    async def draft(self, game_id: int) -> tuple[Screen, int] | None: ...

    async def screen_read(self, game_id: int, user_id: int) -> ProtocolScreenRead | None: ...

    async def add_draft(
        self, game_id: int, screen: Screen, user_id: int, now: datetime
    ) -> bool: ...

    async def save_draft(
        self, game_id: int, screen: Screen, version: int, user_id: int, now: datetime
    ) -> bool: ...

    async def drop_draft(self, game_id: int) -> None: ...

    async def advance_game(
        self, game_id: int, version: int, protest_until: datetime | None
    ) -> bool: ...

    async def protocol(self, game_id: int) -> GameProtocol | None: ...

    async def store(
        self, game_id: int, protocol: GameProtocol, user_id: int, now: datetime
    ) -> None: ...

    async def add_correction(self, correction: ProtocolCorrection) -> None: ...

    async def corrections(self, game_id: int) -> list[ProtocolCorrection]: ...

    async def results(self, tournament_id: int) -> list[GameRecord]: ...

    async def start_standings(self, tournament_id: int) -> None: ...

    async def lock_standings(self, tournament_id: int) -> int: ...


class GameLogRepository(Protocol):
    """The judge's live-game logs (the Mini App), kept with the protocol."""

    async def log(self, game_id: int) -> tuple[tuple[Entry, ...], int] | None: ...

    async def save(
        self, game_id: int, entries: tuple[Entry, ...], version: int, user_id: int, now: datetime
    ) -> bool: ...

    async def logs(self, game_ids: Collection[int]) -> dict[int, tuple[Entry, ...]]: ...

    async def started(self, game_ids: Collection[int]) -> set[int]: ...


class StreamLinkRepository(Protocol):
    """Each game's stream view: its token, delay and whether it is revoked."""

    async def get(self, game_id: int) -> StreamLink | None: ...

    async def save(self, link: StreamLink, user_id: int, now: datetime) -> None: ...


class ProtestRepository(Protocol):
    """Protests with their decisions, the organizer's protest switch, and the audit log."""

    async def add(self, protest: Protest) -> Protest | None: ...

    async def get(self, protest_id: int) -> Protest | None: ...

    async def save(self, protest: Protest, status_was: ProtestStatus) -> bool: ...

    async def of_game(self, game_id: int) -> list[Protest]: ...

    async def of_tournament(self, tournament_id: int) -> list[Protest]: ...

    async def open_games(self, tournament_id: int) -> set[int]: ...

    async def switch(self, tournament_id: int) -> bool | None: ...

    async def set_switch(self, tournament_id: int, enabled: bool | None) -> None: ...

    async def log(self, entry: AuditEntry) -> None: ...

    async def audit(self, tournament_id: int) -> list[AuditEntry]: ...


class LotRepository(Protocol):
    """The chief judge's lot decisions on the tournament's ties."""

    async def of_tournament(self, tournament_id: int) -> list[LotDecision]: ...

    async def add(self, decision: LotDecision) -> LotDecision: ...


class AnnulmentRepository(Protocol):
    """Games the chief judge annulled: they stay in the record but count for nobody."""

    async def of_tournament(self, tournament_id: int) -> set[int]: ...

    async def annul(
        self, tournament_id: int, game_id: int, user_id: int, now: datetime
    ) -> bool: ...


class Clock(Protocol):
    """The current moment (aware, UTC); handlers read it and pass it to the use cases."""

    def now(self) -> datetime: ...


class SeedSource(Protocol):
    """Where a seating's seed comes from: handlers draw it and pass it to the use case, which
    records it with the seating it reproduces."""

    def draw(self) -> int: ...


class UnitOfWork(Protocol):
    """One transaction: everything a use case decided is committed together, or nothing.

    The repositories are read-only here so that an implementation may hold narrower types.
    """

    @property
    def users(self) -> UserRepository: ...

    @property
    def tournaments(self) -> TournamentRepository: ...

    @property
    def participants(self) -> ParticipantRepository: ...

    @property
    def teams(self) -> TeamRepository: ...

    @property
    def staff(self) -> StaffRepository: ...

    @property
    def invites(self) -> InviteRepository: ...

    @property
    def outbox(self) -> Outbox: ...

    @property
    def scheduled_pushes(self) -> ScheduledPushes: ...

    @property
    def rounds(self) -> RoundRepository: ...

    @property
    def protocols(self) -> ProtocolRepository: ...

    @property
    def game_logs(self) -> GameLogRepository: ...

    @property
    def stream_links(self) -> StreamLinkRepository: ...

    @property
    def protests(self) -> ProtestRepository: ...

    @property
    def lots(self) -> LotRepository: ...

    @property
    def annulments(self) -> AnnulmentRepository: ...

    @property
    def season(self) -> SeasonRepository: ...

    @property
    def ratings(self) -> RatingRepository: ...

    # Tournaments whose public view (standings, published rounds, games) this transaction
    # changed: after the commit their web pages are drawn again and open ones updated.
    @property
    def changed_tournaments(self) -> set[int]: ...

    # Games whose live log (the judge's Mini App) this transaction stored: after the commit
    # their live pages and stream views are told (`GameLogRepository.save` marks them).
    @property
    def changed_games(self) -> set[int]: ...

    # Tournaments whose reminder facts (timetable, state, participants, teams, chief judges,
    # seats, judges, publications, protocols) this transaction changed: the repositories' writes
    # mark them, and the unit of work replans their reminders before it commits
    # (`domain.services.reminders.replan_touched`).
    @property
    def reminders_touched(self) -> set[int]: ...

    # The rounds (tournament, round id) whose reminders alone a write changed: a protocol
    # stored changes its game's state, so only its round's players', judges' and chief
    # judges' reminders. Replanned alone unless their tournament is touched as a whole.
    @property
    def rounds_touched(self) -> set[tuple[int, int]]: ...

    # The participants (tournament, participant id) a write changed: before a tournament
    # runs, only their own reminders (unpaid fee, check-in); replanned alone unless their
    # tournament is touched as a whole (`reminder_plan.plans_by_person`).
    @property
    def participants_touched(self) -> set[tuple[int, int]]: ...

    # The teams (tournament, team id) a write changed, or a member's joining or leaving:
    # before a tournament runs, only their captains' reminders (the team incomplete);
    # replanned alone unless their tournament is touched as a whole.
    @property
    def teams_touched(self) -> set[tuple[int, int]]: ...

    # The moment the use case acts at (`access.load_tournament` records it): the replan's now.
    acted_at: datetime | None

    async def __aenter__(self) -> Self: ...

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...

    async def commit(self) -> None: ...


class UnitOfWorkFactory(Protocol):
    def __call__(self) -> UnitOfWork: ...
