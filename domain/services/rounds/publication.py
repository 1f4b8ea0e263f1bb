"""Publishing a round: each player his table and seat, each judge his table's list, the
channel one post with all tables (in parts within Telegram's limit); after an edit of a
published round, the corrections for exactly the people it concerns."""

from __future__ import annotations

from domain.actor import Actor
from domain.outgoing import TEXT_LIMIT, Lines, OutgoingMessage, Phrase
from domain.rounds import Round, moved_players
from domain.services.ports import UnitOfWork, UnitOfWorkFactory
from domain.services.rounds.notices import player_notice, record_judge_list
from domain.services.rounds.preview import (
    StagePreview,
    organizing,
    preview_of,
    round_of,
    round_time,
    seated,
    stage_name,
)
from domain.table_listing import in_parts, listing_length, table_listing
from domain.validation import Invalid

# Room left in a channel post for its heading around the tables.
_POST_HEADING_ROOM = 400


class RoundPublicationService:
    """Publish a round: the players', the judges' and the channel's messages."""

    def __init__(self, uow: UnitOfWorkFactory) -> None:
        self._uow = uow

    async def publish_round(
        self,
        actor: Actor,
        tournament_id: int,
        round_number: int,
    ) -> StagePreview:
        """Publish a round: each player his table and seat, each judge his table's list, the
        channel one post with all tables (split to Telegram's limit). Once per round."""
        async with self._uow() as uow:
            tournament = await organizing(uow, actor, tournament_id)
            stage = await seated(uow, tournament)
            round_ = round_of(stage, round_number)
            preview = await preview_of(uow, tournament, stage)
            if round_.published_at is None and (gone := round_.seated_of(preview.gone)):
                names = ", ".join(preview.nicknames.get(p, str(p)) for p in gone)
                raise Invalid("round-player-gone", round=round_number, players=names)
            if not await uow.rounds.mark_published(round_.id, actor.now):
                raise Invalid("round-already-published", round=round_number)
            uow.changed_tournaments.add(tournament.id)
            participants = {p.id: p for p in await uow.participants.of_tournament(tournament.id)}
            time = round_time(preview, round_number)
            for game in round_.games:
                judge = preview.judge_name(game.judge_id) or "—"
                for seat, player in enumerate(game.players, start=1):
                    await player_notice(
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
                await record_judge_list(uow, preview, round_, game, False)
            for player in round_.sit_outs:
                await player_notice(
                    uow,
                    tournament,
                    participants[player],
                    Phrase.of("round-sit-out-player", game=round_number, time=time),
                    f"round:{round_.id}:seat:{player}",
                )
            await _channel_post(uow, preview, round_)
            await uow.commit()
            return await preview_of(uow, tournament, await seated(uow, tournament))


async def _channel_post(uow: UnitOfWork, preview: StagePreview, round_: Round) -> None:
    channel = preview.tournament.channel_id
    if channel is None:
        return
    blocks = []
    for game in round_.games:
        judge = preview.judge_name(game.judge_id)
        listing = table_listing(game, preview.nicknames, judge=judge)
        blocks.append((listing, listing_length(game, preview.nicknames, judge)))
    if round_.sit_outs:
        names = ", ".join(preview.nicknames.get(p, str(p)) for p in round_.sit_outs)
        blocks.append((Phrase.of("round-channel-sit-outs", players=names), len(names) * 2 + 40))
    parts = in_parts(blocks, TEXT_LIMIT - _POST_HEADING_ROOM)
    for part, tables in enumerate(parts, start=1):
        await uow.outbox.add(
            OutgoingMessage(
                chat_id=channel,
                phrase=Phrase.of(
                    "round-channel-post",
                    stage=stage_name(preview),
                    game=round_.number,
                    time=round_time(preview, round_.number),
                    part=part,
                    parts=len(parts),
                    tables=Lines(tables, separator="\n\n"),
                ),
                tournament_id=preview.tournament.id,
                dedupe_key=f"round:{round_.id}:channel:{part}",
            )
        )


async def record_corrections(
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
        await player_notice(uow, tournament, participants[player], phrase, None)
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
        await record_judge_list(uow, preview, after, after.game_at(table), True)
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
