"""Deciding a protest: the case the chief judge sees, the decision (reject, accept, settle
by the protocol's correction), a game annulled, and the people told."""

from __future__ import annotations

from dataclasses import dataclass

from domain.actor import Actor
from domain.game_log import Entry
from domain.outgoing import OutgoingMessage, Phrase
from domain.permissions import Action, Forbidden
from domain.protests import (
    AuditEntry,
    AuditKind,
    Protest,
    ProtestStatus,
    decide,
    deciders,
    settle_by_correction,
)
from domain.registration import Participant
from domain.rounds import GameInRound
from domain.services.access import NotFound
from domain.services.ports import UnitOfWork, UnitOfWorkFactory
from domain.services.protests.summary import participants_by_id
from domain.services.rating_sync import after_game as rating_after_game
from domain.services.standings import played_games
from domain.services.standings_posts import publish_after_result, publish_live_standings
from domain.services.tie_decisions import alert_lot_needed
from domain.tournament import Tournament
from domain.validation import Invalid


@dataclass(frozen=True)
class ProtestCase:
    """A protest as its deciding judge sees it."""

    protest: Protest
    game: GameInRound
    tournament: Tournament
    players: tuple[Participant, ...]
    # The game as the judge recorded it live, action by action (empty: entered afterwards).
    log: tuple[Entry, ...] = ()


async def _case(uow: UnitOfWork, actor: Actor, protest_id: int) -> ProtestCase:
    protest = await uow.protests.get(protest_id)
    if protest is None:
        raise NotFound(f"protest {protest_id}")
    game = await uow.rounds.game(protest.game_id)
    tournament = await uow.tournaments.get(protest.tournament_id)
    if game is None or tournament is None:
        raise NotFound(f"game {protest.game_id}")
    staff = [(person, role.value) for person, role in await uow.staff.of_tournament(tournament.id)]
    if actor.user_id not in deciders(staff, game.game.judge_id):
        raise Forbidden(Action.EXCLUDE)
    everyone = await participants_by_id(uow, tournament.id)
    players = tuple(everyone[p] for p in game.game.players if p in everyone)
    stored = await uow.game_logs.log(game.game.id)
    return ProtestCase(protest, game, tournament, players, stored[0] if stored else ())


