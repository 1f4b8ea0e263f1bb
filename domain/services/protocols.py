"""Use cases of a game's protocol: open it, press its buttons, confirm it, correct it.

Only the table's judge or a chief judge of the tournament touches a protocol; every call is
authorized anew against the database. The draft is stored after every press, so it survives
a restart and opens on another device. Confirmation stores the protocol, records the result's
channel post with the standings it makes and opens the protest window, all in one transaction.
It is guarded twice: the tournament's standings row is locked first (results of one tournament
are stored one after another, none lost), then the game moves from the version the judge saw
to the next one with a conditional UPDATE (two confirmations of the same game store one
result).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from domain.actor import Actor
from domain.cards import Role
from domain.outgoing import Lines, Localized, OutgoingMessage, Phrase
from domain.permissions import StaffRole
from domain.protocol import (
    Protocol,
    ProtocolDraft,
    ProtocolError,
    ProtocolNotReady,
    end_time_errors,
    missing_items,
)
from domain.protocol_screen import (
    Act,
    Mode,
    Press,
    PressRefused,
    Screen,
    apply_press,
    new_screen,
)
from domain.regulation import Regulation
from domain.rounds import GameInRound, GameState, ProtocolCorrection, TableGame
from domain.scoring import SeatScore, score_game
from domain.services.access import NotFound
from domain.services.ports import UnitOfWork, UnitOfWorkFactory
from domain.services.protests import on_protocol_confirmed, window_of
from domain.services.protocol_reads import ProtocolScreenRead
from domain.services.rating_sync import after_game as rating_after_game
from domain.services.standings_posts import publish_after_result
from domain.services.tie_decisions import alert_lot_needed
from domain.tournament import Tournament

# Two people pressing the same protocol at once: the loser re-applies his press on the
# winner's draft (presses set values, so this is safe); this many tries always suffice.
_SAVE_TRIES = 5
# The rounds whose protocols a chief judge is offered: the one being played and the last one.
_CHIEF_ROUNDS = 2


class NotYourTable(PermissionError):
    """Only the table's judge or a chief judge may touch this protocol."""


@dataclass(frozen=True)
class ProtocolView:
    """What the protocol screen shows.

    `screen` is the draft being filled in (or corrected); `confirmed` the stored protocol.
    `refused` holds why the last press changed nothing; `notice` a text id for a press that
    was harmless (already confirmed...).
    """

    game: GameInRound
    regulation: Regulation
    nicknames: tuple[str, ...]
    # The tournament's time zone, in which the protest window's end is shown.
    timezone: str
    screen: Screen | None
    confirmed: Protocol | None
    chief_judge: bool
    refused: tuple[ProtocolError, ...] = ()
    notice: str | None = None

    @property
    def correcting(self) -> bool:
        """A chief judge is correcting a confirmed protocol."""
        return self.screen is not None and self.confirmed is not None

    @property
    def missing(self) -> tuple[str, ...]:
        """What the judge still has to enter (message ids)."""
        if self.screen is None:
            return ()
        return tuple(missing_items(self.screen.draft, self.regulation))

    @property
    def scores(self) -> tuple[SeatScore, ...] | None:
        """Every seat's points with the breakdown, once the protocol is complete."""
        if self.screen is None:
            return score_game(self.confirmed, self.regulation) if self.confirmed else None
        try:
            return score_game(self.screen.draft.complete(self.regulation), self.regulation)
        except ProtocolNotReady:
            return None


@dataclass(frozen=True)
class _Access:
    game: GameInRound
    tournament: Tournament
    chief_judge: bool


async def _access(uow: UnitOfWork, actor: Actor, game_id: int) -> _Access:
    game = await uow.rounds.game(game_id)
    if game is None or not game.published:
        raise NotFound(f"game {game_id}")
    tournament = await uow.tournaments.get(game.tournament_id)
    if tournament is None:
        raise NotFound(f"tournament {game.tournament_id}")
    roles = await uow.staff.roles(tournament.id, actor.user_id)
    return _authorized(actor, game, tournament, StaffRole.CHIEF_JUDGE in roles)


def _authorized(
    actor: Actor, game: GameInRound, tournament: Tournament, chief_role: bool
) -> _Access:
    # The bot's admins may do whatever a chief judge may (as they may an organizer's work).
    chief = actor.is_admin or chief_role
    if not chief and game.game.judge_id != actor.user_id:
        raise NotYourTable(game.game.id)
    return _Access(game, tournament, chief)


async def pressed_access(
    uow: UnitOfWork, actor: Actor, game_id: int
) -> tuple[_Access, ProtocolScreenRead]:
    """`_access` and the screen as stored, read together: a press's one read."""
    read = await uow.protocols.screen_read(game_id, actor.user_id)
    if read is None or not read.game.published:
        raise NotFound(f"game {game_id}")
    chief_role = read.role is StaffRole.CHIEF_JUDGE
    return _authorized(actor, read.game, read.tournament, chief_role), read


