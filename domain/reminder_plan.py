"""Which reminders a tournament wants now, derived from its data alone.

The plan is the whole set of scheduled pushes the tournament should have at this moment, each
under a key of its own (`reminder:<tournament>:...`). The use case that applies it replaces
pushes by key and cancels the tournament's pushes the plan no longer names, so any change of
the data (timetable, seats, judges, payments, teams, protocols, state) moves or cancels them.

- before each published round: every player of it, "game N at HH:MM, table T, seat S, judge J";
- after a game's expected end: the table's judge, if its protocol is still open, and later the
  chief judges, with the tables of the round still missing a protocol;
- before the registration deadline: the captains of incomplete teams and the unpaid players;
  at the deadline: the organizer, that registration has closed;
- when check-in opens on the first day: every registered player not checked in yet.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from domain.intents import CheckIn, OpenProtocol
from domain.outgoing import Button, OutgoingMessage, Phrase, ScheduledPush
from domain.registration import Participant, ParticipantStatus
from domain.reminders import (
    CHIEF_JUDGE_GRACE,
    PROTOCOL_GRACE,
    ROUND_REMINDER_LEAD,
    PlannedGame,
    checkin_opening_times,
    planned_games,
    protocol_reminder_time,
    registration_deadline_reminder_time,
    round_reminder_time,
)
from domain.rounds import GameState, Round, SeatedStage, TableGame
from domain.teams import Team, incomplete_teams, members
from domain.tournament import Tournament, TournamentState

# Check-in is possible from the opening of registration until the first stage starts.
_CHECKIN_STATES = frozenset(
    {TournamentState.REGISTRATION_OPEN, TournamentState.REGISTRATION_CLOSED}
)


def reminder_prefix(tournament_id: int) -> str:
    """The start of every reminder key of a tournament (the plan owns all keys under it)."""
    return f"reminder:{tournament_id}:"


@dataclass(frozen=True)
class RoundKeys:
    """The keys of the reminders the plan makes for one round: its players' and its chief
    judges' (under a prefix of the round) and its tables' judges' (one key a game)."""

    prefixes: tuple[str, ...]
    keys: frozenset[str]

    def owns(self, key: str) -> bool:
        return key in self.keys or key.startswith(self.prefixes)


def round_keys(tournament: Tournament, round_: Round) -> RoundKeys:
    """What `plan_reminders` names for `round_` (`_seat_reminders`, `_judge_reminder`,
    `_chief_judge_reminders`), so a replan of that round alone knows what is its own."""
    return RoundKeys(
        prefixes=(
            _key(tournament, "round", round_.id, ""),
            _key(tournament, "chief", round_.id, ""),
        ),
        keys=frozenset(_key(tournament, "protocol", game.id) for game in round_.games),
    )


def person_keys(tournament_id: int, participant_id: int) -> frozenset[str]:
    """The keys of the reminders the plan makes for one participant alone before the
    tournament runs (`_deadline_reminders`' unpaid fee, `_checkin_reminders`)."""
    prefix = reminder_prefix(tournament_id)
    return frozenset({f"{prefix}unpaid:{participant_id}", f"{prefix}checkin:{participant_id}"})


def team_keys(tournament_id: int, team_id: int) -> frozenset[str]:
    """The key of the reminder the plan makes for one team (its captain's, that the team is
    incomplete: `_deadline_reminders`)."""
    return frozenset({f"{reminder_prefix(tournament_id)}team:{team_id}"})


def plans_by_person(tournament: Tournament) -> bool:
    """Whether a participant's change moves only his own reminders (`person_reminders`) and
    his team's, old and new (`team_reminders`): so in a tournament not running yet. A running
    tournament's seats remind whoever plays them, which a substitute's change moves."""
    return tournament.state is not TournamentState.RUNNING


def person_reminders(tournament: Tournament, participant: Participant) -> list[ScheduledPush]:
    """What `plan_reminders` names under `person_keys` for this participant, read from him
    alone (in a tournament that `plans_by_person`): the same pushes the whole plan has."""
    keys = person_keys(tournament.id, participant.id)
    alone = ReminderFacts(tournament=tournament, participants=(participant,))
    return [push for push in plan_reminders(alone) if push.key in keys]


def team_reminders(
    tournament: Tournament, team: Team, participants: Sequence[Participant]
) -> list[ScheduledPush]:
    """What `plan_reminders` names under `team_keys` for this team, read from its own
    `participants` alone (everyone who joined it and its captain): the same pushes the
    whole plan has."""
    keys = team_keys(tournament.id, team.id)
    alone = ReminderFacts(tournament=tournament, participants=participants, teams=(team,))
    return [push for push in plan_reminders(alone) if push.key in keys]


