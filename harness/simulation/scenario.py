"""A whole tournament played through the real bot by scripted people.

The organizer creates the tournament with the wizard and invites the chief judge and the
table judges; players (and captains with their teams) register by deep links and check in;
each stage is seated and published round by round; at every table its judge fills the
protocol by buttons with a plausible random game; a player protests a result and the chief
judge decides; the organizer finishes the tournament. Every step is a message or a button
press in the fake Telegram, answered by the bot polling it over HTTP.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from datetime import date
from typing import Any

from domain.regulation import Regulation
from domain.rounds import tables_of_stage
from harness.fake_telegram import ChatMessage, FakeTelegram, FakeUser
from harness.simulation import roles
from harness.simulation.games import GamePlan, game_random, plan_game
from harness.simulation.live_game import LiveGameClient, live_actions, playable
from harness.simulation.people import Cast
from harness.simulation.progress import Progress
from harness.simulation.roles import Pace, SimulationError, TableList
from harness.simulation.screens import containing, create_tournament, payload_in

CHANNEL_ID = -100_777_000
CHANNEL_USERNAME = "mafiatour_simulation"
PROTEST_REASON = "Судья не засчитал фол игроку 7, а мне поставил лишний."
PROTEST_DECISION = "Фолы записаны верно, результат игры остаётся в силе."
LOT_NEEDED = "Нужен жребий"
# Every second table's judge runs his game live in the Mini App (when the web application is
# served); the others fill the inline protocol. The same plan gives the same protocol.
LIVE_TABLE_EVERY = 2
RUN_THE_GAME = "🎲 Вести игру"


@dataclass(frozen=True)
class Entry:
    """How the organizer chooses the regulation in the wizard: a preset's button or a file."""

    regulation: Regulation
    preset_button: str | None
    file: bytes | None


@dataclass
class Played:
    """What the script learnt on the way, for the report."""

    tournament_id: int = 0
    notes: tuple[str, ...] = ()
    live_games: int = 0


def stage_tables(regulation: Regulation, players: int) -> list[int]:
    """Tables per round of each stage when `players` start and each cut is full."""
    tables = []
    playing = players
    for stage in regulation.stages:
        tables.append(tables_of_stage(stage, playing))
        if stage.advance is not None:
            size = regulation.team_size or 1
            playing = stage.advance.count * (size if stage.advance.unit == "teams" else 1)
    return tables


