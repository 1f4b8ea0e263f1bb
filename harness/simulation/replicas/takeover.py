"""The scheduler's lease holder killed while a round's reminders are due: another replica must
take the lease over and send them (see `harness.simulation.replicas`)."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import select

from bot.clock import ScaledClock
from bot.db.models import OutboxRow, ScheduledPushRow
from bot.db.uow import SqlUnitOfWorkFactory
from bot.delivery.scheduler import SCHEDULER_LEASE
from domain.reminder_plan import reminder_prefix, who_plays
from domain.reminders import ROUND_REMINDER_LEAD
from handlers.callbacks import CardOpen
from harness.fake_telegram import FakeTelegram, FakeUser
from harness.simulation.replicas.delivery import DELIVERY_WAIT
from harness.simulation.replicas.process import Replica


@dataclass
class Reminded:
    """The round the scheduler reminded while its lease holder was killed."""

    round_number: int
    starts_at: str  # the game's time in the timetable, as the reminder says it
    players: tuple[int, ...]  # the Telegram ids of the round's players
    due_at: datetime  # when their reminders fall due, on the bot's clock
    takeover_seconds: float = 0.0  # from the kill to another process holding the lease
    received: dict[int, int] = field(default_factory=dict)  # reminders each player received

    @property
    def phrase(self) -> str:
        return f"тур {self.round_number} в {self.starts_at}"


# The wizard's time zone, which the simulated organizer keeps.
TIMEZONE = "Europe/Moscow"
# How long after the timetable is saved the reminders fall due, in real seconds: time enough
# to kill the scheduler's lease holder before they do, and about as long as its lease takes to
# run out (the replicas' LEASE_SECONDS) for another to take it over and send them.
REMINDERS_AFTER_SECONDS = 10.0


class KillAtReminders:
    """At the first round published once `kill_after_updates` updates were delivered: the
    organizer times its game in the timetable, the scheduler's lease holder is killed and
    started again, and the round is played once each of its players has his reminder."""

    def __init__(
        self,
        fake: FakeTelegram,
        group: list[Replica],
        uow_factory: SqlUnitOfWorkFactory,
        clock: ScaledClock,
        organizer: FakeUser,
        kill_after_updates: int | None,
        speed: float,
    ) -> None:
        self._fake, self._group, self._uow_factory = fake, group, uow_factory
        self._clock, self._organizer = clock, organizer
        self._after, self._speed = kill_after_updates, speed
        self._tournament_id = 0
        self._restart: asyncio.Task[None] | None = None
        self.reminded: Reminded | None = None

    def created(self, tournament_id: int) -> None:
        self._tournament_id = tournament_id

    async def published(self, stage_id: str, round_number: int) -> None:
        after = self._after
        if after is None or self.reminded is not None or len(self._group) < 2:
            return
        if self._fake.world.delivered_update_id < after:
            return
        text, reminded = await timed_round(
            self._uow_factory,
            self._tournament_id,
            (stage_id, round_number),
            self._clock,
            REMINDERS_AFTER_SECONDS * self._speed,
        )
        await set_timetable(self._organizer, self._tournament_id, text)
        self.reminded = reminded
        victim = await self._lease_holder()
        killed_at = time.monotonic()
        victim.kill()
        self._restart = asyncio.create_task(self._start_again(victim))
        await self._taken_over(victim)
        reminded.takeover_seconds = time.monotonic() - killed_at
        await all_reminded(self._fake, self._uow_factory, self._tournament_id, reminded)

    async def restarted(self) -> None:
        if self._restart is not None:
            await self._restart

    async def _lease_holder(self) -> Replica:
        async with asyncio.timeout(DELIVERY_WAIT):
            while True:
                async with self._uow_factory() as uow:
                    holder = await uow.leases.holder(SCHEDULER_LEASE, datetime.now(UTC))
                for replica in self._group:
                    process = replica.process
                    if holder and process and holder.split(":")[1] == str(process.pid):
                        return replica
                await asyncio.sleep(0.2)

    async def _taken_over(self, victim: Replica) -> None:
        assert victim.process is not None
        dead = str(victim.process.pid)
        async with asyncio.timeout(DELIVERY_WAIT):
            while True:
                async with self._uow_factory() as uow:
                    holder = await uow.leases.holder(SCHEDULER_LEASE, datetime.now(UTC))
                if holder is not None and holder.split(":")[1] != dead:
                    return
                await asyncio.sleep(0.2)

    async def _start_again(self, victim: Replica) -> None:
        assert victim.process is not None
        await victim.process.wait()
        await asyncio.sleep(2.0)
        await victim.start()


async def timed_round(
    uow_factory: SqlUnitOfWorkFactory,
    tournament_id: int,
    round_of_stage: tuple[str, int],
    clock: ScaledClock,
    after: float,
) -> tuple[str, Reminded]:
    """The timetable with only this round's game timed, its players' reminders due `after`
    seconds of the bot's clock from now; and the round's players."""
    stage_id, round_number = round_of_stage
    async with uow_factory() as uow:
        tournament = await uow.tournaments.get(tournament_id)
        stage = await uow.rounds.stage(tournament_id, stage_id)
        listed = await uow.participants.of_tournament(tournament_id)
    participants = {p.id: p for p in listed}
    assert tournament is not None and tournament.starts_on is not None and stage is not None
    round_ = next(r for r in stage.rounds if r.number == round_number)
    players = tuple(
        player.user_id
        for game in round_.games
        for seated in game.players
        if (player := who_plays(seated, participants)) is not None and player.user_id
    )
    zone = ZoneInfo(tournament.timezone)
    starts = (clock.now() + ROUND_REMINDER_LEAD + timedelta(seconds=after)).astimezone(zone)
    starts = starts.replace(second=0, microsecond=0) + timedelta(minutes=1)
    day = (starts.date() - tournament.starts_on).days + 1
    lines, games = [], 0
    for event in (e for d in tournament.timetable for e in d.events):
        time_ = "-"
        if event.kind == "game" and event.stage == stage_id:
            games += 1
            time_ = f"{starts:%H:%M}" if games == round_number else "-"
        lines.append(" ".join(filter(None, (str(day), time_, event.kind, event.stage))))
    due = starts - ROUND_REMINDER_LEAD
    return "\n".join(lines), Reminded(round_number, f"{starts:%H:%M}", players, due)


async def set_timetable(organizer: FakeUser, tournament_id: int, text: str) -> None:
    """The organizer sends the timetable on its screen, from his tournament's card."""
    organizer.send("/tournaments")
    listed = await organizer.wait_for(lambda m: "Ваши турниры" in (m.text or ""))
    organizer.press(listed, callback_data=CardOpen(tournament_id=tournament_id).pack())
    card = await organizer.wait_for(lambda m: "Расписание и напоминания" in str(m.buttons))
    organizer.press(card, button_text="Расписание и напоминания")
    await organizer.wait_for(lambda m: "Расписание ·" in (m.text or ""))
    organizer.send(text)
    saved = await organizer.wait_for(
        lambda m: any(words in (m.text or "") for words in ("Расписание сохранено", "не подходит"))
    )
    if "Расписание сохранено" not in (saved.text or ""):
        raise RuntimeError(f"the timetable was refused: {saved.text}")


