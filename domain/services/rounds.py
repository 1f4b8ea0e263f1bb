"""Use cases of a stage's rounds: seat the stage, preview and edit it, assign judges, publish.

The organizer seats the stage the tournament is in (the lifecycle's "start stage" chose it),
looks at the preview with its quality report, edits or regenerates it, and publishes round
after round. Publishing records, in the same transaction, a private message to every player
and judge and the channel's post; an edit after publishing records corrections for exactly
the people it concerns.
"""

from __future__ import annotations

import asyncio
import hashlib
import html
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from domain.actor import Actor
from domain.intents import OpenProtocol, RunLiveGame
from domain.lifecycle import advancing_players
from domain.outgoing import TEXT_LIMIT, Button, Lines, Localized, OutgoingMessage, Phrase
from domain.permissions import Action, StaffRole
from domain.registration import Participant, ParticipantStatus
from domain.reminder_plan import who_plays
from domain.rounds import (
    GameState,
    Round,
    RoundSeating,
    SeatedStage,
    TableGame,
    fill_freed_seats,
    move_player,
    moved_players,
    rotate_judges,
    round_times,
    rounds_of_stage,
    seats_changed,
    swap_players,
    tables_of_stage,
)
from domain.seating.generator import (
    DEFAULT_SWAPS,
    Seating,
    SeatingError,
    SeatingRequest,
    generate_seating,
)
from domain.seating.quality import SeatingQuality, evaluate_seating
from domain.seating.sheets import StageSheet, stage_sheet
from domain.services.access import NotFound, authorize
from domain.services.ports import UnitOfWork, UnitOfWorkFactory
from domain.services.standings import compute_current
from domain.tournament import Tournament, TournamentState
from domain.validation import Invalid

# Room left in a channel post for its heading around the tables.
_POST_HEADING_ROOM = 400
# Room for a table's heading in any language: "<b>Стол 12</b> · судья " and the judge's name.
_TABLE_HEADING_ROOM = 120


@dataclass(frozen=True)
class StagePreview:
    """What the organizer sees of a seated stage: rounds, judges, quality, nicknames."""

    tournament: Tournament
    stage: SeatedStage
    quality: SeatingQuality
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


async def _organizing(uow: UnitOfWork, actor: Actor, tournament_id: int) -> Tournament:
    return await authorize(uow, actor, tournament_id, Action.MOVE_STATE)


def _current_stage(tournament: Tournament) -> str:
    stage = tournament.running_stage
    if stage is None:
        raise Invalid("stage-not-started")
    return stage


async def _seated(uow: UnitOfWork, tournament: Tournament) -> SeatedStage:
    stage = await uow.rounds.stage(tournament.id, _current_stage(tournament))
    if stage is None:
        raise Invalid("stage-not-seated")
    return stage


def _nicknames(participants: Sequence[Participant]) -> dict[int, str]:
    return {p.id: p.nickname for p in participants}


def _team_of(participants: Sequence[Participant]) -> dict[int, int]:
    return {p.id: p.team_id for p in participants if p.team_id is not None}


async def _judges(uow: UnitOfWork, tournament_id: int) -> dict[int, str]:
    staff = await uow.staff.of_tournament(tournament_id)
    order = {StaffRole.TABLE_JUDGE: 0, StaffRole.CHIEF_JUDGE: 1}
    judges: dict[int, str] = {}
    for user_id, _role in sorted(staff, key=lambda item: (order[item[1]], item[0])):
        user = await uow.users.get(user_id)
        judges[user_id] = user.display_name if user else str(user_id)
    return judges


async def _table_judges(uow: UnitOfWork, tournament_id: int) -> list[int]:
    staff = await uow.staff.of_tournament(tournament_id)
    return sorted(user_id for user_id, role in staff if role is StaffRole.TABLE_JUDGE)


