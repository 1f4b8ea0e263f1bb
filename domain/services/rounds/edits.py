"""The organizer's edits of a round's seating: two players swapped, a player moved."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace

from domain.actor import Actor
from domain.rounds import GameState, RoundSeating, move_player, swap_players
from domain.services.ports import UnitOfWorkFactory
from domain.services.rounds.preview import (
    StagePreview,
    nicknames_of,
    organizing,
    preview_of,
    round_of,
    seated,
    teams_of,
)
from domain.services.rounds.publication import record_corrections
from domain.services.rounds.schedules import correct_schedules
from domain.validation import Invalid

Edit = Callable[[RoundSeating, Mapping[int, int]], RoundSeating]


class SeatEditService:
    """The organizer's edits of a round's seating: swap two players, move one."""

    def __init__(self, uow: UnitOfWorkFactory) -> None:
        self._uow = uow

    async def swap(
        self,
        actor: Actor,
        tournament_id: int,
        round_number: int,
        first: int,
        second: int,
    ) -> StagePreview:
        """Exchange two players' places in a round (a sit-out may swap with a seated player)."""

        def edit(seating: RoundSeating, team_of: Mapping[int, int]) -> RoundSeating:
            return swap_players(seating, first, second, team_of)

        return await self._edit(actor, tournament_id, round_number, edit)

    async def move(
        self,
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

        return await self._edit(actor, tournament_id, round_number, edit)

    async def _edit(
        self,
        actor: Actor,
        tournament_id: int,
        round_number: int,
        edit: Edit,
    ) -> StagePreview:
        async with self._uow() as uow:
            tournament = await organizing(uow, actor, tournament_id)
            stage = await seated(uow, tournament)
            round_ = round_of(stage, round_number)
            for game in round_.games:
                if game.state is not GameState.OPEN or await uow.protocols.draft(game.id):
                    raise Invalid("round-edit-started", table=game.table)
            participants = await uow.participants.of_tournament(tournament.id)
            nicknames = nicknames_of(participants)
            try:
                edited = edit(round_.seating, teams_of(participants))
            except Invalid as error:
                raise _named(error, nicknames) from None
            await uow.rounds.seat_round(round_.id, edited)
            before = stage
            stage = await seated(uow, tournament)
            preview = await preview_of(uow, tournament, stage)
            await correct_schedules(uow, replace(preview, stage=before), preview)
            if round_.published_at is not None:
                await record_corrections(uow, preview, round_, stage.round(round_number))
            await uow.commit()
            return preview


def _named(error: Invalid, nicknames: Mapping[int, str]) -> Invalid:
    """The refusal with players' nicknames in place of their ids."""
    args = {
        key: nicknames.get(value, str(value)) if key in ("player", "first", "second") else value
        for key, value in error.args_.items()
    }
    return Invalid(error.code, **args)
