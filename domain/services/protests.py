"""Use cases of protests: offer the protest with the result, file one, decide it, settle it by
the protocol's correction; the organizer's switch and the tournament's audit log.

The protest window is the game's `protest_until`, stored when its protocol is confirmed. Every
protest, decision and correction is written to the audit log in the transaction that makes it,
and every notice goes through the outbox in the same transaction.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from domain.actor import Actor
from domain.cards import Role
from domain.game_log import Entry
from domain.intents import DecideProtest, FileProtest, ProtestChoice
from domain.outgoing import Button, Lines, OutgoingMessage, Phrase, ScheduledPush
from domain.permissions import Action, Forbidden
from domain.protests import (
    AuditEntry,
    AuditKind,
    Protest,
    ProtestStatus,
    check_filing,
    decide,
    deciders,
    local_time,
    protest_reason,
    settle_by_correction,
    window_minutes,
    window_open,
)
from domain.protocol import Protocol
from domain.registration import Participant, ParticipantStatus
from domain.rounds import GameInRound
from domain.scoring import score_game
from domain.services.access import NotFound, authorize
from domain.services.ports import UnitOfWork, UnitOfWorkFactory
from domain.services.standings import played_games
from domain.services.standings_posts import publish_after_result, publish_live_standings
from domain.services.tie_decisions import alert_lot_needed
from domain.tournament import Tournament
from domain.validation import Invalid


async def window_of(uow: UnitOfWork, tournament: Tournament) -> int | None:
    """The tournament's protest window in minutes (the regulation's, or the organizer's
    switch); None when protests are off."""
    switch = await uow.protests.switch(tournament.id)
    return window_minutes(tournament.regulation.protest_window_minutes, switch)


# --- what the protocol's confirmation does --------------------------------------------------


async def _nicknames(uow: UnitOfWork, tournament_id: int) -> dict[int, Participant]:
    return {p.id: p for p in await uow.participants.of_tournament(tournament_id)}


def _seats_of(protocol: Protocol, role: Role) -> str:
    return ", ".join(str(n) for n, seat in enumerate(protocol.seats, 1) if seat.role is role)


def _summary(
    protocol: Protocol, tournament: Tournament, players: dict[int, Participant]
) -> dict[str, str | int | Lines]:
    """The phrase arguments that sum a protocol up: winner, black seats, each seat's points."""
    lines = []
    for score in score_game(protocol, tournament.regulation):
        player = players.get(int(score.player))
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
    players = await _nicknames(uow, tournament.id)
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
        await _tell_decision(uow, settled, game, tournament, "protest-corrected")


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
    scores = {int(s.player): s for s in score_game(protocol, tournament.regulation)}
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


# --- filing ---------------------------------------------------------------------------------


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


async def protest_target(
    uow_factory: UnitOfWorkFactory, actor: Actor, game_id: int
) -> ProtestTarget:
    """The game the person wants to protest, if he may (`Invalid` says why not)."""
    async with uow_factory() as uow:
        return await _target(uow, actor, game_id)


async def protestable_games(uow_factory: UnitOfWorkFactory, actor: Actor) -> list[ProtestTarget]:
    """The games the person played whose protest window is open now (for /protest)."""
    targets: list[ProtestTarget] = []
    async with uow_factory() as uow:
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
    uow_factory: UnitOfWorkFactory,
    actor: Actor,
    game_id: int,
    reason: str | None,
    photo: str | None,
) -> Protest:
    """File a player's protest: checked against the window at `now`, one open per player and
    game; the deciding judges get it with the protocol's summary and the table judge's name."""
    text = protest_reason(reason)
    async with uow_factory() as uow:
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


async def _judge_name(uow: UnitOfWork, judge_id: int | None) -> str:
    if judge_id is None:
        return "—"
    judge = await uow.users.get(judge_id)
    return judge.display_name if judge else str(judge_id)


async def _tell_deciders(uow: UnitOfWork, protest: Protest, target: ProtestTarget) -> None:
    tournament, game = target.tournament, target.game
    protocol = await uow.protocols.protocol(game.game.id)
    if protocol is None:
        raise NotFound(f"protocol {game.game.id}")
    staff = [(person, role.value) for person, role in await uow.staff.of_tournament(tournament.id)]
    players = await _nicknames(uow, tournament.id)
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
        judge=await _judge_name(uow, game.game.judge_id),
        **_summary(protocol, tournament, players),
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