async def _nicknames(uow: UnitOfWork, access: _Access) -> tuple[str, ...]:
    # The table's seats only: a press must not load the whole tournament's participants.
    players = access.game.game.players
    participants = await uow.participants.nicknames(players)
    return tuple(participants.get(p, str(p)) for p in players)


async def _view(
    uow: UnitOfWork,
    access: _Access,
    *,
    refused: tuple[ProtocolError, ...] = (),
    notice: str | None = None,
) -> ProtocolView:
    game_id = access.game.game.id
    draft = await uow.protocols.draft(game_id)
    confirmed = await uow.protocols.protocol(game_id)
    nicknames = await uow.participants.nicknames(access.game.game.players)
    read = ProtocolScreenRead(access.game, access.tournament, None, draft, confirmed, nicknames)
    return _shown(access, read, refused=refused, notice=notice)


def _shown(
    access: _Access,
    read: ProtocolScreenRead,
    *,
    refused: tuple[ProtocolError, ...] = (),
    notice: str | None = None,
) -> ProtocolView:
    """The screen as `read` (`pressed_access` reads it with the access: no statement more)."""
    draft = read.draft
    # A chief judge's correction in progress is his alone: the table's judge sees the result.
    if read.confirmed is not None and not access.chief_judge:
        draft = None
    return ProtocolView(
        game=access.game,
        regulation=access.tournament.regulation,
        nicknames=read.seat_nicknames(),
        timezone=access.tournament.timezone,
        screen=draft[0] if draft else None,
        confirmed=read.confirmed,
        chief_judge=access.chief_judge,
        refused=refused,
        notice=notice,
    )


async def _committed(
    uow: UnitOfWork,
    access: _Access,
    *,
    notice: str | None = None,
) -> ProtocolView:
    """The screen after a change, read in the change's own transaction before it commits: a
    press costs one transaction, not a second one to read the screen again."""
    view = await _view(uow, access, notice=notice)
    await uow.commit()
    return view