def _request(
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
        tuple(tuple(str(p) for p in game.players) for game in round_.games)
        for round_ in published
        if round_.published_at is not None
    )
    return SeatingRequest(
        players=tuple(str(p) for p in players),
        rounds=len(tables),
        tables_per_round=tuple(tables),
        team_of={str(p): str(team) for p, team in team_of.items() if p in set(players)},
        played=played,
        previous=previous,
        table_judges=tuple(
            tuple(None if judge is None else str(judge) for judge in judges)
            for judges in table_judges
        ),
        seed=seed,
        swaps=swaps,
    )


def _stage_players(stage: SeatedStage) -> list[int]:
    """The players of the stage's latest seating: its last round's tables and sit-outs."""
    last = stage.rounds[-1].seating
    return sorted({p for table in last.tables for p in table} | set(last.sit_outs))


def _gone(stage: SeatedStage, participants: Sequence[Participant]) -> tuple[int, ...]:
    """Players seated in rounds not published yet whom nobody plays for any more."""
    by_id = {p.id: p for p in participants}
    seated = {
        p
        for round_ in stage.rounds
        if round_.published_at is None
        for p in (*(p for game in round_.games for p in game.players), *round_.sit_outs)
    }
    return tuple(sorted(p for p in seated if who_plays(p, by_id) is None))


def _as_seating(stage: SeatedStage) -> Seating:
    return Seating(
        rounds=tuple(
            tuple(tuple(str(p) for p in game.players) for game in round_.games)
            for round_ in stage.rounds
        ),
        sit_outs=tuple(tuple(str(p) for p in round_.sit_outs) for round_ in stage.rounds),
        seed=stage.seed,
    )


async def _preview(
    uow: UnitOfWork,
    tournament: Tournament,
    stage: SeatedStage,
    changed_seats: int | None = None,
) -> StagePreview:
    participants = await uow.participants.of_tournament(tournament.id)
    request = _request(
        stage,
        _stage_players(stage),
        [len(round_.games) for round_ in stage.rounds],
        _team_of(participants),
        stage.seed,
        0,
        table_judges=[[game.judge_id for game in round_.games] for round_ in stage.rounds],
    )
    return StagePreview(
        tournament=tournament,
        stage=stage,
        quality=evaluate_seating(request, _as_seating(stage)),
        nicknames=_nicknames(participants),
        judges=await _judges(uow, tournament.id),
        # The organizer's timetable (the regulation's unless he adjusted it), as reminders use.
        times=round_times(
            tournament.regulation.model_copy(update={"timetable": tournament.timetable}),
            stage.stage,
        ),
        gone=_gone(stage, participants),
        changed_seats=changed_seats,
        clubs={p.id: p.club for p in participants},
    )


async def stage_preview(
    uow_factory: UnitOfWorkFactory,
    actor: Actor,
    tournament_id: int,
) -> StagePreview:
    """The seated stage the tournament is in, for its organizer."""
    async with uow_factory() as uow:
        tournament = await _organizing(uow, actor, tournament_id)
        return await _preview(uow, tournament, await _seated(uow, tournament))


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


@dataclass(frozen=True)
class _ScheduleLine:
    """One game of a player's schedule: where he sits and who judges, or that he sits out."""

    game: int
    time: str
    table: int | None = None
    seat: int | None = None
    judge: str = "—"

    def phrase(self) -> Phrase:
        if self.table is None:
            return Phrase.of("seating-schedule-out", game=self.game, time=self.time)
        return Phrase.of(
            "seating-schedule-game",
            game=self.game,
            time=self.time,
            table=self.table,
            seat=self.seat or 0,
            judge=self.judge,
        )

    def signature(self) -> str:
        # The line as earlier versions wrote it (judge escaped) and hashed into the schedule's
        # key, so a schedule sent before an upgrade is still known as sent after it.
        if self.table is None:
            return f"{self.game} · {self.time} · —"
        judge = html.escape(self.judge)
        return f"{self.game} · {self.time} · {self.table}/{self.seat} · {judge}"


Schedule = tuple[_ScheduleLine, ...]


