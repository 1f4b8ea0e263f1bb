"""The live game for spectators and for a stream: the judge's log read for the game's pages,
and the organizer's stream view of a game (its link, opened with a token of its own, its delay,
revoked when he likes).

The pages decide what a viewer sees (`domain.live_table`): the log itself never leaves the
server. A stream view opens with its link's token alone (a wrong or revoked one opens
nothing), whatever the tournament's page visibility: the organizer gave that link to his
stream's operator.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from domain.actor import Actor
from domain.game_log import Entry
from domain.live_table import DEFAULT_DELAY_SECONDS, MAX_DELAY_SECONDS, StreamLink
from domain.rounds import GameInRound
from domain.services.access import NotFound
from domain.services.ports import UnitOfWork, UnitOfWorkFactory
from domain.services.rounds.preview import organizing
from domain.tournament import Tournament
from domain.validation import Invalid


@dataclass(frozen=True)
class StreamScreen:
    """The organizer's screen of a game's stream view: the game, where it is, its link."""

    tournament: Tournament
    game: GameInRound
    link: StreamLink | None

    @property
    def open(self) -> bool:
        """Whether the game's stream link opens the stream view now."""
        return self.link is not None and not self.link.revoked


async def _game(uow: UnitOfWork, actor: Actor, game_id: int) -> tuple[Tournament, GameInRound]:
    game = await uow.rounds.game(game_id)
    if game is None:
        raise NotFound(f"game {game_id}")
    # The round's view's own check (`rounds.preview.organizing`): the 📺 button is on that view
    # alone, so whoever is shown it may press it, and no one else is shown it.
    tournament = await organizing(uow, actor, game.tournament_id)
    return tournament, game


class LiveTableService:
    """The game's log for its pages, and the organizer's stream view of a game."""

    def __init__(self, uow: UnitOfWorkFactory) -> None:
        self._uow = uow

    async def game_feed(self, game_id: int) -> tuple[tuple[Entry, ...], StreamLink | None]:
        """The game's log as stored (empty: the judge has not run it live) and its stream view
        as the organizer set it (None: never opened), read together."""
        async with self._uow() as uow:
            stored = await uow.game_logs.log(game_id)
            link = await uow.stream_links.get(game_id)
        return (stored[0] if stored else ()), link

    async def stream_screen(self, actor: Actor, game_id: int) -> StreamScreen:
        """The game's stream view as it stands (the organizer's)."""
        async with self._uow() as uow:
            tournament, game = await _game(uow, actor, game_id)
            return StreamScreen(tournament, game, await uow.stream_links.get(game_id))

    async def open_stream(self, actor: Actor, game_id: int, token: str) -> StreamScreen:
        """A new link for the game's stream view with `token` (drawn by the caller): an earlier
        link stops opening it; the delay stays as set (a minute at first)."""
        async with self._uow() as uow:
            tournament, game = await _game(uow, actor, game_id)
            before = await uow.stream_links.get(game_id)
            delay = before.delay_seconds if before is not None else DEFAULT_DELAY_SECONDS
            link = StreamLink(game_id, token, delay)
            await uow.stream_links.save(link, actor.user_id, actor.now)
            uow.changed_games.add(game_id)
            await uow.commit()
            return StreamScreen(tournament, game, link)

    async def revoke_stream(self, actor: Actor, game_id: int) -> StreamScreen:
        """The game's stream link stops opening (an open overlay shows nothing more)."""
        return await self._change(actor, game_id, revoked=True)

    async def set_stream_delay(self, actor: Actor, game_id: int, seconds: int) -> StreamScreen:
        """The stream view shows the game `seconds` late (0: as it happens)."""
        if not 0 <= seconds <= MAX_DELAY_SECONDS:
            raise Invalid("stream-bad-delay", max=MAX_DELAY_SECONDS)
        return await self._change(actor, game_id, delay_seconds=seconds)

    async def _change(self, actor: Actor, game_id: int, **changes: object) -> StreamScreen:
        async with self._uow() as uow:
            tournament, game = await _game(uow, actor, game_id)
            link = await uow.stream_links.get(game_id)
            if link is None:
                # Nothing to revoke or delay yet: the screen as it is.
                return StreamScreen(tournament, game, None)
            link = replace(link, **changes)  # type: ignore[arg-type]
            await uow.stream_links.save(link, actor.user_id, actor.now)
            # Open overlays hear of it at once: a revoked one closes, a delay applies.
            uow.changed_games.add(game_id)
            await uow.commit()
            return StreamScreen(tournament, game, link)
