"""The tournament's states and the guarded moves between them, each refused with its reason."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

from domain.registration import Participant, ParticipantStatus
from domain.teams import Team, incomplete_teams
from domain.tournament import Tournament, TournamentState

TABLE_SEATS = 10


class Move(StrEnum):
    """An explicit step the organizer takes with the tournament."""

    OPEN_REGISTRATION = "open_registration"
    CLOSE_REGISTRATION = "close_registration"
    REOPEN_REGISTRATION = "reopen_registration"
    START_STAGE = "start_stage"
    FINISH = "finish"


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a move cannot be made: a text code and what fills it in."""

    code: str
    args: dict[str, object] = field(default_factory=dict)


_FROM: dict[Move, frozenset[TournamentState]] = {
    Move.OPEN_REGISTRATION: frozenset({TournamentState.DRAFT}),
    Move.CLOSE_REGISTRATION: frozenset({TournamentState.REGISTRATION_OPEN}),
    Move.REOPEN_REGISTRATION: frozenset({TournamentState.REGISTRATION_CLOSED}),
    Move.START_STAGE: frozenset({TournamentState.REGISTRATION_CLOSED, TournamentState.RUNNING}),
    Move.FINISH: frozenset({TournamentState.RUNNING}),
}


def next_stage(tournament: Tournament) -> str | None:
    """The id of the stage a START_STAGE move begins, None after the last one."""
    stages = [stage.id for stage in tournament.regulation.stages]
    if tournament.current_stage is None:
        return stages[0]
    index = stages.index(tournament.current_stage) + 1
    return stages[index] if index < len(stages) else None


def stage_number(tournament: Tournament) -> int | None:
    """The running stage as a number from 1, as the card shows it."""
    if tournament.current_stage is None:
        return None
    return tournament.regulation.stage_index(tournament.current_stage) + 1


def available_moves(tournament: Tournament) -> list[Move]:
    """The moves the tournament's state offers (guards are checked when one is chosen)."""
    moves = [move for move, states in _FROM.items() if tournament.state in states]
    if Move.START_STAGE in moves and next_stage(tournament) is None:
        moves.remove(Move.START_STAGE)
    if Move.FINISH in moves and next_stage(tournament) is not None:
        moves.remove(Move.FINISH)
    return moves


def refusal(
    tournament: Tournament,
    move: Move,
    participants: Sequence[Participant],
    teams: Sequence[Team],
) -> Refusal | None:
    """Why the move cannot be made now, or None when it can."""
    if move not in available_moves(tournament):
        return Refusal("move-not-now", {"state": tournament.state.value})
    if move is Move.OPEN_REGISTRATION:
        return _settings_refusal(tournament)
    if move is Move.START_STAGE:
        return _start_refusal(tournament, participants, teams)
    return None


def _settings_refusal(tournament: Tournament) -> Refusal | None:
    missing = [
        name
        for name, value in (
            ("dates", tournament.starts_on),
            ("capacity", tournament.capacity),
            ("venue", tournament.venue),
        )
        if value is None
    ]
    if missing:
        return Refusal("move-settings-missing", {"settings": ", ".join(missing)})
    return None


def _start_refusal(
    tournament: Tournament, participants: Sequence[Participant], teams: Sequence[Team]
) -> Refusal | None:
    playing = sum(1 for p in participants if p.status is ParticipantStatus.REGISTERED)
    if playing < TABLE_SEATS:
        return Refusal("move-too-few-players", {"count": playing, "needed": TABLE_SEATS})
    size = tournament.regulation.team_size
    if size is not None:
        short = incomplete_teams(teams, participants, size)
        if short:
            names = ", ".join(team.name for team in short)
            return Refusal("move-incomplete-teams", {"teams": names, "size": size})
    return None


def apply(tournament: Tournament, move: Move) -> Tournament:
    """The tournament after a move `refusal` allowed."""
    if move is Move.OPEN_REGISTRATION or move is Move.REOPEN_REGISTRATION:
        return replace(tournament, state=TournamentState.REGISTRATION_OPEN)
    if move is Move.CLOSE_REGISTRATION:
        return replace(tournament, state=TournamentState.REGISTRATION_CLOSED)
    if move is Move.START_STAGE:
        return replace(
            tournament, state=TournamentState.RUNNING, current_stage=next_stage(tournament)
        )
    return replace(tournament, state=TournamentState.FINISHED)
