"""The tournament's states and the guarded moves between them, each refused with its reason."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import StrEnum

from domain.player_keys import participant_key
from domain.protests import local_time
from domain.registration import Participant, ParticipantStatus
from domain.regulation import Stage
from domain.rounds import tables_of_stage
from domain.standings import CutReport
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


@dataclass(frozen=True, slots=True)
class TableRef:
    """A table of a round of the running stage, as a refusal names it."""

    round: int
    table: int


@dataclass(frozen=True, slots=True)
class StageProgress:
    """Where the running stage stands: what its guard needs to let the tournament move on.

    `unconfirmed` are the tables of published rounds whose protocol is neither confirmed nor
    annulled; `protested` those with a protest awaiting its decision; `windows` the closing
    moments of the stage's protest windows; `cut_open_places` the places of the stage's cut a
    lot must still settle (0 when the cut is settled or the stage has none). The cut is only
    meaningful once the rest is final, and the guard reads it only then; so is `advancing`,
    how many players the cut sends to the next stage, whose tables they must fill.
    """

    seated: bool
    unpublished: tuple[int, ...] = ()
    unconfirmed: tuple[TableRef, ...] = ()
    protested: tuple[TableRef, ...] = ()
    windows: tuple[datetime, ...] = ()
    cut_open_places: int = 0
    # How many players the stage's settled cut sends to the next stage (None: not known yet).
    advancing: int | None = None

    def windows_close_at(self, now: datetime) -> datetime | None:
        """When the last protest window of the stage still open at `now` closes."""
        return max((moment for moment in self.windows if moment > now), default=None)


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


def leaves_stage(tournament: Tournament, move: Move) -> bool:
    """Whether the move ends a running stage (the next stage starts, or the tournament ends)."""
    return tournament.state is TournamentState.RUNNING and move in (Move.START_STAGE, Move.FINISH)


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
    progress: StageProgress | None = None,
    now: datetime | None = None,
) -> Refusal | None:
    """Why the move cannot be made now, or None when it can.

    A move that leaves the running stage needs that stage's `progress` (and `now`, for its
    protest windows): it waits until the stage is finished, see `unfinished_stage`.
    """
    if move not in available_moves(tournament):
        return Refusal("move-not-now", {"state": tournament.state.value})
    if move is Move.OPEN_REGISTRATION:
        return _settings_refusal(tournament)
    if leaves_stage(tournament, move):
        if progress is None or now is None:
            raise ValueError("a move out of a running stage needs the stage's progress")
        held = unfinished_stage(tournament, progress, now)
        if held is not None or move is not Move.START_STAGE:
            return held
        return _next_stage_refusal(tournament, progress)
    if move is Move.START_STAGE:
        return _start_refusal(tournament, participants, teams)
    return None


def advancing_players(cut: CutReport, participants: Sequence[Participant]) -> list[int]:
    """Who plays the next stage: the registered players the cut sends on, for a team cut the
    advancing teams' current players (a substitute in, an excluded player out)."""
    playing = [p for p in participants if p.status is ParticipantStatus.REGISTERED]
    advancing = set(cut.advancing)
    if cut.unit == "teams":
        return sorted(
            p.id
            for p in playing
            if p.team_id is not None and participant_key(p.team_id) in advancing
        )
    return sorted(p.id for p in playing if participant_key(p.id) in advancing)


def seating_refusal(stage: Stage, players: int) -> Refusal | None:
    """Why a stage cannot be seated with `players`: its tables need ten players each."""
    tables = tables_of_stage(stage, players)
    if tables == 0 or tables * TABLE_SEATS > players:
        needed = max(tables, 1)
        return Refusal(
            "move-too-few-players",
            {"count": players, "needed": needed * TABLE_SEATS, "tables": needed},
        )
    return None


def _next_stage_refusal(tournament: Tournament, progress: StageProgress) -> Refusal | None:
    following = next_stage(tournament)
    if following is None or progress.advancing is None:
        return None
    return seating_refusal(tournament.regulation.stage(following), progress.advancing)


def unfinished_stage(
    tournament: Tournament, progress: StageProgress, now: datetime
) -> Refusal | None:
    """What keeps the running stage from being finished at `now`, or None when it is.

    A stage is finished when every round of it is published, every protocol confirmed or
    annulled, no protest waits for its decision, every protest window has closed (the cut is
    never computed from results that can still change) and the cut is settled, by a lot where
    a tie at the line needs one. The first of these that fails is named.
    """
    stage = stage_number(tournament) or 0
    if not progress.seated:
        return Refusal("move-stage-not-seated", {"stage": stage})
    if progress.unpublished:
        rounds = ", ".join(str(number) for number in progress.unpublished)
        return Refusal(
            "move-rounds-unpublished", {"rounds": rounds, "count": len(progress.unpublished)}
        )
    if progress.unconfirmed:
        return _tables_refusal("move-tables-unconfirmed", progress.unconfirmed)
    if progress.protested:
        return _tables_refusal("move-protest-pending", progress.protested)
    closes = progress.windows_close_at(now)
    if closes is not None:
        until = local_time(closes, tournament.timezone)
        return Refusal("move-protest-window-open", {"until": until})
    if progress.cut_open_places:
        return Refusal("move-cut-needs-lot", {"places": progress.cut_open_places})
    return None


def _tables_refusal(code: str, tables: Sequence[TableRef]) -> Refusal:
    """The refusal naming the first round's tables and how many more wait in later rounds."""
    first = min(ref.round for ref in tables)
    named = sorted(ref.table for ref in tables if ref.round == first)
    return Refusal(
        code,
        {
            "round": first,
            "tables": ", ".join(map(str, named)),
            "count": len(named),
            "others": len(tables) - len(named),
        },
    )


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
    size = tournament.regulation.team_size
    if size is not None:
        short = incomplete_teams(teams, participants, size)
        if short:
            names = ", ".join(team.name for team in short)
            return Refusal("move-incomplete-teams", {"teams": names, "size": size})
    # The first stage's tables must fill, as its seating will ask.
    playing = sum(1 for p in participants if p.status is ParticipantStatus.REGISTERED)
    first = next_stage(tournament)
    assert first is not None
    return seating_refusal(tournament.regulation.stage(first), playing)


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