class Tournament:
    """The script of one tournament; `run()` plays it from the wizard to the final standings."""

    def __init__(
        self,
        fake: FakeTelegram,
        cast: Cast,
        users: dict[int, FakeUser],
        entry: Entry,
        seed: int,
        pace: Pace,
        progress: Progress,
        delivered: Callable[[], Awaitable[None]],
        live: bool = False,
        created: Callable[[int], None] | None = None,
        published: Callable[[str, int], Awaitable[None]] | None = None,
        starts_on: date | None = None,
        registration_in_order: bool = True,
        last_round: int | None = None,
        publishing: Callable[[str, int], Awaitable[None]] | None = None,
    ) -> None:
        """`delivered` waits until the bot has sent every message it recorded; with `live`
        (the Mini App is served) some judges run their games live; `created` is told the
        tournament's number once the organizer has created it, `published` each round (its
        stage's id and number) once published, and the round is played once it returns; the
        tournament's first day is `starts_on` (a month ahead by default); players confirm their
        registrations in the cast's order unless not `registration_in_order` (`roles.Turns`);
        with `last_round`, only the first stage's rounds up to that one are played, and `run()`
        returns with the tournament under way; `publishing` is told each round (as
        `published`) before the organizer publishes it."""
        self.live = live
        self.registration_in_order = registration_in_order
        self.last_round = last_round
        self.created = created
        self.published = published
        self.publishing = publishing
        self.starts_on = starts_on
        self.fake, self.cast, self.users, self.entry = fake, cast, users, entry
        self.seed, self.pace, self.progress = seed, pace, progress
        self.delivered = delivered
        self.organizer = users[cast.organizer.telegram_id]
        self.chief = users[cast.chief_judge.telegram_id]
        self.judges = [users[judge.telegram_id] for judge in cast.judges]
        self.by_nickname = {p.nickname: users[p.telegram_id] for p in cast.players}
        self.played = Played()

    async def run(self) -> Played:
        regulation = self.entry.regulation
        card = await create_tournament(
            self.fake,
            self.organizer,
            title=f"Кубок симуляции · {self.seed}",
            capacity=len(self.cast.players),
            channel_username=CHANNEL_USERNAME,
            channel_id=CHANNEL_ID,
            preset_button=self.entry.preset_button,
            regulation_file=self.entry.file,
            starts_on=self.starts_on,
        )
        self.played.tournament_id = roles.tournament_number(card)
        if self.created is not None:
            self.created(self.played.tournament_id)
        await self._staff(card)
        card = await roles.move(self.organizer, card, "Открыть регистрацию", self.pace)
        await self._registration(payload_in(card))
        card = await roles.move(self.organizer, card, "Закрыть регистрацию", self.pace)
        await self._check_in(card)
        window = regulation.protest_window_minutes or 0
        for number, stage in enumerate(regulation.stages, start=1):
            if number == 1:
                card = await roles.move(self.organizer, card, "Начать следующий этап", self.pace)
            else:
                card = await roles.move_when_offered(
                    self.organizer, card, "Начать следующий этап", self.pace, window
                )
            await self._stage(number, stage.id, stage.name.ru)
            if self.last_round is not None:
                return self.played
            await self._lots()
        await roles.move_when_offered(self.organizer, card, "Завершить турнир", self.pace, window)
        return self.played

    async def _staff(self, card) -> None:
        payload = await roles.invite(self.organizer, card, "Пригласить главного судью", self.pace)
        await roles.accept_invite(self.chief, payload, "главный судья турнира", self.pace)
        for judge in self.cast.judges:
            payload = await roles.invite(self.organizer, card, "Пригласить судью стола", self.pace)
            await roles.accept_invite(
                self.users[judge.telegram_id], payload, "судья (ведущий) стола", self.pace
            )

    async def _registration(self, payload: str) -> None:
        cast = self.cast
        self.progress.stage("Регистрация", len(cast.players))

        turns = roles.Turns(self.registration_in_order)

        async def alone(index: int) -> None:
            player = cast.players[index]
            user = self.users[player.telegram_id]
            await roles.register_alone(user, player, payload, index, turns, self.pace)
            self.progress.advance()

        async def team(index: int) -> None:
            await roles.register_team(self.users, cast, index, payload, turns, self.pace)
            self.progress.advance(len(cast.team_members(index)))

        if cast.teams:
            await asyncio.gather(*(team(index) for index in range(len(cast.teams))))
        else:
            await asyncio.gather(*(alone(index) for index in range(len(cast.players))))

    async def _check_in(self, card) -> None:
        await self.pace.pause()
        called = await self.organizer.press(card, button_text="Позвать отметиться").answer(
            roles.WAIT
        )
        if not (called.text or "").startswith("Позвали отметиться"):
            raise SimulationError(f"the check-in call was refused: {called.text}")
        self.progress.stage("Отметка о прибытии", len(self.cast.players))

        async def one(player: FakeUser) -> None:
            await roles.check_in(player, self.pace)
            self.progress.advance()

        await asyncio.gather(*(one(self.by_nickname[p.nickname]) for p in self.cast.players))

    async def _stage(self, number: int, stage_id: str, name: str) -> None:
        overview = await roles.seat_stage(self.organizer, self.played.tournament_id, self.pace)
        rounds, tables = roles.stage_size(overview)
        self.progress.stage(f"Этап {number}: {name}", rounds * tables)
        for round_number in range(1, min(rounds, self.last_round or rounds) + 1):
            if self.publishing is not None:
                await self.publishing(stage_id, round_number)
            await roles.publish(self.organizer, overview, round_number, tables, self.pace)
            if self.published is not None:
                await self.published(stage_id, round_number)
            await self._round(stage_id, number, round_number, tables)

    async def _lots(self) -> None:
        """The chief judge draws by the tournament's seed every lot the bot asks him for when
        the stage closes with its cut line (or a final place) in a tie."""
        # The request is recorded with the stage's last protocol: once everything recorded
        # is sent, the chief judge's chat shows each one still waiting.
        await self.delivered()
        for request in [m for m in self.chief.messages if containing(LOT_NEEDED)(m)]:
            decision = await roles.draw_lot(self.chief, request, self.pace)
            if decision is not None:
                self.played.notes = (*self.played.notes, decision)

    async def _round(self, stage_id: str, stage: int, round_number: int, tables: int) -> None:
        """The judges the published round calls go to their tables; the others wait."""
        waiting = {asyncio.create_task(self._called(judge)) for judge in self.judges}
        games: list[Coroutine[Any, Any, None]] = []
        try:
            while len(games) < tables:
                done, waiting = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
                for task in done:
                    judge, listing = task.result()
                    games.append(self._table(stage_id, stage, round_number, judge, listing))
        except BaseException:
            # Stopped (Ctrl+C) before every table was called: the games never started.
            for game in games:
                game.close()
            raise
        finally:
            for task in waiting:
                task.cancel()
        await asyncio.gather(*games)

    @staticmethod
    async def _called(judge: FakeUser) -> tuple[FakeUser, TableList]:
        return judge, await roles.called(judge)

    async def _table(
        self, stage_id: str, stage: int, round_number: int, judge: FakeUser, listing: TableList
    ) -> None:
        rng = game_random(self.seed, stage_id, round_number, listing.table)
        plan = plan_game(rng, self.entry.regulation)
        at_table = self.pace.at_table()
        screen = await roles.open_protocol(judge, listing, at_table)
        # Not in the very first round, whose protest races its short window.
        first_round = (stage, round_number) == (1, 1)
        live = self.live and not first_round and listing.table % LIVE_TABLE_EVERY == 0
        if live and playable(plan):
            await self._live(judge, screen.message, plan, at_table)
        else:
            step = self.entry.regulation.extra_points.step
            await roles.fill_protocol(screen, plan, at_table, step)
        self.progress.advance()
        if (stage, round_number, listing.table) == (1, 1, 1):
            await self._protest(listing)

    async def _live(
        self, judge: FakeUser, protocol: ChatMessage, plan: GamePlan, pace: Pace
    ) -> None:
        """The judge opens "Run the game" on his protocol and plays the game in the Mini App's
        API, tap by tap, then confirms it there."""
        await pace.pause()
        client = LiveGameClient.launched(judge.open_web_app(protocol, RUN_THE_GAME))
        await client.play(live_actions(plan, self.entry.regulation), pace.pause)
        self.played.live_games += 1

    async def _protest(self, table: TableList) -> None:
        """A player of the first game protests its result; the chief judge rejects it."""
        if self.entry.regulation.protest_window_minutes is None:
            self.played.notes = (
                *self.played.notes,
                "Протесты: регламент их не предусматривает (решение судьи окончательно).",
            )
            return
        nickname = table.nicknames[2]
        if not await roles.file_protest(self.by_nickname[nickname], PROTEST_REASON, self.pace):
            self.played.notes = (
                *self.played.notes,
                f"Протест: {nickname} (тур 1, стол 1, место 3) не успел — окно протеста "
                f"закрылось раньше (на скорости ×{self.pace.speed:g} оно длится секунды)",
            )
            return
        await roles.reject_protest(self.chief, PROTEST_DECISION, self.pace)
        await self.by_nickname[nickname].wait_for(
            lambda m: "отклонил протест" in (m.text or ""), roles.WAIT
        )
        self.played.notes = (
            *self.played.notes,
            f"Протест: {nickname} (тур 1, стол 1, место 3) — «{PROTEST_REASON}»; "
            f"главный судья отклонил: «{PROTEST_DECISION}»",
        )
