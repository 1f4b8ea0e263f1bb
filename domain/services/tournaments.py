"""Use cases of the organizer: create a tournament, see its card, move it between states."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, replace
from datetime import datetime

from domain.actor import Actor
from domain.invites import Invite, InviteKind
from domain.lifecycle import (
    Move,
    Refusal,
    StageProgress,
    TableRef,
    advancing_players,
    apply,
    available_moves,
    leaves_stage,
    refusal,
    unfinished_stage,
)
from domain.permissions import Action, Forbidden, Role, allows
from domain.registration import Participant, ParticipantStatus
from domain.rounds import GameState
from domain.services.access import authorize, load_tournament, roles_in
from domain.services.ports import UnitOfWork, UnitOfWorkFactory
from domain.services.rating_sync import set_category
from domain.services.standings import compute_current
from domain.services.standings_posts import publish_results
from domain.teams import Team
from domain.tournament import Tournament, TournamentState

TOKEN_BYTES = 9


def new_token() -> str:
    """An opaque deep-link token (12 URL-safe characters, 72 random bits)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


class TournamentService:
    """A tournament's life: created, shown on its card, listed, moved through its states."""

    def __init__(self, uow: UnitOfWorkFactory) -> None:
        self._uow = uow

    async def may_create(self, actor: Actor) -> bool:
        """Admins and the organizers they appointed create tournaments."""
        if actor.is_admin:
            return True
        async with self._uow() as uow:
            return await uow.staff.is_organizer(actor.user_id)

    async def create_tournament(self, actor: Actor, draft: Tournament) -> Tournament:
        """Store a tournament the actor drafted in the wizard (as a draft) with its registration
        link."""
        if not await self.may_create(actor):
            raise Forbidden(Action.EDIT_SETTINGS)
        draft.regulation  # noqa: B018 - an unusable regulation must fail here, not on the card
        async with self._uow() as uow:
            tournament = await uow.tournaments.add(
                replace(
                    draft, state=TournamentState.DRAFT, created_at=actor.now, current_stage=None
                )
            )
            await uow.invites.add(
                Invite(new_token(), InviteKind.REGISTRATION, tournament.id, None, actor.now)
            )
            await uow.commit()
            return tournament

    async def tournament_card(
        self,
        actor: Actor,
        tournament_id: int,
    ) -> TournamentCard:
        """The card of a tournament for its organizer or a judge."""
        async with self._uow() as uow:
            tournament = await authorize(uow, actor, tournament_id, Action.VIEW_CARD)
            roles = await roles_in(uow, actor, tournament)
            participants = await uow.participants.of_tournament(tournament.id)
            teams = await uow.teams.of_tournament(tournament.id)
            invite = await registration_link(uow, tournament, actor.now)
            offered = available_moves(tournament) if allows(roles, Action.MOVE_STATE) else []
            moves, held = [], None
            for move in offered:
                # The card asks the guard the move itself asks: a stage move it would refuse is
                # not offered, and the card says what it waits for.
                refused = await _move_refusal(uow, tournament, move, participants, teams, actor.now)
                if refused is None or move not in _STAGE_MOVES:
                    moves.append(move)
                elif held is None:
                    held = refused
            changes_at = await _window_closes(uow, tournament, held, participants, actor.now)
            await uow.commit()
        return TournamentCard(
            tournament=tournament,
            roles=roles,
            moves=tuple(moves),
            registration_payload=invite.payload,
            held=held,
            changes_at=changes_at,
            **_counts(tournament, participants, teams),
        )

    async def tournaments_of(self, actor: Actor) -> list[Tournament]:
        """The tournaments a person organizes or judges (all of them for an admin)."""
        async with self._uow() as uow:
            return await uow.tournaments.of_person(actor.user_id, everything=actor.is_admin)

    async def move_tournament(
        self,
        actor: Actor,
        tournament_id: int,
        move: Move,
    ) -> Tournament | Refusal:
        """Make an explicit move, or say why it cannot be made; nothing changes on a refusal."""
        async with self._uow() as uow:
            tournament = await authorize(uow, actor, tournament_id, Action.MOVE_STATE)
            participants = await uow.participants.of_tournament(tournament.id)
            teams = await uow.teams.of_tournament(tournament.id)
            refused = await _move_refusal(uow, tournament, move, participants, teams, actor.now)
            if refused is not None:
                await uow.commit()  # a deadline close on the way still counts
                return refused
            tournament = apply(tournament, move)
            await uow.tournaments.save(tournament)
            if move is Move.CLOSE_REGISTRATION:
                await set_category(uow, tournament.id)
            if move is Move.FINISH:
                await publish_results(uow, tournament, actor.now)
            await uow.commit()
            return tournament

    async def close_due_registrations(self, now: datetime) -> list[int]:
        """Close every registration whose deadline has come; the ids of those closed."""
        async with self._uow() as uow:
            due = await uow.tournaments.registration_due_to_close(now)
            for tournament in due:
                await load_tournament(uow, tournament.id, now)
            await uow.commit()
            return [tournament.id for tournament in due]


