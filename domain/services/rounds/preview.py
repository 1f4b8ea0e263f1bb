"""The organizer's preview of a seated stage (rounds, judges, quality, nicknames), and what
every use case of the stage's rounds reads first: the tournament he organizes, its seated
stage, the request its seating answers."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from domain.actor import Actor
from domain.outgoing import Localized
from domain.permissions import Action, StaffRole
from domain.player_keys import participant_id, participant_key
from domain.registration import Participant
from domain.reminder_plan import who_plays
from domain.rounds import Round, SeatedStage, round_times
from domain.seating.quality import SeatingQuality, evaluate_seating
from domain.seating.request import Seating, SeatingRequest
from domain.seating.sheets import StageSheet, stage_sheet
from domain.services.access import authorize
from domain.services.ports import UnitOfWork, UnitOfWorkFactory
from domain.tournament import Tournament
from domain.validation import Invalid


@dataclass(frozen=True)
class StagePreview:
    """What the organizer sees of a seated stage: rounds, judges, quality, nicknames."""

    tournament: Tournament
    stage: SeatedStage
    # The solver's report, its players named by participant id.
    quality: SeatingQuality[int]
    nicknames: Mapping[int, str]
    # Everyone who may judge a table (table judges, then chief judges), by Telegram id.
    judges: Mapping[int, str]
    times: tuple[str | None, ...]
    # Players who left (no-show, exclusion) without a substitute but still hold seats in rounds
    # not published yet: those rounds wait for a re-seating.
    gone: tuple[int, ...] = ()
    # Places that the re-seating just made changed in the rounds not published yet.
    changed_seats: int | None = None
    clubs: Mapping[int, str] = field(default_factory=dict)

    def judge_name(self, judge_id: int | None) -> str | None:
        """The name of a table's judge, None when the table has none."""
        return None if judge_id is None else self.judges.get(judge_id, str(judge_id))


async def organizing(uow: UnitOfWork, actor: Actor, tournament_id: int) -> Tournament:
    return await authorize(uow, actor, tournament_id, Action.MOVE_STATE)


def current_stage(tournament: Tournament) -> str:
    stage = tournament.running_stage
    if stage is None:
        raise Invalid("stage-not-started")
    return stage


async def seated(uow: UnitOfWork, tournament: Tournament) -> SeatedStage:
    stage = await uow.rounds.stage(tournament.id, current_stage(tournament))
    if stage is None:
        raise Invalid("stage-not-seated")
    return stage


def nicknames_of(participants: Sequence[Participant]) -> dict[int, str]:
    return {p.id: p.nickname for p in participants}


def teams_of(participants: Sequence[Participant]) -> dict[int, int]:
    return {p.id: p.team_id for p in participants if p.team_id is not None}


async def judges_of(uow: UnitOfWork, tournament_id: int) -> dict[int, str]:
    staff = await uow.staff.of_tournament(tournament_id)
    order = {StaffRole.TABLE_JUDGE: 0, StaffRole.CHIEF_JUDGE: 1}
    ordered = [user_id for user_id, _ in sorted(staff, key=lambda item: (order[item[1]], item[0]))]
    # In one query: thirty judges read one by one were a third of a preview's statements.
    users = await uow.users.many(ordered)
    return {
        user_id: user.display_name if (user := users.get(user_id)) else str(user_id)
        for user_id in ordered
    }


async def table_judges_of(uow: UnitOfWork, tournament_id: int) -> list[int]:
    staff = await uow.staff.of_tournament(tournament_id)
    return sorted(user_id for user_id, role in staff if role is StaffRole.TABLE_JUDGE)


def seating_request(
    stage: SeatedStage | None,
    players: Sequence[int],
    tables: Sequence[int],
    team_of: Mapping[int, int],
    seed: int,
    swaps: int,
    previous: Seating | None = None,
    table_judges: Sequence[Sequence[int | None]] = (),
) -> SeatingRequest:
    """The generator's request: `tables` per round; the published rounds of `stage` are played.

    `table_judges[r][t]` is the judge of table t in round r, spread over every player's games.
    """
    published = stage.rounds if stage is not None else ()
    played = tuple(
        tuple(tuple(participant_key(p) for p in game.players) for game in round_.games)
        for round_ in published
        if round_.published_at is not None
    )
    return SeatingRequest(
        players=tuple(participant_key(p) for p in players),
        rounds=len(tables),
        tables_per_round=tuple(tables),
        team_of={
            participant_key(p): participant_key(team)
            for p, team in team_of.items()
            if p in set(players)
        },
        played=played,
        previous=previous,
        table_judges=tuple(
            tuple(None if judge is None else str(judge) for judge in judges)
            for judges in table_judges
        ),
        seed=seed,
        swaps=swaps,
    )


