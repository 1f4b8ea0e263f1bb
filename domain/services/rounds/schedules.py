"""Every player's whole stage in one message, and the corrected schedule after a change of
the stage to whoever had been sent the one before."""

from __future__ import annotations

import hashlib
import html
from collections.abc import Mapping
from dataclasses import dataclass

from domain.actor import Actor
from domain.outgoing import Lines, Phrase
from domain.registration import Participant, ParticipantStatus
from domain.reminder_plan import who_plays
from domain.rounds import GameState, SeatedStage
from domain.services.ports import UnitOfWork, UnitOfWorkFactory
from domain.services.rounds.notices import player_notice
from domain.services.rounds.preview import (
    StagePreview,
    organizing,
    preview_of,
    round_time,
    seated,
    stage_name,
)
from domain.tournament import Tournament, TournamentState


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
        time = round_time(preview, round_.number)
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


class ScheduleService:
    """Every player's whole stage, sent to him."""

    def __init__(self, uow: UnitOfWorkFactory) -> None:
        self._uow = uow

    async def send_schedules(
        self,
        actor: Actor,
        tournament_id: int,
    ) -> int:
        """Send every player of the seated stage his whole schedule in one message; how many.

        A player already sent the same schedule is not sent it again. Once sent, every change of
        the stage (a move, a swap, a judge, a re-seating) sends the players it concerns their
        corrected schedule; the round messages go out on publishing as before.
        """
        async with self._uow() as uow:
            tournament = await organizing(uow, actor, tournament_id)
            stage = await seated(uow, tournament)
            preview = await preview_of(uow, tournament, stage)
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
    await player_notice(
        uow,
        preview.tournament,
        player,
        Phrase.of(
            key,
            title=preview.tournament.title,
            stage=stage_name(preview),
            games=Lines(tuple(line.phrase() for line in schedule)),
        ),
        _schedule_key(preview.stage, player.id, schedule),
    )


async def correct_schedules(
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
    return await preview_of(uow, tournament, stage), participants


async def correct_schedules_after_substitute(
    uow: UnitOfWork, before: tuple[StagePreview, dict[int, Participant]] | None
) -> None:
    """After a substitute took over: he gets the games he now plays, if the stage's schedules
    went out, and the player he replaced no schedule any more."""
    if before is None:
        return
    preview, participants = before
    await correct_schedules(uow, preview, preview, participants)