async def registration_link(uow: UnitOfWork, tournament: Tournament, now: datetime) -> Invite:
    """The tournament's shared registration link (made on first need)."""
    invite = await uow.invites.find(InviteKind.REGISTRATION, tournament.id)
    if invite is None:
        invite = Invite(new_token(), InviteKind.REGISTRATION, tournament.id, None, now)
        await uow.invites.add(invite)
    return invite


@dataclass(frozen=True, slots=True)
class TournamentCard:
    """What the tournament card shows to one person, and the moves their roles offer."""

    tournament: Tournament
    roles: frozenset[Role]
    registered: int
    waiting: int
    paid: int
    checked_in: int
    teams: int
    complete_teams: int
    moves: tuple[Move, ...]
    registration_payload: str
    # Why the running stage cannot be left yet (its moves are not offered until it can).
    held: Refusal | None = None
    # When the card changes by itself: the last protest window holding the stage closes.
    changes_at: datetime | None = None


def _counts(
    tournament: Tournament, participants: list[Participant], teams: list[Team]
) -> dict[str, int]:
    registered = [p for p in participants if p.status is ParticipantStatus.REGISTERED]
    size = tournament.regulation.team_size
    active_teams = [team for team in teams if not team.withdrawn]
    complete = sum(
        1 for team in active_teams if sum(1 for p in registered if p.team_id == team.id) == size
    )
    return {
        "registered": len(registered),
        "waiting": sum(1 for p in participants if p.status is ParticipantStatus.WAITING),
        "paid": sum(1 for p in registered if p.paid),
        "checked_in": sum(1 for p in registered if p.checked_in),
        "teams": len(active_teams),
        "complete_teams": complete,
    }


async def _window_closes(
    uow: UnitOfWork,
    tournament: Tournament,
    held: Refusal | None,
    participants: list[Participant],
    now: datetime,
) -> datetime | None:
    """When the protest window holding the stage back closes, if one does."""
    if held is None or held.code != WINDOW_OPEN:
        return None
    return (await stage_progress(uow, tournament, now, participants)).windows_close_at(now)


# The refusal of a stage held by an open protest window (`domain.lifecycle.unfinished_stage`).
WINDOW_OPEN = "move-protest-window-open"

# The moves that start a stage or end the tournament: the card offers them only when allowed.
_STAGE_MOVES = frozenset({Move.START_STAGE, Move.FINISH})


async def _move_refusal(
    uow: UnitOfWork,
    tournament: Tournament,
    move: Move,
    participants: list[Participant],
    teams: list[Team],
    now: datetime,
) -> Refusal | None:
    """The lifecycle guard of a move, with the running stage's progress where it needs it."""
    progress = (
        await stage_progress(uow, tournament, now, participants)
        if leaves_stage(tournament, move)
        else None
    )
    return refusal(tournament, move, participants, teams, progress, now)


async def stage_progress(
    uow: UnitOfWork,
    tournament: Tournament,
    now: datetime,
    participants: list[Participant] | None = None,
) -> StageProgress:
    """Where the running stage stands, read from its rounds, protocols, protests and cut."""
    assert tournament.current_stage is not None
    stage = await uow.rounds.stage(tournament.id, tournament.current_stage)
    if stage is None:
        return StageProgress(seated=False)
    annulled = await uow.annulments.of_tournament(tournament.id)
    protested_games = await uow.protests.open_games(tournament.id)
    unpublished, unconfirmed, protested, windows = [], [], [], []
    for round_ in stage.rounds:
        if round_.published_at is None:
            unpublished.append(round_.number)
            continue
        for game in round_.games:
            where = TableRef(round_.number, game.table)
            if game.id in annulled:
                continue
            if game.state is not GameState.CONFIRMED:
                unconfirmed.append(where)
            elif game.id in protested_games:
                protested.append(where)
            elif game.protest_until is not None:
                windows.append(game.protest_until)
    progress = StageProgress(
        seated=True,
        unpublished=tuple(unpublished),
        unconfirmed=tuple(unconfirmed),
        protested=tuple(protested),
        windows=tuple(windows),
    )
    if unfinished_stage(tournament, progress, now) is not None:
        return progress  # the cut of results that may still change is not worth computing
    standings = await compute_current(uow, tournament)
    cut = next((cut for cut in standings.cuts if cut.stage == tournament.current_stage), None)
    if cut is None:
        return progress
    if cut.open_places:
        return replace(progress, cut_open_places=cut.open_places)
    if participants is None:
        participants = await uow.participants.of_tournament(tournament.id)
    return replace(progress, advancing=len(advancing_players(cut, participants)))