@dataclass(frozen=True)
class ReminderFacts:
    """What the plan reads: the tournament and everything its reminders depend on.

    `stage` is the seated stage the tournament is in (None before seating), or only the
    rounds a replan of some rounds looks at (the plan is then theirs, `round_keys`);
    `judge_names` names the judges of its tables by Telegram id; `chief_judges` are Telegram
    ids.
    """

    tournament: Tournament
    participants: Sequence[Participant]
    teams: Sequence[Team] = ()
    stage: SeatedStage | None = None
    judge_names: Mapping[int, str] | None = None
    chief_judges: Sequence[int] = ()


@dataclass(frozen=True)
class ReminderTimes:
    """How far before or after the timetable's moments reminders go out."""

    round_lead: timedelta = ROUND_REMINDER_LEAD
    protocol_grace: timedelta = PROTOCOL_GRACE
    chief_judge_grace: timedelta = CHIEF_JUDGE_GRACE


def plan_reminders(facts: ReminderFacts, times: ReminderTimes | None = None) -> list[ScheduledPush]:
    """Every reminder the tournament wants, whatever its time (past ones included: applying
    the plan decides what a moment already gone means)."""
    times = times or ReminderTimes()
    tournament = facts.tournament
    pushes: list[ScheduledPush] = []
    if tournament.state is TournamentState.REGISTRATION_OPEN:
        pushes += _deadline_reminders(facts)
    if tournament.state in _CHECKIN_STATES:
        pushes += _checkin_reminders(facts)
    if tournament.state is TournamentState.RUNNING and facts.stage is not None:
        pushes += _round_reminders(facts, times)
    return pushes


def _key(tournament: Tournament, *parts: object) -> str:
    return reminder_prefix(tournament.id) + ":".join(str(part) for part in parts)


def _push(
    tournament: Tournament,
    key: str,
    due_at: datetime,
    chat_id: int,
    phrase: Phrase,
    buttons: tuple[tuple[Button, ...], ...] = (),
) -> ScheduledPush:
    # The outbox keeps one message per key and moment: a sweep repeated by a crash stores it once.
    message = OutgoingMessage(
        chat_id=chat_id,
        phrase=phrase,
        buttons=buttons,
        tournament_id=tournament.id,
        dedupe_key=f"{key}@{due_at:%Y-%m-%dT%H:%M}",
    )
    return ScheduledPush(key, due_at, message)


def _local(moment: datetime, timezone: str, pattern: str) -> str:
    return moment.astimezone(ZoneInfo(timezone)).strftime(pattern)


# --- before the registration deadline ---------------------------------------------------------


def _deadline_reminders(facts: ReminderFacts) -> list[ScheduledPush]:
    tournament = facts.tournament
    deadline = tournament.registration_deadline
    if deadline is None:
        return []
    remind_at = registration_deadline_reminder_time(deadline)
    closes = _local(deadline, tournament.timezone, "%d.%m.%Y %H:%M")
    pushes = [
        _push(
            tournament,
            _key(tournament, "deadline"),
            deadline,
            tournament.created_by,
            Phrase.of("reminder-registration-closed", tournament=tournament.title),
        )
    ]
    registered = [p for p in facts.participants if p.status is ParticipantStatus.REGISTERED]
    fee = tournament.entry_fee
    if fee:
        for player in registered:
            if not player.paid and player.user_id is not None:
                pushes.append(
                    _push(
                        tournament,
                        _key(tournament, "unpaid", player.id),
                        remind_at,
                        player.user_id,
                        Phrase.of(
                            "reminder-unpaid",
                            tournament=tournament.title,
                            fee=fee,  # a Decimal: "500,5" in Russian when rendered
                            deadline=closes,
                        ),
                    )
                )
    size = tournament.regulation.team_size
    if size is not None:
        by_id = {p.id: p for p in facts.participants}
        for team in incomplete_teams(facts.teams, facts.participants, size):
            captain = by_id.get(team.captain_id)
            if captain is None or captain.user_id is None:
                continue
            pushes.append(
                _push(
                    tournament,
                    _key(tournament, "team", team.id),
                    remind_at,
                    captain.user_id,
                    Phrase.of(
                        "reminder-team-incomplete",
                        tournament=tournament.title,
                        team=team.name,
                        count=len(members(team, facts.participants)),
                        size=size,
                        deadline=closes,
                    ),
                )
            )
    return pushes


# --- check-in ---------------------------------------------------------------------------------