def stage_players(stage: SeatedStage) -> list[int]:
    """The players of the stage's latest seating: its last round's tables and sit-outs."""
    last = stage.rounds[-1].seating
    return sorted({p for table in last.tables for p in table} | set(last.sit_outs))


def gone_players(stage: SeatedStage, participants: Sequence[Participant]) -> tuple[int, ...]:
    """Players seated in rounds not published yet whom nobody plays for any more."""
    by_id = {p.id: p for p in participants}
    seated = {
        p
        for round_ in stage.rounds
        if round_.published_at is None
        for p in (*(p for game in round_.games for p in game.players), *round_.sit_outs)
    }
    return tuple(sorted(p for p in seated if who_plays(p, by_id) is None))


def as_seating(stage: SeatedStage) -> Seating:
    return Seating(
        rounds=tuple(
            tuple(tuple(participant_key(p) for p in game.players) for game in round_.games)
            for round_ in stage.rounds
        ),
        sit_outs=tuple(
            tuple(participant_key(p) for p in round_.sit_outs) for round_ in stage.rounds
        ),
        seed=stage.seed,
    )


async def preview_of(
    uow: UnitOfWork,
    tournament: Tournament,
    stage: SeatedStage,
    changed_seats: int | None = None,
) -> StagePreview:
    participants = await uow.participants.of_tournament(tournament.id)
    request = seating_request(
        stage,
        stage_players(stage),
        [len(round_.games) for round_ in stage.rounds],
        teams_of(participants),
        stage.seed,
        0,
        table_judges=[[game.judge_id for game in round_.games] for round_ in stage.rounds],
    )
    # Measuring a fresh 300-player seating takes a few hundred milliseconds of CPU: in a thread,
    # so the event loop goes on handling the other updates meanwhile.
    quality = await asyncio.to_thread(evaluate_seating, request, as_seating(stage))
    return StagePreview(
        tournament=tournament,
        stage=stage,
        quality=quality.named_by(participant_id),
        nicknames=nicknames_of(participants),
        judges=await judges_of(uow, tournament.id),
        # The organizer's timetable (the regulation's unless he adjusted it), as reminders use.
        times=round_times(
            tournament.regulation.model_copy(update={"timetable": tournament.timetable}),
            stage.stage,
        ),
        gone=gone_players(stage, participants),
        changed_seats=changed_seats,
        clubs={p.id: p.club for p in participants},
    )


class StagePreviewService:
    """What the organizer sees of the stage: its seating, the quality report, who is gone."""

    def __init__(self, uow: UnitOfWorkFactory) -> None:
        self._uow = uow

    async def stage_preview(
        self,
        actor: Actor,
        tournament_id: int,
    ) -> StagePreview:
        """The seated stage the tournament is in, for its organizer."""
        async with self._uow() as uow:
            tournament = await organizing(uow, actor, tournament_id)
            return await preview_of(uow, tournament, await seated(uow, tournament))


def stage_sheet_of(preview: StagePreview) -> StageSheet:
    """The seated stage to print or export: every round's tables, seats, judges and times."""
    stage = preview.stage
    return stage_sheet(
        title=preview.tournament.title,
        stage=stage.stage,
        rounds=[[game.players for game in round_.games] for round_ in stage.rounds],
        sit_outs=[round_.sit_outs for round_ in stage.rounds],
        judges=[[preview.judge_name(game.judge_id) for game in r.games] for r in stage.rounds],
        times=preview.times,
        name=lambda player: (
            preview.nicknames.get(player, str(player)),
            preview.clubs.get(player, ""),
        ),
    )


def round_of(stage: SeatedStage, number: int) -> Round:
    try:
        return stage.round(number)
    except KeyError:
        raise Invalid("round-unknown", round=number, rounds=len(stage.rounds)) from None


def round_time(preview: StagePreview, round_number: int) -> str:
    times = preview.times
    known = times[round_number - 1] if round_number <= len(times) else None
    # "none" drops the time from the texts ("Тур 1: стол 2"), rather than showing "(—)".
    return known or "none"


def stage_name(preview: StagePreview) -> Localized:
    """The stage's name as the regulation writes it, in both languages (never its id)."""
    name = preview.tournament.regulation.stage(preview.stage.stage).name
    return Localized(name.ru, name.en)
