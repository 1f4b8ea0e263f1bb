"""Use cases of the judge's live game (the Mini App): open it, record an action, undo, confirm.

Every action is stored as it happens, so a dropped connection, a closed app or another device
resumes exactly where the game was. The same people as for the protocol may run it (the
table's judge or a chief judge). After each action the protocol draft is what the log makes of
it (`domain.game_log.to_draft`): the inline protocol screen shows the same, and confirming goes
through the protocol's own confirmation (the same rules engine, channel post, standings and
protest window). The log stays with the confirmed protocol.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from domain.actor import Actor
from domain.game_log import (
    Action,
    Entry,
    Finish,
    GameLogRefused,
    LiveGame,
    apply,
    replay,
    to_draft,
)
from domain.protocol import ProtocolDraft, ProtocolError, ProtocolNotReady, missing_items
from domain.protocol_screen import Mode, Screen
from domain.regulation import Regulation
from domain.rounds import GameInRound, GameState
from domain.scoring import SeatScore, score_game
from domain.services import protocols
from domain.services.ports import UnitOfWork, UnitOfWorkFactory
from domain.services.protocols import ProtocolService

# Two devices saving the draft at once: the later one tries again on the fresh draft.
_SAVE_TRIES = 5
# A tap kept on the phone is logged at its moment if it comes within this long.
_OFFLINE_AT_MOST = timedelta(hours=12)


@dataclass(frozen=True)
class Refusal:
    """Why an action changed nothing: a Fluent message id and its arguments."""

    code: str
    args: dict[str, object]


@dataclass(frozen=True)
class LiveView:
    """What the Mini App shows: the game as the log makes it, and what the protocol lacks."""

    game: GameInRound
    regulation: Regulation
    nicknames: tuple[str, ...]
    entries: tuple[Entry, ...]
    # The stored log's version: an action is applied only on the version the device saw.
    version: int
    state: LiveGame
    chief_judge: bool
    refused: Refusal | None = None
    # The device's version was stale (another device acted): it shows the fresh game.
    stale: bool = False
    notice: str | None = None

    @property
    def confirmed(self) -> bool:
        """The protocol is confirmed: the game can no longer change here."""
        return self.game.game.state is GameState.CONFIRMED

    @property
    def draft(self) -> ProtocolDraft:
        """The protocol the log makes."""
        return _draft_of(self.game, self.state, self.entries)

    @property
    def missing(self) -> tuple[str, ...]:
        """What the protocol still lacks (message ids)."""
        return tuple(missing_items(self.draft, self.regulation))

    @property
    def scores(self) -> tuple[SeatScore, ...] | None:
        """Every seat's points by part once the protocol is complete (as the inline summary)."""
        try:
            return score_game(self.draft.complete(self.regulation), self.regulation)
        except ProtocolNotReady:
            return None


def _draft_of(game: GameInRound, state: LiveGame, entries: tuple[Entry, ...]) -> ProtocolDraft:
    players = tuple(str(p) for p in game.game.players)
    ended = [entry.at for entry in entries if isinstance(entry.action, Finish)]
    return replace(to_draft(state, players), ended_at=ended[-1] if ended else None)


async def _view(
    uow: UnitOfWork,
    access: protocols._Access,
    *,
    refused: Refusal | None = None,
    stale: bool = False,
    notice: str | None = None,
    names: Mapping[int, str] | None = None,
) -> LiveView:
    """The live game as stored; `names`, the seats' nicknames, when already read."""
    stored = await uow.game_logs.log(access.game.game.id)
    entries, version = stored if stored else ((), 0)
    regulation = access.tournament.regulation
    players = access.game.game.players
    if names is None:
        names = await uow.participants.nicknames(players)
    return LiveView(
        game=access.game,
        regulation=regulation,
        nicknames=tuple(names.get(p, str(p)) for p in players),
        entries=entries,
        version=version,
        state=replay((entry.action for entry in entries), regulation),
        chief_judge=access.chief_judge,
        refused=refused,
        stale=stale,
        notice=notice,
    )


