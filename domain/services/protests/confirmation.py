"""What a protocol's confirmation does for protests: the players offered a protest with
their result while the window is open, and a correction's notice."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal

from domain import player_keys
from domain.actor import Actor
from domain.intents import FileProtest
from domain.outgoing import Button, Lines, OutgoingMessage, Phrase, ScheduledPush
from domain.protests import AuditEntry, AuditKind, local_time, settle_by_correction
from domain.protocol import Protocol
from domain.registration import Participant
from domain.rounds import GameInRound
from domain.scoring import score_game
from domain.services.ports import UnitOfWork
from domain.services.protests.deciding import tell_decision
from domain.services.protests.summary import participants_by_id
from domain.tournament import Tournament


async def on_protocol_confirmed(
    uow: UnitOfWork,
    game: GameInRound,
    tournament: Tournament,
    before: Protocol | None,
    after: Protocol,
    closes_at: datetime | None,
    actor: Actor,
) -> None:
    """Called in the confirmation's transaction. A first confirmation with a protest window
    sends each player his result with a "Protest" button, taken away when the window closes.
    A correction is written to the audit log and settles the protests it answers; when it
    moves the window (`closes_at`), each player's result message is edited to the new time."""
    if closes_at is not None:
        await _offer_protests(uow, game, tournament, after, closes_at)
    if before is None:
        return
    players = await participants_by_id(uow, tournament.id)
    await uow.protests.log(
        AuditEntry(
            tournament.id,
            actor.now,
            actor.user_id,
            AuditKind.PROTOCOL_CORRECTED,
            _correction_text(before, after, tournament, players),
            game_id=game.game.id,
        )
    )
    for protest in await uow.protests.of_game(game.game.id):
        settled = settle_by_correction(protest)
        if settled is protest or not await uow.protests.save(settled, protest.status):
            continue
        await tell_decision(uow, settled, game, tournament, "protest-corrected")


def _correction_text(
    before: Protocol, after: Protocol, tournament: Tournament, players: dict[int, Participant]
) -> str:
    def points(protocol: Protocol) -> str:
        scores = score_game(protocol, tournament.regulation)
        return " ".join(f"{s.seat}:{s.total}" for s in scores)

    return f"{before.winner.value} → {after.winner.value}; {points(before)} → {points(after)}"


def offer_key(game_id: int, participant_id: int) -> str:
    """The edit-in-place key of a player's result message with its "Protest" button."""
    return f"protest-offer:{game_id}:{participant_id}"


async def _offer_protests(
    uow: UnitOfWork, game: GameInRound, tournament: Tournament, protocol: Protocol, closes: datetime
) -> None:
    # The table's ten, not the whole tournament.
    players = {
        p.id: p
        for p in await uow.participants.seated_and_substitutes(tournament.id, game.game.players)
    }
    time = local_time(closes, tournament.timezone)
    scores = {
        player_keys.participant_id(s.player): s for s in score_game(protocol, tournament.regulation)
    }
    offers: list[OutgoingMessage] = []
    closings: list[ScheduledPush] = []
    for participant_id in game.game.players:
        player = players.get(participant_id)
        if player is None or player.user_id is None:
            continue
        key = offer_key(game.game.id, participant_id)
        args: dict[str, str | int | Decimal | Lines] = {
            "game": game.round_number,
            "table": game.game.table,
            "winner": protocol.winner.value,
            # Written the reader's way when rendered: "2,3", "−1" in Russian.
            "points": scores[participant_id].total,
            "time": time,
        }
        button = Button(Phrase.of("protest-button"), FileProtest(game.game.id))
        offers.append(
            OutgoingMessage(
                chat_id=player.user_id,
                phrase=Phrase.of("protest-offer", **args),
                buttons=((button,),),
                edit_key=key,
                tournament_id=tournament.id,
                # One offer per window: a window a correction moves is announced again.
                dedupe_key=f"{key}:{int(closes.timestamp())}",
            )
        )
        # The button goes away when the window closes: the same message, edited without it.
        closings.append(
            ScheduledPush(
                key=f"{key}:closed",
                due_at=closes,
                message=OutgoingMessage(
                    chat_id=player.user_id,
                    phrase=Phrase.of("protest-offer-closed", **args),
                    edit_key=key,
                    tournament_id=tournament.id,
                ),
            )
        )
    # The table's ten offers in one statement, their closings in another.
    await uow.outbox.add_many(offers)
    await uow.scheduled_pushes.schedule_many(closings)
