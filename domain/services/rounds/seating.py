"""Seating the stage: every round for the players still in, the rounds not published yet
seated anew from a new seed, or re-seated changing few places after players left."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import replace

from domain.actor import Actor
from domain.lifecycle import advancing_players
from domain.player_keys import PlayerKey, participant_id
from domain.registration import ParticipantStatus
from domain.rounds import (
    RoundSeating,
    SeatedStage,
    fill_freed_seats,
    rotate_judges,
    rounds_of_stage,
    seats_changed,
    tables_of_stage,
)
from domain.seating.request import DEFAULT_SWAPS, Seating, SeatingError, SeatingRequest
from domain.services.ports import UnitOfWork, UnitOfWorkFactory
from domain.services.rounds.preview import (
    StagePreview,
    as_seating,
    current_stage,
    gone_players,
    organizing,
    preview_of,
    seated,
    seating_request,
    stage_players,
    table_judges_of,
    teams_of,
)
from domain.services.rounds.schedules import correct_schedules
from domain.services.standings import compute_current
from domain.tournament import Tournament
from domain.validation import Invalid


async def _players_still_in(uow: UnitOfWork, tournament: Tournament, stage_id: str) -> list[int]:
    """Who plays the stage: the registered players, or those the previous stage's cut sent."""
    participants = await uow.participants.of_tournament(tournament.id)
    playing = [p for p in participants if p.status is ParticipantStatus.REGISTERED]
    regulation = tournament.regulation
    index = regulation.stage_index(stage_id)
    if index == 0:
        return sorted(p.id for p in playing)
    previous = regulation.stages[index - 1].id
    standings = await compute_current(uow, tournament)
    cut = next(cut for cut in standings.cuts if cut.stage == previous)
    if cut.needs_lot:
        raise Invalid("stage-cut-needs-lot", places=cut.open_places)
    return advancing_players(cut, participants)