class ProtestDecidingService:
    """The chief judge's acts on a protest: read it, decide it, annul its game."""

    def __init__(self, uow: UnitOfWorkFactory) -> None:
        self._uow = uow

    async def protest_case(self, actor: Actor, protest_id: int) -> ProtestCase:
        """The protest for one of its deciding judges (`Forbidden` for anyone else)."""
        async with self._uow() as uow:
            return await _case(uow, actor, protest_id)

    async def check_undecided(self, actor: Actor, protest_id: int) -> ProtestCase:
        """The protest, if this judge may decide it and nobody has yet (`Invalid` otherwise)."""
        case = await self.protest_case(actor, protest_id)
        if case.protest.status is not ProtestStatus.PENDING:
            raise Invalid("protest-already-decided")
        return case

    async def decide_protest(
        self,
        actor: Actor,
        protest_id: int,
        *,
        accept: bool,
        text: str | None,
    ) -> ProtestCase:
        """The final decision. The protester and the table judge are told. A rejection that leaves
        the game without an open protest republishes the live standings (its mark goes); an
        accepted protest stays open until the chief judge's correction of the protocol is stored.
        """
        async with self._uow() as uow:
            case = await _case(uow, actor, protest_id)
            decided = decide(
                case.protest, accept=accept, text=text or "", judge_id=actor.user_id, now=actor.now
            )
            if not await uow.protests.save(decided, ProtestStatus.PENDING):
                raise Invalid("protest-already-decided")
            kind = AuditKind.PROTEST_ACCEPTED if accept else AuditKind.PROTEST_REJECTED
            await uow.protests.log(
                AuditEntry(
                    case.tournament.id,
                    actor.now,
                    actor.user_id,
                    kind,
                    decided.decision or "",
                    game_id=decided.game_id,
                    protest_id=decided.id,
                )
            )
            key = "protest-accepted" if accept else "protest-rejected"
            await tell_decision(uow, decided, case.game, case.tournament, key)
            if not accept and case.game.game.id not in await uow.protests.open_games(
                case.tournament.id
            ):
                await publish_live_standings(
                    uow,
                    case.tournament.id,
                    await played_games(uow, case.tournament),
                    protocol_key=f"protest:{decided.id}",
                    now=actor.now,
                )
            await uow.commit()
            return ProtestCase(decided, case.game, case.tournament, case.players)

    async def annul_game(
        self,
        actor: Actor,
        protest_id: int,
        *,
        text: str | None,
    ) -> ProtestCase:
        """Accept the protest by annulling its game, where the regulation allows it: the game
        stops counting in the standings (its protocol and seats stay in the record), every open
        protest on it is settled, the protester and the table judge are told, the channel says
        so and its live standings are edited, all in one transaction. A protest already accepted
        for a correction may still end this way."""
        async with self._uow() as uow:
            case = await _case(uow, actor, protest_id)
            tournament, game = case.tournament, case.game
            if not tournament.regulation.protest_annulment_allowed:
                raise Invalid("protest-annulment-not-allowed")
            protest = case.protest
            if protest.status is ProtestStatus.PENDING:
                protest = decide(
                    protest, accept=True, text=text or "", judge_id=actor.user_id, now=actor.now
                )
            settled = settle_by_correction(protest)
            if settled is protest or not await uow.protests.save(settled, case.protest.status):
                raise Invalid("protest-already-decided")
            await uow.protocols.lock_standings(tournament.id)
            if not await uow.annulments.annul(
                tournament.id, game.game.id, actor.user_id, actor.now
            ):
                raise Invalid("protest-already-decided")
            await rating_after_game(uow, tournament.id, game.game.id)
            await uow.protests.log(
                AuditEntry(
                    tournament.id,
                    actor.now,
                    actor.user_id,
                    AuditKind.GAME_ANNULLED,
                    settled.decision or "",
                    game_id=game.game.id,
                    protest_id=settled.id,
                )
            )
            await tell_decision(uow, settled, game, tournament, "protest-annulled")
            await _settle_the_others(uow, actor, settled, game, tournament)
            await _tell_channel_annulled(uow, settled, game, tournament)
            await publish_after_result(
                uow,
                tournament,
                game.stage,
                game.round_number,
                result_key=f"annulled:{game.game.id}",
                now=actor.now,
            )
            await alert_lot_needed(uow, tournament)
            await uow.commit()
            return ProtestCase(settled, game, tournament, case.players)


async def _settle_the_others(
    uow: UnitOfWork, actor: Actor, settled: Protest, game: GameInRound, tournament: Tournament
) -> None:
    """Every other open protest on the annulled game is settled by it, its protester told."""
    for other in await uow.protests.of_game(game.game.id):
        if other.id == settled.id or not other.is_open:
            continue
        closed = settle_by_correction(
            decide(
                other,
                accept=True,
                text=settled.decision or "",
                judge_id=actor.user_id,
                now=actor.now,
            )
            if other.status is ProtestStatus.PENDING
            else other
        )
        if await uow.protests.save(closed, other.status):
            await tell_decision(uow, closed, game, tournament, "protest-annulled")


async def _tell_channel_annulled(
    uow: UnitOfWork, settled: Protest, game: GameInRound, tournament: Tournament
) -> None:
    if tournament.channel_id is None:
        return
    await uow.outbox.add(
        OutgoingMessage(
            chat_id=tournament.channel_id,
            phrase=Phrase.of(
                "protest-annulled-channel",
                game=game.round_number,
                table=game.game.table,
                decision=settled.decision or "",
            ),
            tournament_id=tournament.id,
            dedupe_key=f"annulled:{game.game.id}",
        )
    )


async def tell_decision(
    uow: UnitOfWork, protest: Protest, game: GameInRound, tournament: Tournament, key: str
) -> None:
    """The protester and the table judge learn the decision."""
    participant = await uow.participants.get(protest.participant_id)
    args: dict[str, str | int] = {
        "game": game.round_number,
        "table": game.game.table,
        "nickname": participant.nickname if participant else "",
        "decision": protest.decision or "",
    }
    for person in dict.fromkeys((protest.user_id, game.game.judge_id)):
        if person is None:
            continue
        await uow.outbox.add(
            OutgoingMessage(
                chat_id=person,
                phrase=Phrase.of(key, **args),
                tournament_id=tournament.id,
                dedupe_key=f"{key}:{protest.id}:{person}",
            )
        )