class ProtocolService:
    """A game's protocol: open it, press its buttons, confirm it, correct it, its audit."""

    def __init__(self, uow: UnitOfWorkFactory) -> None:
        self._uow = uow

    async def open_protocol(self, actor: Actor, game_id: int) -> ProtocolView:
        """The game's protocol screen, its draft started from the seating on first opening."""
        async with self._uow() as uow:
            # A press's light read (the refresh button opens it again, as often as a press).
            access, read = await pressed_access(uow, actor, game_id)
            if access.game.game.state is GameState.OPEN and read.draft is None:
                players = tuple(str(p) for p in access.game.game.players)
                # Losing the race to the other judge's first opening leaves his draft in place.
                await uow.protocols.add_draft(
                    game_id, new_screen(players), actor.user_id, actor.now
                )
                return await _committed(uow, access)
            return _shown(access, read)

    async def press_protocol(self, actor: Actor, game_id: int, press: Press) -> ProtocolView:
        """Apply a button press to the draft and store it; a refused press changes nothing and
        says why, a press on a confirmed protocol only says so."""
        async with self._uow() as uow:
            access, read = await pressed_access(uow, actor, game_id)
            regulation = access.tournament.regulation
            for _ in range(_SAVE_TRIES):
                stored = read.draft
                if stored is None:
                    return await _closed(uow, access)
                if access.game.game.state is GameState.CONFIRMED and not access.chief_judge:
                    return _shown(access, read, notice="protocol-screen-already-confirmed")
                screen, version = stored
                try:
                    pressed = apply_press(screen, press, regulation)
                except PressRefused as refusal:
                    return _shown(access, read, refused=tuple(refusal.errors))
                if pressed == screen:
                    return _shown(access, read)
                if screen.draft.winner is None and pressed.draft.winner is not None:
                    # Entering the winner ends the game: a protest window may run from here.
                    pressed = replace(pressed, draft=replace(pressed.draft, ended_at=actor.now))
                # The judge corrects the end of the game back to when it was: never ahead of
                # now, never before the round's seating was published.
                earliest = access.game.published_at if press.act is Act.END_TIME else None
                late = end_time_errors(pressed.draft, actor.now, earliest)
                if late:
                    return _shown(access, read, refused=tuple(late))
                if await uow.protocols.save_draft(
                    game_id, pressed, version, actor.user_id, actor.now
                ):
                    await uow.commit()
                    return _shown(access, replace(read, draft=(pressed, version + 1)))
                read = replace(read, draft=await uow.protocols.draft(game_id))
            raise RuntimeError(f"protocol {game_id}: the draft kept changing under the press")

    async def confirm_protocol(
        self,
        actor: Actor,
        game_id: int,
    ) -> ProtocolView:
        """Store the protocol (or the chief judge's correction), record the channel's result post
        and open the protest window. A second confirmation of the same
        game, at the same moment or later, stores nothing and says the protocol is confirmed.

        The channel's live standings are edited in the same transaction, and the round and the
        stage this result completes are closed with posts of their own."""
        async with self._uow() as uow:
            access, read = await pressed_access(uow, actor, game_id)
            game = access.game.game
            tournament = access.tournament
            stored = read.draft
            if stored is None:
                return await _closed(uow, access)
            correcting = game.state is GameState.CONFIRMED
            if correcting and not access.chief_judge:
                return _shown(access, read, notice="protocol-screen-already-confirmed")
            try:
                protocol = stored[0].draft.complete(tournament.regulation)
            except ProtocolNotReady as not_ready:
                missing = tuple(ProtocolError(code) for code in not_ready.missing)
                return _shown(access, read, refused=(*missing, *not_ready.errors))
            await uow.protocols.lock_standings(tournament.id)
            before = await uow.protocols.protocol(game_id) if correcting else None
            if before is None:
                closes_at = await _protest_until(uow, tournament, protocol.ended_at, actor.now)
            else:
                closes_at = await _corrected_window(
                    uow, tournament, game, before, protocol, actor.now
                )
            if not await uow.protocols.advance_game(game_id, game.version, closes_at):
                return await _view(uow, access, notice="protocol-screen-already-confirmed")
            await uow.protocols.store(game_id, protocol, actor.user_id, actor.now)
            await rating_after_game(uow, tournament.id, game_id)
            await uow.protocols.drop_draft(game_id)
            if before is not None:
                await uow.protocols.add_correction(
                    ProtocolCorrection(game_id, actor.user_id, actor.now, before, protocol)
                )
            await _tell_confirmed(uow, access, actor, before, protocol, closes_at)
            confirmed = replace(access, game=await _reloaded(uow, game_id))
            return await _committed(
                uow,
                confirmed,
                notice="protocol-screen-corrected" if correcting else "protocol-screen-confirmed",
            )

    async def start_correction(self, actor: Actor, game_id: int) -> ProtocolView:
        """A chief judge opens a confirmed protocol for correction (a draft of what it says)."""
        async with self._uow() as uow:
            access = await _access(uow, actor, game_id)
            if not access.chief_judge:
                raise NotYourTable(game_id)
            confirmed = await uow.protocols.protocol(game_id)
            if confirmed is None:
                return await _view(uow, access, notice="protocol-screen-not-confirmed")
            screen = Screen(ProtocolDraft.from_protocol(confirmed), mode=Mode.ROLES)
            await uow.protocols.add_draft(game_id, screen, actor.user_id, actor.now)
            return await _committed(uow, access)

    async def cancel_correction(self, actor: Actor, game_id: int) -> ProtocolView:
        """Drop a correction in progress: the confirmed protocol stays as it was."""
        async with self._uow() as uow:
            access = await _access(uow, actor, game_id)
            if access.game.game.state is GameState.CONFIRMED and access.chief_judge:
                await uow.protocols.drop_draft(game_id)
                return await _committed(uow, access)
            return await _view(uow, access)

    async def corrections(self, actor: Actor, game_id: int) -> list[ProtocolCorrection]:
        """The audit of a game's protocol: every correction with who, when, before and after."""
        async with self._uow() as uow:
            await _access(uow, actor, game_id)
            return await uow.protocols.corrections(game_id)

    async def judge_games(self, actor: Actor) -> list[GameInRound]:
        """The protocols a person may open (to reopen a lost one): the open games he judges, and
        for a chief judge every game of his tournaments' last two published rounds."""
        async with self._uow() as uow:
            games = await uow.rounds.games_of_judge(actor.user_id)
            for tournament in await uow.tournaments.of_person(actor.user_id):
                if StaffRole.CHIEF_JUDGE in await uow.staff.roles(tournament.id, actor.user_id):
                    games.extend(await uow.rounds.recent_games(tournament.id, _CHIEF_ROUNDS))
            return list({game.game.id: game for game in games}.values())


async def _closed(uow: UnitOfWork, access: _Access) -> ProtocolView:
    """No draft: the protocol is confirmed, perhaps by a confirmation that committed after this
    request read the game (so the game is read again), or it was never opened."""
    current = replace(access, game=await _reloaded(uow, access.game.game.id))
    confirmed = current.game.game.state is GameState.CONFIRMED
    notice = "protocol-screen-already-confirmed" if confirmed else "protocol-screen-not-opened"
    return await _view(uow, current, notice=notice)