def _schedules(
    preview: StagePreview, stage: SeatedStage, participants: Mapping[int, Participant]
) -> dict[int, Schedule]:
    """Every player's whole stage, a line a game: game · time · table/seat · judge ("—" out).

    A seat belongs to whoever plays it: a substitute takes over the games of the player he
    replaced that are not confirmed yet (and the rounds still open); confirmed games stay with
    the player who played them.
    """
    lines: dict[int, list[_ScheduleLine]] = {}

    def holder(seated: int, still_open: bool) -> int:
        player = who_plays(seated, participants) if still_open else None
        return seated if player is None else player.id

    for round_ in stage.rounds:
        time = _time(preview, round_.number)
        for game in round_.games:
            judge = preview.judge_name(game.judge_id) or "—"
            open_game = game.state is GameState.OPEN
            for seat, player in enumerate(game.players, start=1):
                line = _ScheduleLine(round_.number, time, game.table, seat, judge)
                lines.setdefault(holder(player, open_game), []).append(line)
        open_round = any(game.state is GameState.OPEN for game in round_.games)
        for player in round_.sit_outs:
            sitting_out = _ScheduleLine(round_.number, time)
            lines.setdefault(holder(player, open_round), []).append(sitting_out)
    return {player: tuple(games) for player, games in lines.items()}


def _schedule_key(stage: SeatedStage, player: int, schedule: Schedule) -> str:
    """One key per player and content: the same schedule is recorded once, a changed one anew."""
    text = "\n".join(line.signature() for line in schedule)
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    return f"schedule:{stage.id}:{player}:{digest}"


async def send_schedules(
    uow_factory: UnitOfWorkFactory,
    actor: Actor,
    tournament_id: int,
) -> int:
    """Send every player of the seated stage his whole schedule in one message; how many.

    A player already sent the same schedule is not sent it again. Once sent, every change of
    the stage (a move, a swap, a judge, a re-seating) sends the players it concerns their
    corrected schedule; the round messages go out on publishing as before.
    """
    async with uow_factory() as uow:
        tournament = await _organizing(uow, actor, tournament_id)
        stage = await _seated(uow, tournament)
        preview = await _preview(uow, tournament, stage)
        participants = {p.id: p for p in await uow.participants.of_tournament(tournament.id)}
        sent = 0
        for player, schedule in _schedules(preview, stage, participants).items():
            participant = participants.get(player)
            if (
                participant is None
                or participant.user_id is None
                or participant.status is not ParticipantStatus.REGISTERED
            ):
                continue
            await _schedule_notice(uow, preview, participant, schedule, "seating-schedule")
            sent += 1
        await uow.commit()
        return sent


async def _schedule_notice(
    uow: UnitOfWork, preview: StagePreview, player: Participant, schedule: Schedule, key: str
) -> None:
    await _player_notice(
        uow,
        preview.tournament,
        player,
        Phrase.of(
            key,
            title=preview.tournament.title,
            stage=_stage_name(preview),
            games=Lines(tuple(line.phrase() for line in schedule)),
        ),
        _schedule_key(preview.stage, player.id, schedule),
    )


async def _correct_schedules(
    uow: UnitOfWork,
    before: StagePreview,
    after: StagePreview,
    participants_before: Mapping[int, Participant] | None = None,
) -> None:
    """Send the corrected schedule to every player still playing whose schedule changed and
    who had been sent the one before; a substitute who takes over the seats of a player who
    had been sent his gets his own (`participants_before`: who played before the change)."""
    participants = {p.id: p for p in await uow.participants.of_tournament(after.tournament.id)}
    old = _schedules(before, before.stage, participants_before or participants)
    for player, schedule in _schedules(after, after.stage, participants).items():
        participant = participants.get(player)
        if participant is None or participant.status is not ParticipantStatus.REGISTERED:
            continue
        previous = old.get(player)
        if previous == schedule:
            continue
        if previous is None:
            # A newcomer to the stage: a substitute, if the player he replaced had been sent
            # his schedule (otherwise nobody has been sent one yet).
            replaced = participant.substitute_for
            sent = old.get(replaced) if replaced is not None else None
            if sent is None or not await _was_sent(uow, before.stage, replaced, sent):
                continue
            await _schedule_notice(uow, after, participant, schedule, "seating-schedule")
            continue
        if not await _was_sent(uow, before.stage, player, previous):
            continue
        await _schedule_notice(uow, after, participant, schedule, "seating-schedule-corrected")


