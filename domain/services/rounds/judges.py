"""A table's judge given or taken in a round; once the round is published, the judges are
told."""

from __future__ import annotations

from dataclasses import replace

from domain.actor import Actor
from domain.outgoing import Phrase
from domain.rounds import GameState
from domain.services.access import NotFound
from domain.services.ports import UnitOfWorkFactory
from domain.services.rounds.notices import notice, record_judge_list
from domain.services.rounds.preview import (
    StagePreview,
    judges_of,
    organizing,
    preview_of,
    round_of,
    seated,
)
from domain.services.rounds.schedules import correct_schedules
from domain.validation import Invalid


class JudgeAssignmentService:
    """A table's judge, assigned by the organizer."""

    def __init__(self, uow: UnitOfWorkFactory) -> None:
        self._uow = uow

    async def assign_judge(
        self,
        actor: Actor,
        tournament_id: int,
        round_number: int,
        table: int,
        judge_id: int | None,
    ) -> StagePreview:
        """Give a table of a round its judge (a table judge or chief judge of the tournament)."""
        async with self._uow() as uow:
            tournament = await organizing(uow, actor, tournament_id)
            stage = await seated(uow, tournament)
            round_ = round_of(stage, round_number)
            if not 1 <= table <= len(round_.games):
                raise Invalid("round-edit-no-seat", table=table, seat=1)
            game = round_.game_at(table)
            judges = await judges_of(uow, tournament.id)
            if judge_id is not None and judge_id not in judges:
                raise NotFound(f"judge {judge_id}")
            if judge_id is not None and judge_id in round_.judges_elsewhere(game):
                raise Invalid("round-judge-busy", judge=judges[judge_id])
            if game.state is not GameState.OPEN:
                raise Invalid("round-edit-started", table=table)
            await uow.rounds.set_judge(game.id, judge_id)
            before = stage
            stage = await seated(uow, tournament)
            preview = await preview_of(uow, tournament, stage)
            await correct_schedules(uow, replace(preview, stage=before), preview)
            if round_.published_at is not None:
                updated = stage.round(round_number).game_at(table)
                await record_judge_list(uow, preview, stage.round(round_number), updated, True)
                if game.judge_id is not None:
                    await notice(
                        uow,
                        tournament,
                        game.judge_id,
                        Phrase.of("round-judge-released", game=round_number, table=table),
                        f"release:{game.id}:{game.judge_id}:{judge_id}",
                    )
            await uow.commit()
            return preview