class LiveGameService:
    """The judge's live game (the Mini App): open it, record an action, undo, confirm."""

    def __init__(self, uow: UnitOfWorkFactory, protocols: ProtocolService) -> None:
        self._uow = uow
        # Confirming goes through the protocol's own confirmation.
        self._protocols = protocols

    async def open_live(self, actor: Actor, game_id: int) -> LiveView:
        """The live game as stored (a fresh one if the judge has not started it)."""
        async with self._uow() as uow:
            access = await protocols.game_access(uow, actor, game_id)
            return await _view(uow, access)

    async def record(
        self,
        actor: Actor,
        game_id: int,
        action: Action,
        version: int,
        tapped_at: datetime | None = None,
    ) -> LiveView:
        """Apply one action to the game the device saw (`version`) and store it with the draft it
        makes; a refused action, a stale device or a confirmed game change nothing. `tapped_at`
        is when the judge tapped (a tap kept on the phone without a connection comes later): the
        log records it, within the previous entry's moment and the request's."""
        return await self._change(actor, game_id, version, action, tapped_at)

    async def undo(self, actor: Actor, game_id: int, version: int) -> LiveView:
        """Drop the last action (the game replays without it)."""
        return await self._change(actor, game_id, version, None)

    async def _change(
        self,
        actor: Actor,
        game_id: int,
        version: int,
        action: Action | None,
        tapped_at: datetime | None = None,
    ) -> LiveView:
        async with self._uow() as uow:
            # The game, the rights, the draft and the nicknames in one go, as for a press.
            access, read = await protocols.pressed_access(uow, actor, game_id)
            view = await _view(uow, access, names=read.nicknames)
            if view.confirmed:
                return replace(view, notice="protocol-screen-already-confirmed")
            if view.version != version:
                return replace(view, stale=True)
            regulation = access.tournament.regulation
            if action is None:
                if not view.entries:
                    return view
                entries = view.entries[:-1]
                state = replay((entry.action for entry in entries), regulation)
            else:
                try:
                    state = apply(view.state, action, regulation)
                except GameLogRefused as refusal:
                    return replace(view, refused=Refusal(refusal.code, refusal.args_))
                when = _tap_time(tapped_at, actor.now, view.entries)
                entries = (*view.entries, Entry(action, when, actor.user_id))
            if not await uow.game_logs.save(game_id, entries, version, actor.user_id, actor.now):
                return replace(await _view(uow, access), stale=True)
            if version == 0:
                # The game is being played live from now: the tournament's pages link to it.
                uow.changed_tournaments.add(access.tournament.id)
            draft = _draft_of(access.game, state, entries)
            await _store_draft(uow, actor, game_id, draft, read.draft)
            await uow.commit()
            # The log as stored now (its next version), without reading and replaying it again.
            return replace(view, entries=entries, version=version + 1, state=state)

    async def confirm(
        self,
        actor: Actor,
        game_id: int,
    ) -> LiveView:
        """Confirm the protocol the log made, exactly as the inline screen confirms it."""
        result = await self._protocols.confirm_protocol(actor, game_id)
        view = await self.open_live(actor, game_id)
        if result.refused:
            first: ProtocolError = result.refused[0]
            args = dict(first.args)
            if first.seat is not None:
                args["seat"] = first.seat
            return replace(view, refused=Refusal(first.code, args))
        return replace(view, notice=result.notice)

    async def judge_locale(self, user_id: int) -> str | None:
        """The language the judge chose in the bot, which the Mini App speaks (None: he has
        not opened the bot)."""
        async with self._uow() as uow:
            user = await uow.users.get(user_id)
        return user.locale if user is not None else None


def _tap_time(tapped_at: datetime | None, now: datetime, entries: tuple[Entry, ...]) -> datetime:
    """The moment a tap is logged: the phone's, never later than the request nor earlier than
    the log's last entry (a phone's clock may be off; the log stays in order)."""
    if tapped_at is None:
        return now
    earliest = max(entries[-1].at, now - _OFFLINE_AT_MOST) if entries else now - _OFFLINE_AT_MOST
    return max(min(tapped_at, now), earliest)


async def _store_draft(
    uow: UnitOfWork,
    actor: Actor,
    game_id: int,
    draft: ProtocolDraft,
    stored: tuple[Screen, int] | None,
) -> None:
    """The protocol draft follows the log (the inline screen shows the same game); `stored` is
    the draft as this transaction read it (its save is conditional on its version)."""
    for attempt in range(_SAVE_TRIES):
        if attempt:
            stored = await uow.protocols.draft(game_id)
        if stored is None:
            if await uow.protocols.add_draft(
                game_id, Screen(draft, Mode.SUMMARY), actor.user_id, actor.now
            ):
                return
            continue
        screen, version = stored
        if await uow.protocols.save_draft(
            game_id, replace(screen, draft=draft), version, actor.user_id, actor.now
        ):
            return
    raise RuntimeError(f"protocol {game_id}: the draft kept changing under the live game")