async def _was_sent(
    uow: UnitOfWork, stage: SeatedStage, player: int | None, schedule: Schedule
) -> bool:
    if player is None:
        return False
    return await uow.outbox.status_of(_schedule_key(stage, player, schedule)) is not None


async def schedules_before_substitute(
    uow: UnitOfWork, tournament: Tournament
) -> tuple[StagePreview, dict[int, Participant]] | None:
    """The seated stage and who plays it, before a substitute takes over (None: not seated)."""
    if tournament.state is not TournamentState.RUNNING or tournament.current_stage is None:
        return None
    stage = await uow.rounds.stage(tournament.id, tournament.current_stage)
    if stage is None:
        return None
    participants = {p.id: p for p in await uow.participants.of_tournament(tournament.id)}
    return await _preview(uow, tournament, stage), participants


async def correct_schedules_after_substitute(
    uow: UnitOfWork, before: tuple[StagePreview, dict[int, Participant]] | None
) -> None:
    """After a substitute took over: he gets the games he now plays, if the stage's schedules
    went out, and the player he replaced no schedule any more."""
    if before is None:
        return
    preview, participants = before
    await _correct_schedules(uow, preview, preview, participants)


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


async def start_stage(
    uow_factory: UnitOfWorkFactory,
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
    async with uow_factory() as uow:
        tournament = await _organizing(uow, actor, tournament_id)
        stage_id = _current_stage(tournament)
        existing = await uow.rounds.stage(tournament.id, stage_id)
        if existing is not None:
            return await _preview(uow, tournament, existing)
        players = await _players_still_in(uow, tournament, stage_id)
        rules = tournament.regulation.stage(stage_id)
        tables = tables_of_stage(rules, len(players))
        if tables == 0 or tables * 10 > len(players):
            raise Invalid("stage-too-few-players", count=len(players), tables=max(tables, 1))
        rounds = rounds_of_stage(rules, len(players), tables)
        team_of = _team_of(await uow.participants.of_tournament(tournament.id))
        judges = await _table_judges(uow, tournament.id)
    table_judges = [rotate_judges(judges, tables, r) for r in range(rounds)]
    request = _request(
        None, players, (tables,) * rounds, team_of, seed, swaps, table_judges=table_judges
    )
    # The search is CPU work of seconds: it runs off the event loop, outside any transaction.
    seating = await _generate(request)
    plans = [
        (RoundSeating(_ids(tables_), _id_tuple(seating.sit_outs[r])), table_judges[r])
        for r, tables_ in enumerate(seating.rounds)
    ]
    async with uow_factory() as uow:
        stage = await uow.rounds.add_stage(tournament.id, stage_id, seed, actor.now, plans)
        if stage is None:
            # The organizer pressed twice: the first seating stands.
            return await _preview(uow, tournament, await _seated(uow, tournament))
        await uow.protocols.start_standings(tournament.id)
        await uow.commit()
        return await _preview(uow, tournament, stage)


async def _generate(request: SeatingRequest) -> Seating:
    try:
        return await asyncio.to_thread(generate_seating, request)
    except SeatingError as error:
        raise Invalid("stage-seating-impossible", reason=str(error)) from None


def _ids(tables: Sequence[Sequence[str]]) -> tuple[tuple[int, ...], ...]:
    return tuple(_id_tuple(table) for table in tables)


def _id_tuple(players: Sequence[str]) -> tuple[int, ...]:
    return tuple(int(p) for p in players)


async def regenerate_stage(
    uow_factory: UnitOfWorkFactory,
    actor: Actor,
    tournament_id: int,
    seed: int,
    swaps: int = DEFAULT_SWAPS,
) -> StagePreview:
    """Seat the rounds not published yet anew from a new seed; published rounds stay.

    Only the players still in are seated: whoever left without a substitute is dropped.
    """
    return await _reseat(uow_factory, actor, tournament_id, seed, swaps, False)


async def reseat_stage(
    uow_factory: UnitOfWorkFactory,
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
    return await _reseat(uow_factory, actor, tournament_id, seed, swaps, True)


async def _reseat(
    uow_factory: UnitOfWorkFactory,
    actor: Actor,
    tournament_id: int,
    seed: int,
    swaps: int,
    minimal: bool,
) -> StagePreview:
    async with uow_factory() as uow:
        tournament = await _organizing(uow, actor, tournament_id)
        stage = await _seated(uow, tournament)
        following = stage.next_unpublished
        if following is None:
            raise Invalid("stage-all-published")
        participants = await uow.participants.of_tournament(tournament.id)
    gone = set(_gone(stage, participants))
    if minimal and not gone:
        raise Invalid("stage-players-unchanged")
    players = [p for p in _stage_players(stage) if p not in gone]
    tables = min(len(following.games), len(players) // 10)
    if tables == 0:
        raise Invalid("stage-too-few-players", count=len(players), tables=1)
    free = [r for r in stage.rounds if r.published_at is None]
    team_of = _team_of(participants)
    seatings = (
        fill_freed_seats(
            [r.seating for r in free], gone, tables, team_of, _sat_out(stage, players), seed
        )
        if minimal
        else None
    )
    if seatings is None:
        counts = [len(r.games) if r.published_at else tables for r in stage.rounds]
        previous = _as_seating(stage) if minimal else None
        judges = [
            [game.judge_id for game in round_.games][:count]
            for round_, count in zip(stage.rounds, counts, strict=True)
        ]
        request = _request(stage, players, counts, team_of, seed, swaps, previous, judges)
        seating = await _generate(request)
        seatings = tuple(
            RoundSeating(
                _ids(seating.rounds[r.number - 1]), _id_tuple(seating.sit_outs[r.number - 1])
            )
            for r in free
        )
    async with uow_factory() as uow:
        current = await _seated(uow, tournament)
        if current.rounds != stage.rounds:
            raise Invalid("stage-changed-meanwhile")
        for round_, seating_ in zip(free, seatings, strict=True):
            await uow.rounds.seat_round(round_.id, seating_)
        await uow.rounds.set_seed(current.id, seed)
        changed = seats_changed([r.seating for r in free], seatings, players) if minimal else None
        preview = await _preview(uow, tournament, await _seated(uow, tournament), changed)
        await _correct_schedules(uow, replace(preview, stage=current), preview)
        await uow.commit()
        return preview


def _sat_out(stage: SeatedStage, players: Sequence[int]) -> dict[int, int]:
    """How often each of `players` sat out the published rounds."""
    counts = dict.fromkeys(players, 0)
    for round_ in stage.rounds:
        if round_.published_at is not None:
            for player in round_.sit_outs:
                if player in counts:
                    counts[player] += 1
    return counts


Edit = Callable[[RoundSeating, Mapping[int, int]], RoundSeating]


async def swap(
    uow_factory: UnitOfWorkFactory,
    actor: Actor,
    tournament_id: int,
    round_number: int,
    first: int,
    second: int,
) -> StagePreview:
    """Exchange two players' places in a round (a sit-out may swap with a seated player)."""

    def edit(seating: RoundSeating, team_of: Mapping[int, int]) -> RoundSeating:
        return swap_players(seating, first, second, team_of)

    return await _edit(uow_factory, actor, tournament_id, round_number, edit)


async def move(
    uow_factory: UnitOfWorkFactory,
    actor: Actor,
    tournament_id: int,
    round_number: int,
    player: int,
    table: int,
    seat: int,
) -> StagePreview:
    """Move a player to (table, seat) of a round; whoever sat there takes his old place."""

    def edit(seating: RoundSeating, team_of: Mapping[int, int]) -> RoundSeating:
        return move_player(seating, player, table, seat, team_of)

    return await _edit(uow_factory, actor, tournament_id, round_number, edit)


def _named(error: Invalid, nicknames: Mapping[int, str]) -> Invalid:
    """The refusal with players' nicknames in place of their ids."""
    args = {
        key: nicknames.get(value, str(value)) if key in ("player", "first", "second") else value
        for key, value in error.args_.items()
    }
    return Invalid(error.code, **args)


def _round(stage: SeatedStage, number: int) -> Round:
    try:
        return stage.round(number)
    except KeyError:
        raise Invalid("round-unknown", round=number, rounds=len(stage.rounds)) from None


async def _edit(
    uow_factory: UnitOfWorkFactory,
    actor: Actor,
    tournament_id: int,
    round_number: int,
    edit: Edit,
) -> StagePreview:
    async with uow_factory() as uow:
        tournament = await _organizing(uow, actor, tournament_id)
        stage = await _seated(uow, tournament)
        round_ = _round(stage, round_number)
        for game in round_.games:
            if game.state is not GameState.OPEN or await uow.protocols.draft(game.id):
                raise Invalid("round-edit-started", table=game.table)
        participants = await uow.participants.of_tournament(tournament.id)
        nicknames = _nicknames(participants)
        try:
            edited = edit(round_.seating, _team_of(participants))
        except Invalid as error:
            raise _named(error, nicknames) from None
        await uow.rounds.seat_round(round_.id, edited)
        before = stage
        stage = await _seated(uow, tournament)
        preview = await _preview(uow, tournament, stage)
        await _correct_schedules(uow, replace(preview, stage=before), preview)
        if round_.published_at is not None:
            await _record_corrections(uow, preview, round_, stage.round(round_number))
        await uow.commit()
        return preview


async def assign_judge(
    uow_factory: UnitOfWorkFactory,
    actor: Actor,
    tournament_id: int,
    round_number: int,
    table: int,
    judge_id: int | None,
) -> StagePreview:
    """Give a table of a round its judge (a table judge or chief judge of the tournament)."""
    async with uow_factory() as uow:
        tournament = await _organizing(uow, actor, tournament_id)
        stage = await _seated(uow, tournament)
        round_ = _round(stage, round_number)
        if not 1 <= table <= len(round_.games):
            raise Invalid("round-edit-no-seat", table=table, seat=1)
        game = round_.game_at(table)
        judges = await _judges(uow, tournament.id)
        if judge_id is not None and judge_id not in judges:
            raise NotFound(f"judge {judge_id}")
        if judge_id is not None and judge_id in round_.judges_elsewhere(game):
            raise Invalid("round-judge-busy", judge=judges[judge_id])
        if game.state is not GameState.OPEN:
            raise Invalid("round-edit-started", table=table)
        await uow.rounds.set_judge(game.id, judge_id)
        before = stage
        stage = await _seated(uow, tournament)
        preview = await _preview(uow, tournament, stage)
        await _correct_schedules(uow, replace(preview, stage=before), preview)
        if round_.published_at is not None:
            updated = stage.round(round_number).game_at(table)
            await _record_judge_list(uow, preview, stage.round(round_number), updated, True)
            if game.judge_id is not None:
                await _notice(
                    uow,
                    tournament,
                    game.judge_id,
                    Phrase.of("round-judge-released", game=round_number, table=table),
                    f"release:{game.id}:{game.judge_id}:{judge_id}",
                )
        await uow.commit()
        return preview


async def publish_round(
    uow_factory: UnitOfWorkFactory,
    actor: Actor,
    tournament_id: int,
    round_number: int,
) -> StagePreview:
    """Publish a round: each player his table and seat, each judge his table's list, the
    channel one post with all tables (split to Telegram's limit). Once per round."""
    async with uow_factory() as uow:
        tournament = await _organizing(uow, actor, tournament_id)
        stage = await _seated(uow, tournament)
        round_ = _round(stage, round_number)
        preview = await _preview(uow, tournament, stage)
        if round_.published_at is None and (gone := round_.seated_of(preview.gone)):
            names = ", ".join(preview.nicknames.get(p, str(p)) for p in gone)
            raise Invalid("round-player-gone", round=round_number, players=names)
        if not await uow.rounds.mark_published(round_.id, actor.now):
            raise Invalid("round-already-published", round=round_number)
        uow.changed_tournaments.add(tournament.id)
        participants = {p.id: p for p in await uow.participants.of_tournament(tournament.id)}
        time = _time(preview, round_number)
        for game in round_.games:
            judge = preview.judge_name(game.judge_id) or "—"
            for seat, player in enumerate(game.players, start=1):
                await _player_notice(
                    uow,
                    tournament,
                    participants[player],
                    Phrase.of(
                        "round-seat-player",
                        game=round_number,
                        time=time,
                        table=game.table,
                        seat=seat,
                        judge=judge,
                    ),
                    f"round:{round_.id}:seat:{player}",
                )
            await _record_judge_list(uow, preview, round_, game, False)
        for player in round_.sit_outs:
            await _player_notice(
                uow,
                tournament,
                participants[player],
                Phrase.of("round-sit-out-player", game=round_number, time=time),
                f"round:{round_.id}:seat:{player}",
            )
        await _channel_post(uow, preview, round_)
        await uow.commit()
        return await _preview(uow, tournament, await _seated(uow, tournament))


def _time(preview: StagePreview, round_number: int) -> str:
    times = preview.times
    known = times[round_number - 1] if round_number <= len(times) else None
    # "none" drops the time from the texts ("Тур 1: стол 2"), rather than showing "(—)".
    return known or "none"


async def _notice(
    uow: UnitOfWork, tournament: Tournament, chat_id: int, phrase: Phrase, key: str | None
) -> None:
    await uow.outbox.add(
        OutgoingMessage(chat_id=chat_id, phrase=phrase, tournament_id=tournament.id, dedupe_key=key)
    )


async def _player_notice(
    uow: UnitOfWork,
    tournament: Tournament,
    player: Participant,
    phrase: Phrase,
    key: str | None,
) -> None:
    # An imported player without Telegram reads the seating on the channel and at the venue.
    if player.user_id is not None:
        await _notice(uow, tournament, player.user_id, phrase, key)


def _seat_names(preview: StagePreview, game: TableGame) -> list[str]:
    return [preview.nicknames.get(player, str(player)) for player in game.players]


def _table_lines(preview: StagePreview, game: TableGame) -> Lines:
    """A table's players one a line, "seat. nickname" (`table-seat`, as the organizer's
    screen writes them)."""
    names = _seat_names(preview, game)
    return Lines(
        tuple(Phrase.of("table-seat", seat=seat, name=name) for seat, name in enumerate(names, 1))
    )


def _table_length(preview: StagePreview, game: TableGame) -> int:
    """About how long a table's lines are once written (the posts keep room to spare, and a
    post still too long is cut between lines when it is sent)."""
    names = _seat_names(preview, game)
    return len("\n".join(f"{seat}. {name}" for seat, name in enumerate(names, 1)))


async def _record_judge_list(
    uow: UnitOfWork, preview: StagePreview, round_: Round, game: TableGame, correction: bool
) -> None:
    if game.judge_id is None:
        return
    key = "round-judge-list-corrected" if correction else "round-judge-list"
    await uow.outbox.add(
        OutgoingMessage(
            chat_id=game.judge_id,
            phrase=Phrase.of(
                key,
                game=round_.number,
                time=_time(preview, round_.number),
                table=game.table,
                players=_table_lines(preview, game),
            ),
            # "Run the game" first, as on the protocol screen (left out without a Mini App).
            buttons=(
                (Button(Phrase.of("miniapp-open"), RunLiveGame(game.id)),),
                (Button(Phrase.of("round-open-protocol"), OpenProtocol(game.id)),),
            ),
            tournament_id=preview.tournament.id,
            # Corrections may repeat (the organizer moves a player back): never deduplicated.
            dedupe_key=None if correction else f"round:{round_.id}:judge:{game.id}",
        )
    )


def _stage_name(preview: StagePreview) -> Localized:
    name = preview.tournament.regulation.stage(preview.stage.stage).name
    return Localized(name.ru, name.en)


def _table_block(preview: StagePreview, game: TableGame) -> Phrase:
    judge = preview.judge_name(game.judge_id)
    players = _table_lines(preview, game)
    if judge is None:
        return Phrase.of("round-channel-table", table=game.table, players=players)
    return Phrase.of("round-channel-table-judged", table=game.table, judge=judge, players=players)


def _in_parts(blocks: Sequence[tuple[Phrase, int]], limit: int) -> list[tuple[Phrase, ...]]:
    """Blocks (with their length) grouped into as few posts as fit `limit` characters each."""
    parts: list[list[Phrase]] = []
    size = limit
    for block, length in blocks:
        if not parts or size + length > limit:
            parts.append([])
            size = 0
        parts[-1].append(block)
        size += length + 2
    return [tuple(part) for part in parts]


async def _channel_post(uow: UnitOfWork, preview: StagePreview, round_: Round) -> None:
    channel = preview.tournament.channel_id
    if channel is None:
        return
    # A table's heading is a phrase in the channel's language; its length is about the same.
    blocks = [
        (_table_block(preview, game), _table_length(preview, game) + _TABLE_HEADING_ROOM)
        for game in round_.games
    ]
    if round_.sit_outs:
        names = ", ".join(preview.nicknames.get(p, str(p)) for p in round_.sit_outs)
        blocks.append((Phrase.of("round-channel-sit-outs", players=names), len(names) * 2 + 40))
    parts = _in_parts(blocks, TEXT_LIMIT - _POST_HEADING_ROOM)
    for part, tables in enumerate(parts, start=1):
        await uow.outbox.add(
            OutgoingMessage(
                chat_id=channel,
                phrase=Phrase.of(
                    "round-channel-post",
                    stage=_stage_name(preview),
                    game=round_.number,
                    time=_time(preview, round_.number),
                    part=part,
                    parts=len(parts),
                    tables=Lines(tables, separator="\n\n"),
                ),
                tournament_id=preview.tournament.id,
                dedupe_key=f"round:{round_.id}:channel:{part}",
            )
        )


async def _record_corrections(
    uow: UnitOfWork, preview: StagePreview, before: Round, after: Round
) -> None:
    """Tell the players who moved where they sit now, the judges of the tables concerned their
    new lists, and the channel what changed."""
    tournament = preview.tournament
    participants = {p.id: p for p in await uow.participants.of_tournament(tournament.id)}
    moved = moved_players(before.seating, after.seating)
    lines: list[Phrase] = []
    for player in moved:
        place = after.seating.position(player)
        if place is None:
            phrase = Phrase.of("round-correction-sit-out", game=after.number)
        else:
            phrase = Phrase.of(
                "round-correction-player", game=after.number, table=place[0], seat=place[1]
            )
        await _player_notice(uow, tournament, participants[player], phrase, None)
        name = preview.nicknames.get(player, str(player))
        lines.append(
            Phrase.of("round-channel-moved", name=name, table=place[0], seat=place[1])
            if place
            else Phrase.of("round-channel-moved-out", name=name)
        )
    tables = {
        place[0]
        for seating in (before.seating, after.seating)
        for p in moved
        if (place := seating.position(p))
    }
    for table in sorted(tables):
        await _record_judge_list(uow, preview, after, after.game_at(table), True)
    if tournament.channel_id is not None and lines:
        await uow.outbox.add(
            OutgoingMessage(
                chat_id=tournament.channel_id,
                phrase=Phrase.of(
                    "round-channel-correction", game=after.number, changes=Lines(tuple(lines))
                ),
                tournament_id=tournament.id,
            )
        )
