"""A game as the protests' messages name it: its players by id, its summary (who won, the
black seats, the sheriff), its judge."""

from __future__ import annotations

from domain.cards import Role
from domain.outgoing import Lines, Phrase
from domain.player_keys import participant_id
from domain.protocol import Protocol
from domain.registration import Participant
from domain.scoring import score_game
from domain.services.ports import UnitOfWork
from domain.tournament import Tournament


async def participants_by_id(uow: UnitOfWork, tournament_id: int) -> dict[int, Participant]:
    return {p.id: p for p in await uow.participants.of_tournament(tournament_id)}


def _seats_of(protocol: Protocol, role: Role) -> str:
    return ", ".join(str(n) for n, seat in enumerate(protocol.seats, 1) if seat.role is role)


def game_summary(
    protocol: Protocol, tournament: Tournament, players: dict[int, Participant]
) -> dict[str, str | int | Lines]:
    """The phrase arguments that sum a protocol up: winner, black seats, each seat's points."""
    lines = []
    for score in score_game(protocol, tournament.regulation):
        player = players.get(participant_id(score.player))
        name = player.nickname if player else score.player
        lines.append(
            Phrase.of("protest-seat-points", seat=score.seat, name=name, points=score.total)
        )
    return {
        "winner": protocol.winner.value,
        "don": _seats_of(protocol, Role.DON),
        "sheriff": _seats_of(protocol, Role.SHERIFF),
        "mafia": _seats_of(protocol, Role.MAFIA),
        "seats": Lines(tuple(lines)),
    }


async def judge_name(uow: UnitOfWork, judge_id: int | None) -> str:
    if judge_id is None:
        return "—"
    judge = await uow.users.get(judge_id)
    return judge.display_name if judge else str(judge_id)