async def _tell_confirmed(
    uow: UnitOfWork,
    access: _Access,
    actor: Actor,
    before: Protocol | None,
    protocol: Protocol,
    closes_at: datetime | None,
) -> None:
    """What a confirmed protocol (`before`: the one it corrects) records for the others: the
    players' results and protest offers, the channel's result post, a lot the chief judge must
    draw, the live standings and the posts of what it closed."""
    game, tournament = access.game.game, access.tournament
    await on_protocol_confirmed(uow, access.game, tournament, before, protocol, closes_at, actor)
    await _result_post(uow, access, protocol, game.version + 1, before is not None)
    await alert_lot_needed(uow, tournament)
    await publish_after_result(
        uow,
        tournament,
        access.game.stage,
        access.game.round_number,
        result_key=f"game:{game.id}:{game.version + 1}",
        now=actor.now,
    )


async def _reloaded(uow: UnitOfWork, game_id: int) -> GameInRound:
    game = await uow.rounds.game(game_id)
    assert game is not None
    return game


async def _protest_until(
    uow: UnitOfWork, tournament: Tournament, ended_at: datetime | None, now: datetime
) -> datetime | None:
    """When protests against the result close: the tournament's window after the end of the
    game (the winner entered) or after the confirmation at `now`, as the regulation's
    `protest_window_from` says; None when the tournament
    takes no protests."""
    minutes = await window_of(uow, tournament)
    if minutes is None:
        return None
    from_end = tournament.regulation.protest_window_from == "game_end" and ended_at is not None
    start = ended_at if from_end and ended_at is not None else now
    return start + timedelta(minutes=minutes)


async def _corrected_window(
    uow: UnitOfWork,
    tournament: Tournament,
    game: TableGame,
    before: Protocol,
    after: Protocol,
    now: datetime,
) -> datetime | None:
    """The protest window after a chief judge's correction of a confirmed protocol, or None
    when it stays as it is. Where the window runs from the end of the game and the correction
    moves that end, a window still open runs from the corrected end as the judge's own
    correction would make it, but never closes before the time the players were told; a closed
    window stays closed (its result may already be in a cut)."""
    until = game.protest_until
    if until is None or until <= now or before.ended_at == after.ended_at:
        return None
    if tournament.regulation.protest_window_from != "game_end":
        return None
    moved = await _protest_until(uow, tournament, after.ended_at, now)
    return moved if moved is not None and moved > until else None


async def _result_post(
    uow: UnitOfWork, access: _Access, protocol: Protocol, version: int, correcting: bool
) -> None:
    tournament = access.tournament
    if tournament.channel_id is None:
        return
    nicknames = await _nicknames(uow, access)
    lines = tuple(
        _result_line(score, nicknames[score.seat - 1])
        for score in score_game(protocol, tournament.regulation)
    )

    def seats_of(role: Role) -> str:
        return ", ".join(str(n) for n, seat in enumerate(protocol.seats, 1) if seat.role is role)

    game = access.game
    stage = tournament.regulation.stage(game.stage).name
    await uow.outbox.add(
        OutgoingMessage(
            chat_id=tournament.channel_id,
            phrase=Phrase.of(
                "protocol-result-corrected" if correcting else "protocol-result",
                stage=Localized(stage.ru, stage.en),
                game=game.round_number,
                table=game.game.table,
                winner=protocol.winner.value,
                end=Phrase.of(
                    "protocol-result-end",
                    end=protocol.end.value if protocol.end else "none",
                    winner=protocol.winner.value,
                ),
                don=seats_of(Role.DON),
                sheriff=seats_of(Role.SHERIFF),
                mafia=seats_of(Role.MAFIA),
                seats=Lines(lines),
            ),
            tournament_id=tournament.id,
            dedupe_key=f"result:{game.game.id}:{version}",
        )
    )


def _result_line(score: SeatScore, nickname: str) -> Phrase:
    """A seat of a result post: its points and the parts they add up from (ЛХ 0,3 · допы 0,2)."""
    parts = [
        Phrase.of(key, points=points)
        for key, points in (
            ("protocol-result-part-win", score.win),
            ("protocol-result-part-best-move", score.best_move),
            ("protocol-result-part-extra", score.extra),
            ("protocol-result-part-penalty", score.penalty),
        )
        if points
    ]
    if not parts:
        return Phrase.of(
            "protocol-result-seat", seat=score.seat, nickname=nickname, total=score.total
        )
    return Phrase.of(
        "protocol-result-seat-parts",
        seat=score.seat,
        nickname=nickname,
        total=score.total,
        parts=Lines(tuple(parts), separator=" · "),
    )


async def game_access(uow: UnitOfWork, actor: Actor, game_id: int) -> _Access:
    """The game, its tournament and whether the person is its chief judge; NotFound or
    NotYourTable as for the protocol (the live game in the Mini App has the same rights)."""
    return await _access(uow, actor, game_id)