def received(fake: FakeTelegram, chat_id: int, phrase: str) -> int:
    """How many of the bot's messages in the chat say `phrase`."""
    return sum(1 for m in fake.messages(chat_id) if m.from_bot and phrase in (m.text or ""))


async def all_reminded(
    fake: FakeTelegram, uow_factory: SqlUnitOfWorkFactory, tournament_id: int, reminded: Reminded
) -> None:
    """Wait until each of the round's players has his reminder; failing that, say from the
    database what became of the missing ones."""
    try:
        async with asyncio.timeout(DELIVERY_WAIT):
            while _unreminded(fake, reminded):
                await asyncio.sleep(0.2)
    except TimeoutError:
        missing = _unreminded(fake, reminded)
        why = await _why_unreminded(uow_factory, tournament_id, reminded, missing)
        raise TimeoutError(
            f"after {DELIVERY_WAIT:.0f} s, {len(missing)} of the {len(reminded.players)} players "
            f"have no message saying {reminded.phrase!r}: {why}"
        ) from None


def _unreminded(fake: FakeTelegram, reminded: Reminded) -> list[int]:
    return [p for p in reminded.players if received(fake, p, reminded.phrase) == 0]


def when(moment: datetime | None) -> str:
    """A moment of the bot's clock in UTC, to the millisecond."""
    return "never" if moment is None else moment.astimezone(UTC).isoformat(timespec="milliseconds")


def _round_reminder_keys(tournament_id: int) -> str:
    """The LIKE pattern of a tournament's players' round reminders (`domain.reminder_plan`)."""
    return f"{reminder_prefix(tournament_id)}round:%"


async def round_published_at(
    uow_factory: SqlUnitOfWorkFactory, tournament_id: int, round_number: int
) -> datetime | None:
    """When the round of the stage being played was published (None: not yet)."""
    async with uow_factory() as uow:
        tournament = await uow.tournaments.get(tournament_id)
        stage_id = tournament.current_stage if tournament else None
        stage = await uow.rounds.stage(tournament_id, stage_id) if stage_id else None
    rounds = stage.rounds if stage else ()
    return next((r.published_at for r in rounds if r.number == round_number), None)


async def _why_unreminded(
    uow_factory: SqlUnitOfWorkFactory, tournament_id: int, reminded: Reminded, missing: list[int]
) -> str:
    """The database's word on the missing players' reminders: the round's publication against
    their due time, the pushes still waiting, their outbox rows, the leases alive."""
    pattern = _round_reminder_keys(tournament_id)
    published = await round_published_at(uow_factory, tournament_id, reminded.round_number)
    async with uow_factory() as uow:
        waiting = (
            await uow.session.execute(
                select(ScheduledPushRow.chat_id, ScheduledPushRow.due_at).where(
                    ScheduledPushRow.key.like(pattern), ScheduledPushRow.chat_id.in_(missing)
                )
            )
        ).all()
        rows = (
            await uow.session.execute(
                select(
                    OutboxRow.chat_id,
                    OutboxRow.status,
                    OutboxRow.claimed_by,
                    OutboxRow.attempts,
                    OutboxRow.error,
                ).where(OutboxRow.dedupe_key.like(pattern), OutboxRow.chat_id.in_(missing))
            )
        ).all()
        alive = await uow.leases.alive("", datetime.now(UTC))
    return (
        f"missing {missing}; round {reminded.round_number} published at {when(published)}, its "
        f"reminders due at {when(reminded.due_at)}; waiting pushes {[tuple(w) for w in waiting]}; "
        f"outbox rows (chat, status, claimed by, attempts, error) {[tuple(r) for r in rows]}; "
        f"leases alive {sorted(alive)}"
    )