class SeatingService:
    """Seat the stage, regenerate its seating, re-seat it after players left."""

    def __init__(self, uow: UnitOfWorkFactory) -> None:
        self._uow = uow

    async def start_stage(
        self,
        actor: Actor,
        tournament_id: int,
        seed: int,
        swaps: int = DEFAULT_SWAPS,
    ) -> StagePreview:
        """Seat every round of the stage the tournament is in, for the players still in.

        The seating is generated from `seed` (recorded, so it can be reproduced) and nothing is
        sent yet: the organizer previews, edits and publishes round by round. Table judges are
        rotated over the tables. A stage already seated is shown as it is.
        """
        async with self._uow() as uow:
            tournament = await organizing(uow, actor, tournament_id)
            stage_id = current_stage(tournament)
            existing = await uow.rounds.stage(tournament.id, stage_id)
            if existing is not None:
                return await preview_of(uow, tournament, existing)
            players = await _players_still_in(uow, tournament, stage_id)
            rules = tournament.regulation.stage(stage_id)
            tables = tables_of_stage(rules, len(players))
            if tables == 0 or tables * 10 > len(players):
                raise Invalid("stage-too-few-players", count=len(players), tables=max(tables, 1))
            rounds = rounds_of_stage(rules, len(players), tables)
            team_of = teams_of(await uow.participants.of_tournament(tournament.id))
            judges = await table_judges_of(uow, tournament.id)
        table_judges = [rotate_judges(judges, tables, r) for r in range(rounds)]
        # The rotation names each round's judges; the seating gives them their tables.
        request = replace(
            seating_request(
                None, players, (tables,) * rounds, team_of, seed, swaps, table_judges=table_judges
            ),
            choose_judges=True,
        )
        # The search is CPU work of seconds: it runs off the event loop, outside any transaction.
        seating = await _generate(request)
        plans = [
            (
                RoundSeating(_ids(tables_), _id_tuple(seating.sit_outs[r])),
                tuple(None if judge is None else int(judge) for judge in seating.table_judges[r]),
            )
            for r, tables_ in enumerate(seating.rounds)
        ]
        async with self._uow() as uow:
            stage = await uow.rounds.add_stage(tournament.id, stage_id, seed, actor.now, plans)
            if stage is None:
                # The organizer pressed twice: the first seating stands.
                return await preview_of(uow, tournament, await seated(uow, tournament))
            await uow.protocols.start_standings(tournament.id)
            await uow.commit()
            return await preview_of(uow, tournament, stage)

    async def regenerate_stage(
        self,
        actor: Actor,
        tournament_id: int,
        seed: int,
        swaps: int = DEFAULT_SWAPS,
    ) -> StagePreview:
        """Seat the rounds not published yet anew from a new seed; published rounds stay.

        Only the players still in are seated: whoever left without a substitute is dropped.
        """
        return await self._reseat(actor, tournament_id, seed, swaps, False)

    async def reseat_stage(
        self,
        actor: Actor,
        tournament_id: int,
        seed: int,
        swaps: int = DEFAULT_SWAPS,
    ) -> StagePreview:
        """Re-seat the rounds not published yet for the players still in, changing few places.

        After a no-show or an exclusion without a substitute: published rounds stay; the seats of
        those who left go to players sitting out (`fill_freed_seats`) and, when the players no
        longer fill the tables, the last tables of each round are dropped. When that would break
        the sit-out rotation or seat teammates together, the generator seats the rounds close to
        the current seating. The seed is recorded; the preview says how many places changed.
        """
        return await self._reseat(actor, tournament_id, seed, swaps, True)

    async def _reseat(
        self,
        actor: Actor,
        tournament_id: int,
        seed: int,
        swaps: int,
        minimal: bool,
    ) -> StagePreview:
        async with self._uow() as uow:
            tournament = await organizing(uow, actor, tournament_id)
            stage = await seated(uow, tournament)
            following = stage.next_unpublished
            if following is None:
                raise Invalid("stage-all-published")
            participants = await uow.participants.of_tournament(tournament.id)
        gone = set(gone_players(stage, participants))
        if minimal and not gone:
            raise Invalid("stage-players-unchanged")
        players = [p for p in stage_players(stage) if p not in gone]
        tables = min(len(following.games), len(players) // 10)
        if tables == 0:
            raise Invalid("stage-too-few-players", count=len(players), tables=1)
        free = [r for r in stage.rounds if r.published_at is None]
        team_of = teams_of(participants)
        seatings = (
            fill_freed_seats(
                [r.seating for r in free], gone, tables, team_of, _sat_out(stage, players), seed
            )
            if minimal
            else None
        )
        if seatings is None:
            seatings = await _generated(stage, players, tables, team_of, seed, swaps, minimal)
        async with self._uow() as uow:
            current = await seated(uow, tournament)
            if current.rounds != stage.rounds:
                raise Invalid("stage-changed-meanwhile")
            for round_, seating_ in zip(free, seatings, strict=True):
                await uow.rounds.seat_round(round_.id, seating_)
            await uow.rounds.set_seed(current.id, seed)
            changed = (
                seats_changed([r.seating for r in free], seatings, players) if minimal else None
            )
            preview = await preview_of(uow, tournament, await seated(uow, tournament), changed)
            await correct_schedules(uow, replace(preview, stage=current), preview)
            await uow.commit()
            return preview


async def _generated(
    stage: SeatedStage,
    players: list[int],
    tables: int,
    team_of: dict[int, int],
    seed: int,
    swaps: int,
    minimal: bool,
) -> tuple[RoundSeating, ...]:
    """The unpublished rounds seated anew by the generator (close to the stage's current
    seating when `minimal`), at `tables` tables, the published ones kept."""
    counts = [len(r.games) if r.published_at else tables for r in stage.rounds]
    previous = as_seating(stage) if minimal else None
    judges = [
        [game.judge_id for game in round_.games][:count]
        for round_, count in zip(stage.rounds, counts, strict=True)
    ]
    request = seating_request(stage, players, counts, team_of, seed, swaps, previous, judges)
    seating = await _generate(request)
    return tuple(
        RoundSeating(_ids(seating.rounds[r.number - 1]), _id_tuple(seating.sit_outs[r.number - 1]))
        for r in stage.rounds
        if r.published_at is None
    )


async def _generate(request: SeatingRequest) -> Seating:
    try:
        return await asyncio.to_thread(_search, request)
    except SeatingError as error:
        raise Invalid("stage-seating-impossible", reason=str(error)) from None


def _search(request: SeatingRequest) -> Seating:
    """The seating, in the worker thread. The search is imported here, on the first seating:
    it loads numpy (some 11-15 MB), which a bot serving only updates does not hold."""
    from domain.seating.generator import generate_seating

    return generate_seating(request)


def _ids(tables: Sequence[Sequence[str]]) -> tuple[tuple[int, ...], ...]:
    return tuple(_id_tuple(table) for table in tables)


def _id_tuple(players: Sequence[PlayerKey]) -> tuple[int, ...]:
    return tuple(participant_id(p) for p in players)


def _sat_out(stage: SeatedStage, players: Sequence[int]) -> dict[int, int]:
    """How often each of `players` sat out the published rounds."""
    counts = dict.fromkeys(players, 0)
    for round_ in stage.rounds:
        if round_.published_at is not None:
            for player in round_.sit_outs:
                if player in counts:
                    counts[player] += 1
    return counts
