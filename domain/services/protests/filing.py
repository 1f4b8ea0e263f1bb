"""Filing a protest: the games a player may protest, the protest itself, and the chief
judges told with the buttons to decide it."""

from __future__ import annotations

from dataclasses import dataclass

from domain.actor import Actor
from domain.intents import DecideProtest, ProtestChoice
from domain.outgoing import Button, OutgoingMessage, Phrase
from domain.protests import (
    AuditEntry,
    AuditKind,
    Protest,
    check_filing,
    deciders,
    local_time,
    protest_reason,
    window_open,
)
from domain.registration import Participant
from domain.rounds import GameInRound
from domain.services.access import NotFound
from domain.services.ports import UnitOfWork, UnitOfWorkFactory
from domain.services.protests.summary import game_summary, judge_name, participants_by_id
from domain.tournament import Tournament
from domain.validation import Invalid


@dataclass(frozen=True)
class ProtestTarget:
    """A game a person may protest now, and until when (the tournament's clock, HH:MM)."""

    game: GameInRound
    tournament: Tournament
    participant: Participant
    closes_at: str


async def _target(uow: UnitOfWork, actor: Actor, game_id: int) -> ProtestTarget:
    game = await uow.rounds.game(game_id)
    if game is None:
        raise NotFound(f"game {game_id}")
    tournament = await uow.tournaments.get(game.tournament_id)
    if tournament is None:
        raise NotFound(f"tournament {game.tournament_id}")
    participant = await uow.participants.of_person(tournament.id, actor.user_id)
    check_filing(
        participant_id=participant.id if participant else None,
        players=game.game.players,
        closes_at=game.game.protest_until,
        now=actor.now,
        open_protests=[p for p in await uow.protests.of_game(game_id) if p.is_open],
        timezone=tournament.timezone,
        annulled=game_id in await uow.annulments.of_tournament(tournament.id),
    )
    assert participant is not None and game.game.protest_until is not None
    closes = local_time(game.game.protest_until, tournament.timezone)
    return ProtestTarget(game, tournament, participant, closes)


class ProtestFilingService:
    """A player's protest: the games he may protest, filing one."""

    def __init__(self, uow: UnitOfWorkFactory) -> None:
        self._uow = uow

    async def protest_target(self, actor: Actor, game_id: int) -> ProtestTarget:
        """The game the person wants to protest, if he may (`Invalid` says why not)."""
        async with self._uow() as uow:
            return await _target(uow, actor, game_id)

    async def protestable_games(self, actor: Actor) -> list[ProtestTarget]:
        """The games the person played whose protest window is open now (for /protest)."""
        targets: list[ProtestTarget] = []
        async with self._uow() as uow:
            for tournament in await uow.tournaments.of_person(actor.user_id, everything=True):
                participant = await uow.participants.of_person(tournament.id, actor.user_id)
                if participant is None:
                    continue
                for stage in tournament.regulation.stages:
                    seated = await uow.rounds.stage(tournament.id, stage.id)
                    for round_ in seated.rounds if seated is not None else ():
                        for table_game in round_.games:
                            if participant.id not in table_game.players:
                                continue
                            if not window_open(table_game.protest_until, actor.now):
                                continue
                            try:
                                targets.append(await _target(uow, actor, table_game.id))
                            except Invalid:
                                continue
        return targets

    async def file_protest(
        self,
        actor: Actor,
        game_id: int,
        reason: str | None,
        photo: str | None,
    ) -> Protest:
        """File a player's protest: checked against the window at `now`, one open per player and
        game; the deciding judges get it with the protocol's summary and the table judge's name."""
        text = protest_reason(reason)
        async with self._uow() as uow:
            target = await _target(uow, actor, game_id)
            tournament = target.tournament
            filed = await uow.protests.add(
                Protest(
                    0,
                    tournament.id,
                    game_id,
                    target.participant.id,
                    actor.user_id,
                    text,
                    actor.now,
                    photo=photo,
                )
            )
            if filed is None:
                raise Invalid("protest-already-open")
            await uow.protests.log(
                AuditEntry(
                    tournament.id,
                    actor.now,
                    actor.user_id,
                    AuditKind.PROTEST_FILED,
                    f"{target.participant.nickname}: {text}",
                    game_id=game_id,
                    protest_id=filed.id,
                )
            )
            await _tell_deciders(uow, filed, target)
            await uow.commit()
            return filed


async def _tell_deciders(uow: UnitOfWork, protest: Protest, target: ProtestTarget) -> None:
    tournament, game = target.tournament, target.game
    protocol = await uow.protocols.protocol(game.game.id)
    if protocol is None:
        raise NotFound(f"protocol {game.game.id}")
    staff = [(person, role.value) for person, role in await uow.staff.of_tournament(tournament.id)]
    players = await participants_by_id(uow, tournament.id)
    seat = game.game.players.index(protest.participant_id) + 1
    buttons: list[tuple[Button, ...]] = [
        (
            Button(Phrase.of("protest-reject"), DecideProtest(protest.id, ProtestChoice.REJECT)),
            Button(Phrase.of("protest-accept"), DecideProtest(protest.id, ProtestChoice.ACCEPT)),
        ),
        (Button(Phrase.of("protest-players"), DecideProtest(protest.id, ProtestChoice.PLAYERS)),),
    ]
    if tournament.regulation.protest_annulment_allowed:
        buttons.insert(
            1, (Button(Phrase.of("protest-annul"), DecideProtest(protest.id, ProtestChoice.ANNUL)),)
        )
    if protest.photo is not None:
        buttons.append(
            (Button(Phrase.of("protest-photo"), DecideProtest(protest.id, ProtestChoice.PHOTO)),)
        )
    if await uow.game_logs.log(game.game.id) is not None:
        log_button = Button(
            Phrase.of("protest-game-log"), DecideProtest(protest.id, ProtestChoice.GAME_LOG)
        )
        buttons.append((log_button,))
    phrase = Phrase.of(
        "protest-to-chief",
        tournament=tournament.title,
        game=game.round_number,
        table=game.game.table,
        nickname=target.participant.nickname,
        seat=seat,
        reason=protest.reason,
        judge=await judge_name(uow, game.game.judge_id),
        **game_summary(protocol, tournament, players),
    )
    for person in sorted(deciders(staff, game.game.judge_id)):
        await uow.outbox.add(
            OutgoingMessage(
                chat_id=person,
                phrase=phrase,
                buttons=tuple(buttons),
                tournament_id=tournament.id,
                dedupe_key=f"protest:{protest.id}:to:{person}",
            )
        )
