"""Use cases of the reminders a tournament's schedule drives, and of its timetable.

`replan_touched` is the unit of work's after-change step: before every commit it replans the
tournaments whose reminder facts the transaction wrote (the timetable, the state, seats and
judges, payments, teams, chief judges, protocols, check-in: `UnitOfWork.reminders_touched`,
marked by the repositories' writes), so no use case has to remember it. `replan_reminders`
stores the tournament's plan (`domain.reminder_plan`) as scheduled pushes, replacing each by
its key and cancelling those the plan no longer names. A reminder whose moment has passed is
not made anew: it went out already (the scheduler deleted it when it moved it into the
outbox), or it came too late to matter; one still waiting is sent at once with its new text.
A stored protocol changes only its round's reminders (`UnitOfWork.rounds_touched`): that
round alone is planned and compared with its waiting reminders, not the whole stage with
every reminder of the tournament. Likewise a participant's write before a tournament runs (a
registration, a paid mark, a check-in, a withdrawal, a promotion: `participants_touched`)
changes his own reminders alone (`domain.reminder_plan.person_reminders`) and those of the
teams he left or joined (`teams_touched`, `team_reminders`: the captain's, read from the
team's members): a registration step costs the same in a tournament of 300 as in one of ten.
Every replan holds its tournament's lock (`TournamentRepository.lock`) before it reads what it
plans from: two transactions replanning one tournament at once take turns, and the second
reads what the first committed, so neither leaves a plan without the other's change.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from datetime import datetime

from domain.actor import Actor
from domain.outgoing import ScheduledPush
from domain.permissions import Action, StaffRole
from domain.regulation import TimetableDay
from domain.reminder_plan import (
    ReminderFacts,
    person_keys,
    person_reminders,
    plan_reminders,
    plans_by_person,
    reminder_prefix,
    round_keys,
    team_keys,
    team_reminders,
)
from domain.rounds import SeatedStage
from domain.services.access import NotFound, authorize
from domain.services.ports import UnitOfWork, UnitOfWorkFactory
from domain.tournament import Tournament, TournamentState
from domain.validation import timetable as parse_timetable


async def _stage_being_played(
    uow: UnitOfWork, tournament: Tournament, round_ids: list[int] | None = None
) -> SeatedStage | None:
    """The stage the round reminders come from (with only `round_ids`' rounds if given)."""
    if tournament.state is not TournamentState.RUNNING or tournament.current_stage is None:
        return None
    return await uow.rounds.stage(tournament.id, tournament.current_stage, round_ids)


async def _facts(
    uow: UnitOfWork, tournament: Tournament, stage: SeatedStage | None, *, everyone: bool = True
) -> ReminderFacts:
    """What the plan reads; without `everyone`, of the participants only the stage's seats
    and the substitutes (all that its rounds' reminders name: `who_plays`)."""
    if everyone or stage is None:
        participants = await uow.participants.of_tournament(tournament.id)
    else:
        seated = {p for round_ in stage.rounds for game in round_.games for p in game.players}
        participants = await uow.participants.seated_and_substitutes(tournament.id, seated)
    teams = await uow.teams.of_tournament(tournament.id) if tournament.is_team_tournament else []
    staff = await uow.staff.of_tournament(tournament.id)
    judge_ids = {
        game.judge_id
        for round_ in (stage.rounds if stage else ())
        if round_.published_at is not None
        for game in round_.games
        if game.judge_id is not None
    }
    judges = await uow.users.many(judge_ids)
    judge_names = {
        judge_id: judges[judge_id].display_name if judge_id in judges else str(judge_id)
        for judge_id in sorted(judge_ids)
    }
    return ReminderFacts(
        tournament=tournament,
        participants=participants,
        teams=teams,
        stage=stage,
        judge_names=judge_names,
        chief_judges=sorted(uid for uid, role in staff if role is StaffRole.CHIEF_JUDGE),
    )


async def replan_reminders(
    uow: UnitOfWork, tournament_id: int, now: datetime
) -> list[ScheduledPush]:
    """Bring the tournament's scheduled reminders in line with its data, in the caller's
    transaction; returns the reminders waiting afterwards, earliest first."""
    uow.reminders_touched.discard(tournament_id)
    uow.rounds_touched.difference_update(
        {touched for touched in uow.rounds_touched if touched[0] == tournament_id}
    )
    for touched_set in (uow.participants_touched, uow.teams_touched):
        touched_set.difference_update(
            {touched for touched in touched_set if touched[0] == tournament_id}
        )
    await uow.tournaments.lock(tournament_id)
    tournament = await _tournament(uow, tournament_id)
    waiting = await uow.scheduled_pushes.waiting(reminder_prefix(tournament.id))
    stage = await _stage_being_played(uow, tournament)
    return await _apply(uow, waiting, plan_reminders(await _facts(uow, tournament, stage)), now)


async def _tournament(uow: UnitOfWork, tournament_id: int) -> Tournament:
    tournament = await uow.tournaments.get(tournament_id)
    if tournament is None:
        raise NotFound(f"tournament {tournament_id}")
    return tournament


async def _replan_rounds(
    uow: UnitOfWork, tournament_id: int, round_ids: list[int], now: datetime
) -> None:
    """Bring the reminders of these rounds alone in line with their data (the rest of the
    tournament's did not change); the whole plan when one of them is not in the stage being
    played (a correction of an earlier stage's game)."""
    await uow.tournaments.lock(tournament_id)
    tournament = await _tournament(uow, tournament_id)
    stage = await _stage_being_played(uow, tournament, round_ids)
    if stage is None or len(stage.rounds) != len(round_ids):
        await replan_reminders(uow, tournament_id, now)
        return
    owned = [round_keys(tournament, round_) for round_ in stage.rounds]
    prefixes = [prefix for keys in owned for prefix in (*keys.prefixes, *sorted(keys.keys))]
    waiting = {
        key: push
        for key, push in (await uow.scheduled_pushes.waiting(*prefixes)).items()
        if any(keys.owns(key) for keys in owned)
    }
    facts = await _facts(uow, tournament, stage, everyone=False)
    await _apply(uow, waiting, plan_reminders(facts), now)


async def _replan_people(
    uow: UnitOfWork,
    tournament_id: int,
    participant_ids: list[int],
    team_ids: list[int],
    now: datetime,
) -> None:
    """Bring the reminders of these participants and teams alone in line with their data
    (their waiting ones read by their keys at once); the whole plan when the tournament's
    reminders of one person may depend on others' (`plans_by_person`)."""
    await uow.tournaments.lock(tournament_id)
    tournament = await _tournament(uow, tournament_id)
    if not plans_by_person(tournament):
        await replan_reminders(uow, tournament_id, now)
        return
    keys: set[str] = set()
    wanted: list[ScheduledPush] = []
    for participant_id in participant_ids:
        participant = await uow.participants.get(participant_id)
        keys |= person_keys(tournament_id, participant_id)
        if participant is not None:
            wanted += person_reminders(tournament, participant)
    for team_id in team_ids:
        keys |= team_keys(tournament_id, team_id)
        wanted += await _team_wants(uow, tournament, team_id)
    await _apply(uow, await uow.scheduled_pushes.waiting_keys(keys), wanted, now)


async def _team_wants(uow: UnitOfWork, tournament: Tournament, team_id: int) -> list[ScheduledPush]:
    """The team's own reminders (`team_reminders`), read from its members and its captain."""
    team = await uow.teams.get(team_id)
    if team is None:
        return []
    participants = await uow.participants.of_team(team_id)
    if all(p.id != team.captain_id for p in participants):
        captain = await uow.participants.get(team.captain_id)
        participants += [captain] if captain is not None else []
    return team_reminders(tournament, team, participants)


async def _apply(
    uow: UnitOfWork,
    waiting: dict[str, ScheduledPush],
    wanted: list[ScheduledPush],
    now: datetime,
) -> list[ScheduledPush]:
    """Store the `wanted` reminders in place of the `waiting` ones; the reminders waiting
    afterwards, earliest first."""
    kept: list[ScheduledPush] = []
    for push in wanted:
        if push.due_at <= now:
            if push.key not in waiting:
                continue
            push = replace(push, due_at=now)
        kept.append(push)
    # Most replans (a check-in, a paid mark) change few reminders: rewrite only those, at once.
    await uow.scheduled_pushes.schedule_many(
        [push for push in kept if waiting.get(push.key) != push]
    )
    await uow.scheduled_pushes.cancel_many(sorted(set(waiting) - {push.key for push in wanted}))
    return sorted(kept, key=lambda push: (push.due_at, push.key))


async def replan_touched(uow: UnitOfWork, now: datetime) -> None:
    """Replan the reminders of every tournament (or round) the transaction's writes touched,
    in it, each tournament's under its lock (taken at once, in the order of their ids: two
    transactions touching the same two tournaments wait for each other, never deadlock)."""
    touched = {touched[0] for touched in uow.rounds_touched}
    touched |= {touched[0] for touched in (*uow.participants_touched, *uow.teams_touched)}
    for tournament_id in sorted(uow.reminders_touched | touched):
        await uow.tournaments.lock(tournament_id)
    while uow.reminders_touched:
        await replan_reminders(uow, min(uow.reminders_touched), now)
    rounds: dict[int, list[int]] = {}
    for tournament_id, round_id in sorted(uow.rounds_touched):
        rounds.setdefault(tournament_id, []).append(round_id)
    uow.rounds_touched.clear()
    for tournament_id, round_ids in rounds.items():
        await _replan_rounds(uow, tournament_id, round_ids, now)
    people: dict[int, tuple[list[int], list[int]]] = {}
    for tournament_id, participant_id in sorted(uow.participants_touched):
        people.setdefault(tournament_id, ([], []))[0].append(participant_id)
    for tournament_id, team_id in sorted(uow.teams_touched):
        people.setdefault(tournament_id, ([], []))[1].append(team_id)
    uow.participants_touched.clear()
    uow.teams_touched.clear()
    for tournament_id, (participant_ids, team_ids) in sorted(people.items()):
        await _replan_people(uow, tournament_id, participant_ids, team_ids, now)


@dataclass(frozen=True)
class TimetableView:
    """The organizer's timetable screen: the tournament's timetable, the regulation's, and
    the reminders it drives (waiting ones, earliest first)."""

    tournament: Tournament
    regulation_timetable: tuple[TimetableDay, ...]
    reminders: tuple[ScheduledPush, ...]

    @property
    def adjusted(self) -> bool:
        """Whether the organizer changed the regulation's timetable."""
        return self.tournament.timetable_json is not None


class TimetableService:
    """A tournament's timetable, which the reminders follow."""

    def __init__(self, uow: UnitOfWorkFactory) -> None:
        self._uow = uow

    async def timetable_of(
        self,
        actor: Actor,
        tournament_id: int,
    ) -> TimetableView:
        """The tournament's timetable and its waiting reminders, for its organizer."""
        async with self._uow() as uow:
            tournament = await authorize(uow, actor, tournament_id, Action.EDIT_SETTINGS)
            reminders = await replan_reminders(uow, tournament.id, actor.now)
            await uow.commit()
            return TimetableView(tournament, tournament.regulation.timetable, tuple(reminders))

    async def set_timetable(
        self,
        actor: Actor,
        tournament_id: int,
        text: str | None,
    ) -> TimetableView:
        """Adjust the timetable (typed one event a line, "day HH:MM event [stage]", as the screen
        shows it; None brings the regulation's back); the reminders move with it.

        Refused (`Invalid`) when a line or a time cannot be read or the timetable does not fit the
        regulation (games per stage, times in order); nothing changes then.
        """
        async with self._uow() as uow:
            tournament = await authorize(uow, actor, tournament_id, Action.EDIT_SETTINGS)
            timetable_json = None
            if text is not None:
                days = parse_timetable(text, tournament.regulation)
                timetable_json = _timetable_json(days)
            tournament = replace(tournament, timetable_json=timetable_json)
            await uow.tournaments.save(tournament)
            reminders = await replan_reminders(uow, tournament.id, actor.now)
            await uow.commit()
            return TimetableView(tournament, tournament.regulation.timetable, tuple(reminders))


def _timetable_json(days: tuple[TimetableDay, ...]) -> str:
    return json.dumps([day.model_dump(mode="json", exclude_none=True) for day in days])