def _checkin_reminders(facts: ReminderFacts) -> list[ScheduledPush]:
    tournament = facts.tournament
    if tournament.starts_on is None:
        return []
    openings = checkin_opening_times(
        tournament.timetable, tournament.starts_on, tournament.timezone
    )
    if not openings:
        return []
    opens_at = openings[min(openings)]
    if tournament.checkin_cutoff is not None and opens_at >= tournament.checkin_cutoff:
        return []
    button = Button(Phrase.of("checkin-button"), CheckIn(tournament.id))
    return [
        _push(
            tournament,
            _key(tournament, "checkin", player.id),
            opens_at,
            player.user_id,
            Phrase.of("reminder-checkin-open", tournament=tournament.title),
            ((button,),),
        )
        for player in facts.participants
        if player.status is ParticipantStatus.REGISTERED
        and not player.checked_in
        and player.user_id is not None
    ]


# --- rounds and protocols ---------------------------------------------------------------------


def who_plays(seated: int, participants: Mapping[int, Participant]) -> Participant | None:
    """Who plays a seat now: the seated participant, or the substitute who took over his
    remaining games (a substitute of a substitute too); None when nobody does."""
    substitutes = {p.substitute_for: p for p in participants.values() if p.substitute_for}
    player = participants.get(seated)
    seen: set[int] = set()
    while player is not None and player.status is not ParticipantStatus.REGISTERED:
        if player.id in seen:
            return None
        seen.add(player.id)
        player = substitutes.get(player.id)
    return player


def _round_reminders(facts: ReminderFacts, times: ReminderTimes) -> list[ScheduledPush]:
    tournament = facts.tournament
    stage = facts.stage
    assert stage is not None
    if tournament.starts_on is None:
        return []
    games = {
        game.number: game
        for game in planned_games(tournament.timetable, tournament.starts_on, tournament.timezone)
        if game.stage == stage.stage
    }
    participants = {p.id: p for p in facts.participants}
    pushes: list[ScheduledPush] = []
    for round_ in stage.rounds:
        planned = games.get(round_.number)
        if round_.published_at is None or planned is None:
            continue
        for game in round_.games:
            if game.state is GameState.OPEN:
                pushes += _seat_reminders(facts, times, round_, game, planned, participants)
                pushes += _judge_reminder(facts, times, round_, game, planned)
        pushes += _chief_judge_reminders(facts, times, round_, planned)
    return pushes


def _seat_reminders(
    facts: ReminderFacts,
    times: ReminderTimes,
    round_: Round,
    game: TableGame,
    planned: PlannedGame,
    participants: Mapping[int, Participant],
) -> list[ScheduledPush]:
    tournament = facts.tournament
    names = facts.judge_names or {}
    judge = names.get(game.judge_id, str(game.judge_id)) if game.judge_id is not None else "—"
    pushes = []
    for seat, seated in enumerate(game.players, start=1):
        player = who_plays(seated, participants)
        if player is None or player.user_id is None:
            continue
        pushes.append(
            _push(
                tournament,
                _key(tournament, "round", round_.id, player.id),
                round_reminder_time(planned, times.round_lead),
                player.user_id,
                Phrase.of(
                    "reminder-round",
                    tournament=tournament.title,
                    game=round_.number,
                    time=_local(planned.starts_at, tournament.timezone, "%H:%M"),
                    table=game.table,
                    seat=seat,
                    judge=judge,
                ),
            )
        )
    return pushes


def _judge_reminder(
    facts: ReminderFacts, times: ReminderTimes, round_: Round, game: TableGame, planned: PlannedGame
) -> list[ScheduledPush]:
    if game.judge_id is None:
        return []
    tournament = facts.tournament
    button = Button(Phrase.of("round-open-protocol"), OpenProtocol(game.id))
    return [
        _push(
            tournament,
            _key(tournament, "protocol", game.id),
            protocol_reminder_time(planned, times.protocol_grace),
            game.judge_id,
            Phrase.of(
                "reminder-protocol-missing",
                tournament=tournament.title,
                game=round_.number,
                table=game.table,
            ),
            ((button,),),
        )
    ]


def _chief_judge_reminders(
    facts: ReminderFacts, times: ReminderTimes, round_: Round, planned: PlannedGame
) -> list[ScheduledPush]:
    open_tables = [game.table for game in round_.games if game.state is GameState.OPEN]
    if not open_tables:
        return []
    tournament = facts.tournament
    due_at = protocol_reminder_time(planned, times.protocol_grace + times.chief_judge_grace)
    return [
        _push(
            tournament,
            _key(tournament, "chief", round_.id, chief),
            due_at,
            chief,
            Phrase.of(
                "reminder-protocols-missing-chief",
                tournament=tournament.title,
                game=round_.number,
                tables=", ".join(str(table) for table in open_tables),
            ),
        )
        for chief in facts.chief_judges
    ]