# --- deciding -------------------------------------------------------------------------------


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
    everyone = await _nicknames(uow, tournament.id)
    players = tuple(everyone[p] for p in game.game.players if p in everyone)
    stored = await uow.game_logs.log(game.game.id)
    return ProtestCase(protest, game, tournament, players, stored[0] if stored else ())


async def protest_case(
    uow_factory: UnitOfWorkFactory, actor: Actor, protest_id: int
) -> ProtestCase:
    """The protest for one of its deciding judges (`Forbidden` for anyone else)."""
    async with uow_factory() as uow:
        return await _case(uow, actor, protest_id)


async def check_undecided(
    uow_factory: UnitOfWorkFactory, actor: Actor, protest_id: int
) -> ProtestCase:
    """The protest, if this judge may decide it and nobody has yet (`Invalid` otherwise)."""
    case = await protest_case(uow_factory, actor, protest_id)
    if case.protest.status is not ProtestStatus.PENDING:
        raise Invalid("protest-already-decided")
    return case


async def decide_protest(
    uow_factory: UnitOfWorkFactory,
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
    async with uow_factory() as uow:
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
        await _tell_decision(uow, decided, case.game, case.tournament, key)
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
    uow_factory: UnitOfWorkFactory,
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
    async with uow_factory() as uow:
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
        if not await uow.annulments.annul(tournament.id, game.game.id, actor.user_id, actor.now):
            raise Invalid("protest-already-decided")
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
        await _tell_decision(uow, settled, game, tournament, "protest-annulled")
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
                await _tell_decision(uow, closed, game, tournament, "protest-annulled")
        if tournament.channel_id is not None:
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


async def _tell_decision(
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


# --- the organizer --------------------------------------------------------------------------


@dataclass(frozen=True)
class ProtestSettings:
    """A tournament's protest window: the regulation's, the switch, what applies."""

    tournament: Tournament
    regulation_minutes: int | None
    switch: bool | None
    minutes: int | None


async def protest_settings(
    uow_factory: UnitOfWorkFactory,
    actor: Actor,
    tournament_id: int,
) -> ProtestSettings:
    """What protests the tournament takes, for its organizer."""
    async with uow_factory() as uow:
        tournament = await authorize(uow, actor, tournament_id, Action.EDIT_SETTINGS)
        return await _settings(uow, tournament)


async def _settings(uow: UnitOfWork, tournament: Tournament) -> ProtestSettings:
    switch = await uow.protests.switch(tournament.id)
    regulation = tournament.regulation.protest_window_minutes
    return ProtestSettings(tournament, regulation, switch, window_minutes(regulation, switch))


async def switch_protests(
    uow_factory: UnitOfWorkFactory,
    actor: Actor,
    tournament_id: int,
    enabled: bool | None,
) -> ProtestSettings:
    """The organizer switches protests on or off for the games confirmed from now on (None:
    back to the regulation's window); windows already open stay as they are."""
    async with uow_factory() as uow:
        tournament = await authorize(uow, actor, tournament_id, Action.EDIT_SETTINGS)
        await uow.protests.set_switch(tournament.id, enabled)
        settings = await _settings(uow, tournament)
        state = "regulation" if enabled is None else ("on" if enabled else "off")
        await uow.protests.log(
            AuditEntry(
                tournament.id,
                actor.now,
                actor.user_id,
                AuditKind.PROTESTS_SWITCHED,
                f"{state}: {settings.minutes if settings.minutes is not None else '—'}",
            )
        )
        await uow.commit()
        return settings


@dataclass(frozen=True)
class AuditLog:
    """A tournament's audit log, with the players the judges excluded and why."""

    tournament: Tournament
    entries: tuple[AuditEntry, ...]
    excluded: tuple[Participant, ...]
    # The protest window of games confirmed from now on; None when protests are off.
    minutes: int | None
    # Everyone named in the log by Telegram id: their display names.
    names: dict[int, str]


async def audit_log(
    uow_factory: UnitOfWorkFactory,
    actor: Actor,
    tournament_id: int,
) -> AuditLog:
    """The tournament's audit log, for its organizer (and its chief judge)."""
    async with uow_factory() as uow:
        tournament = await authorize(uow, actor, tournament_id, Action.EXPORT)
        entries = await uow.protests.audit(tournament.id)
        excluded = tuple(
            p
            for p in await uow.participants.of_tournament(tournament.id)
            if p.status is ParticipantStatus.EXCLUDED
        )
        names = {}
        for person in {e.actor_id for e in entries if e.actor_id is not None}:
            names[person] = await _judge_name(uow, person)
        minutes = await window_of(uow, tournament)
        return AuditLog(tournament, tuple(entries), excluded, minutes, names)
