"""The private messages a stage's rounds send: a notice to a person, a player's (if he has
Telegram), a table judge's list of his table."""

from __future__ import annotations

from domain.intents import OpenProtocol, RunLiveGame
from domain.outgoing import Button, OutgoingMessage, Phrase
from domain.registration import Participant
from domain.rounds import Round, TableGame
from domain.services.ports import UnitOfWork
from domain.services.rounds.preview import StagePreview, round_time
from domain.table_listing import table_listing
from domain.tournament import Tournament


def notice_of(
    tournament: Tournament, chat_id: int, phrase: Phrase, key: str | None
) -> OutgoingMessage:
    return OutgoingMessage(
        chat_id=chat_id, phrase=phrase, tournament_id=tournament.id, dedupe_key=key
    )


async def notice(
    uow: UnitOfWork, tournament: Tournament, chat_id: int, phrase: Phrase, key: str | None
) -> None:
    await uow.outbox.add(notice_of(tournament, chat_id, phrase, key))


def player_notice_of(
    tournament: Tournament, player: Participant, phrase: Phrase, key: str | None
) -> OutgoingMessage | None:
    # An imported player without Telegram reads the seating on the channel and at the venue.
    if player.user_id is None:
        return None
    return notice_of(tournament, player.user_id, phrase, key)


async def player_notice(
    uow: UnitOfWork,
    tournament: Tournament,
    player: Participant,
    phrase: Phrase,
    key: str | None,
) -> None:
    if (message := player_notice_of(tournament, player, phrase, key)) is not None:
        await uow.outbox.add(message)


def judge_list_of(
    preview: StagePreview, round_: Round, game: TableGame, correction: bool
) -> OutgoingMessage | None:
    """The list of his table for its judge (None when the table has none)."""
    if game.judge_id is None:
        return None
    key = "round-judge-list-corrected" if correction else "round-judge-list"
    return OutgoingMessage(
        chat_id=game.judge_id,
        phrase=Phrase.of(
            key,
            game=round_.number,
            time=round_time(preview, round_.number),
            table=game.table,
            players=table_listing(game, preview.nicknames, titled=False),
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


async def record_judge_list(
    uow: UnitOfWork, preview: StagePreview, round_: Round, game: TableGame, correction: bool
) -> None:
    if (message := judge_list_of(preview, round_, game, correction)) is not None:
        await uow.outbox.add(message)
