"""Publishing a round: each player his table and seat, each judge his table's list, the
channel one post with all tables (in parts within Telegram's limit); after an edit of a
published round, the corrections for exactly the people it concerns."""

from __future__ import annotations

from collections.abc import Mapping

from domain.actor import Actor
from domain.outgoing import TEXT_LIMIT, Lines, OutgoingMessage, Phrase
from domain.registration import Participant
from domain.rounds import Round, moved_players
from domain.services.ports import UnitOfWork, UnitOfWorkFactory
from domain.services.rounds.notices import (
    judge_list_of,
    player_notice,
    player_notice_of,
    record_judge_list,
)
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
            # One insert for the round's some 330 messages, not one each.
            await uow.outbox.add_many(_round_messages(preview, round_, participants))
            await uow.commit()
            return await preview_of(uow, tournament, await seated(uow, tournament))


def _round_messages(
    preview: StagePreview, round_: Round, participants: Mapping[int, Participant]
) -> list[OutgoingMessage]:
    """Each player his table and seat (or his sit-out), each judge his table's list, table by
    table, then the channel's post."""
    tournament, number = preview.tournament, round_.number
    time = round_time(preview, number)
    messages: list[OutgoingMessage | None] = []
    for game in round_.games:
        judge = preview.judge_name(game.judge_id) or "—"
        for seat, player in enumerate(game.players, start=1):
            phrase = Phrase.of(
                "round-seat-player",
                game=number,
                time=time,
                table=game.table,
                seat=seat,
                judge=judge,
            )
            key = f"round:{round_.id}:seat:{player}"
            messages.append(player_notice_of(tournament, participants[player], phrase, key))
        messages.append(judge_list_of(preview, round_, game, False))
    for player in round_.sit_outs:
        phrase = Phrase.of("round-sit-out-player", game=number, time=time)
        key = f"round:{round_.id}:seat:{player}"
        messages.append(player_notice_of(tournament, participants[player], phrase, key))
    return [message for message in messages if message is not None] + _channel_posts(
        preview, round_
    )


def _channel_posts(preview: StagePreview, round_: Round) -> list[OutgoingMessage]:
    channel = preview.tournament.channel_id
    if channel is None:
        return []
    blocks = []
    for game in round_.games:
        judge = preview.judge_name(game.judge_id)
        listing = table_listing(game, preview.nicknames, judge=judge)
        blocks.append((listing, listing_length(game, preview.nicknames, judge)))
    if round_.sit_outs:
        names = ", ".join(preview.nicknames.get(p, str(p)) for p in round_.sit_outs)
        blocks.append((Phrase.of("round-channel-sit-outs", players=names), len(names) * 2 + 40))
    parts = in_parts(blocks, TEXT_LIMIT - _POST_HEADING_ROOM)
    return [
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
        for part, tables in enumerate(parts, start=1)
    ]


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
