"""The scripted roles: what an organizer, a judge, a player and the chief judge do, each by
typing and pressing buttons in a private chat with the bot."""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from decimal import Decimal

from bot.i18n import format_points
from domain.cards import Side
from handlers.common import WORKING
from harness.fake_telegram import CallbackAnswer, ChatMessage, FakeTelegram, FakeUser
from harness.simulation.games import GamePlan
from harness.simulation.people import Cast, Player
from harness.simulation.screens import (
    WAIT,
    Predicate,
    ProtocolScreen,
    answer,
    containing,
    current,
    payload_in,
    press,
    registration_summary,
    with_button,
)

# A person's pause between two taps or messages at speed 1, in seconds: on average, for it
# varies (HUMAN_PAUSE_SPREAD either way). Thirty judges pausing exactly alike, all from the
# moment their round's message arrived, tapped in lockstep for the whole round: thirty taps
# at once every 1.5 s, which no table of people does.
HUMAN_PAUSE = 1.5
HUMAN_PAUSE_SPREAD = 0.5
# Only when each pause ends varies with it, never what anyone does.
_pauses = random.Random(0)
_TABLE = re.compile(r"судья стола (\d+)")
_SEAT = re.compile(r"^(\d+)\. (.+)$")
_TABLE_VIEW = re.compile(r"^Стол (\d+) · судья", re.MULTILINE)
_SIZE = re.compile(r"Туров: (\d+), столов в туре: (\d+)")


class SimulationError(RuntimeError):
    """The scripted people could not go on: the bot refused or did not answer a step."""


@dataclass(frozen=True)
class Pace:
    """How fast the scripted people act: `speed` 1 is a person's pace, more is faster;
    `table_speed`, when set, is the judges' own at their tables (the benchmark's judges tap at
    a person's pace while everyone else acts fast: a judge's wait for his tap's answer is then
    timed as on a real day, not as one of thirty queued without a pause)."""

    speed: float
    table_speed: float | None = None

    async def pause(self) -> None:
        spread = _pauses.uniform(1 - HUMAN_PAUSE_SPREAD, 1 + HUMAN_PAUSE_SPREAD)
        await asyncio.sleep(HUMAN_PAUSE * spread / self.speed)

    def at_table(self) -> Pace:
        """The pace of a judge's taps on his table's protocol and live game."""
        return self if self.table_speed is None else Pace(self.table_speed)


@dataclass(frozen=True)
class TableList:
    """A judge's list of his table for a round: its number and the players by seat."""

    table: int
    nicknames: tuple[str, ...]
    message: ChatMessage


def table_list(message: ChatMessage) -> TableList:
    """Read the judge's round message: "Вы судья стола T, тур N" and the seats below."""
    text = message.text or ""
    found = _TABLE.search(text)
    if found is None:
        raise SimulationError(f"not a judge's table list: {text}")
    seats = tuple(m.group(2) for line in text.splitlines() if (m := _SEAT.match(line)))
    return TableList(int(found.group(1)), seats, message)


def _refused(answered: CallbackAnswer, step: str) -> None:
    if answered.show_alert:
        raise SimulationError(f"the bot refused «{step}»: {answered.text}")


async def tap(user: FakeUser, message: ChatMessage, button: str, pace: Pace) -> ChatMessage:
    """Press a button that edits its own message; the message as it shows afterwards (once
    long work, answered at once with a "working" keyboard, has finished)."""
    await pace.pause()
    _refused(await user.press(message, button_text=button).answer(WAIT), button)
    shown = current(user, message)
    if _working(shown):
        shown = await user.wait_for(
            lambda m: m.message_id == message.message_id and not _working(m), WAIT
        )
    return shown


def _working(message: ChatMessage) -> bool:
    return any(data == WORKING for row in message.buttons for _, data in row)


# --- the organizer --------------------------------------------------------------------------


async def invite(organizer: FakeUser, card: ChatMessage, button: str, pace: Pace) -> str:
    """Press an invitation button on the card; the one-time link's payload."""
    await pace.pause()
    link = await press(organizer, card, button, "Одноразовая ссылка")
    return payload_in(link)


async def accept_invite(person: FakeUser, payload: str, expect: str, pace: Pace) -> None:
    await pace.pause()
    await answer(person, f"/start {payload}", expect)


async def move(organizer: FakeUser, card: ChatMessage, button: str, pace: Pace) -> ChatMessage:
    """A state move from the card; the new card it answers with."""
    await pace.pause()
    _refused(await organizer.press(card, button_text=button).answer(WAIT), button)
    return await organizer.wait_for(containing("Ссылка регистрации"), WAIT)


async def move_when_offered(
    organizer: FakeUser, card: ChatMessage, button: str, pace: Pace, window_minutes: int
) -> ChatMessage:
    """A move that leaves a stage: the card offers it once the stage is finished (its last
    protest window closed), so the organizer refreshes the card until it does, then moves."""
    async with asyncio.timeout(WAIT + window_minutes * 60 / pace.speed):
        while True:
            while not any(label == button for row in card.buttons for label, _ in row):
                card = await _look_again(organizer, card, pace)
            await pace.pause()
            answered = await organizer.press(card, button_text=button).answer(WAIT)
            if not answered.show_alert:
                return await organizer.wait_for(containing("Ссылка регистрации"), WAIT)
            if _WINDOW_OPEN not in (answered.text or ""):
                _refused(answered, button)
            # A correction moved the stage's last protest window later after the card had
            # offered the move: the bot says until when, and the organizer looks again.
            card = await _look_again(organizer, card, pace)


async def _look_again(organizer: FakeUser, card: ChatMessage, pace: Pace) -> ChatMessage:
    """A glance at the card every second or so, however fast the people act: refreshed."""
    await asyncio.sleep(max(1.0, HUMAN_PAUSE / pace.speed))
    await organizer.press(card, button_text="Обновить").answer(WAIT)
    return await organizer.wait_for(containing("Ссылка регистрации"), WAIT)


# The refusal of a stage move while the stage's last protest window is open (ru, the
# simulation's language).
_WINDOW_OPEN = "окно протестов"


def tournament_number(card: ChatMessage) -> int:
    """The tournament's number for /rounds: the card does not print it, its buttons carry it."""
    for row in card.buttons:
        for _, data in row:
            if data and data.startswith("tc:"):
                return int(data.split(":")[1])
    raise SimulationError("the tournament card has no refresh button")


async def seat_stage(organizer: FakeUser, tournament: int, pace: Pace) -> ChatMessage:
    """/rounds, then "Seat the stage": the stage's preview."""
    await pace.pause()
    organizer.send(f"/rounds {tournament}")
    offer = await organizer.wait_for(with_button("Составить рассадку"), WAIT)
    overview = await tap(organizer, offer, "Составить рассадку", pace)
    # The quality's first line: "Повторные встречи: ..." or, with none, "Повторных встреч нет".
    if not any(
        words in (overview.text or "") for words in ("Повторные встречи", "Повторных встреч")
    ):
        raise SimulationError(f"no seating preview: {overview.text}")
    return overview


def stage_size(overview: ChatMessage) -> tuple[int, int]:
    """Rounds and tables per round, as the stage's preview states them."""
    found = _SIZE.search(overview.text or "")
    if found is None:
        raise SimulationError(f"the preview does not state the stage's size: {overview.text}")
    return int(found.group(1)), int(found.group(2))


async def publish(
    organizer: FakeUser, overview: ChatMessage, number: int, tables: int, pace: Pace
) -> None:
    """Open round `number` from the stage's preview, read every page of its tables, and
    publish it from the round's view."""
    view = await tap(organizer, overview, f"Тур {number}", pace)
    shown = _TABLE_VIEW.findall(view.text or "")
    while forward := [label for label in _labels(view) if label.endswith("▶")]:
        view = await tap(organizer, view, forward[0], pace)
        shown += _TABLE_VIEW.findall(view.text or "")
    if [int(table) for table in shown] != list(range(1, tables + 1)):
        raise SimulationError(f"round {number}'s view shows tables {shown}, not 1..{tables}")
    await tap(organizer, view, f"Опубликовать тур {number}", pace)


def _labels(message: ChatMessage) -> list[str]:
    return [label for row in message.buttons for label, _ in row]


# --- players --------------------------------------------------------------------------------


class Turns:
    """Confirmations in the cast's order: the bot numbers players (and teams) as they come,
    and the seating follows those numbers, so the same seed needs the same order. Everything
    before the confirmation runs at once. Not `in_order` (the benchmark's burst), everyone
    confirms as soon as he has read his summary: the numbers, and so the seating, then follow
    the bot's order of handling, which differs from run to run."""

    def __init__(self, in_order: bool = True) -> None:
        self._in_order = in_order
        self._next = 0
        self._changed = asyncio.Condition()

    @contextlib.asynccontextmanager
    async def turn(self, number: int) -> AsyncIterator[None]:
        if not self._in_order:
            yield
            return
        async with self._changed:
            await self._changed.wait_for(lambda: self._next == number)
        try:
            yield
        finally:
            async with self._changed:
                self._next += 1
                self._changed.notify_all()


async def _register(
    user: FakeUser, who: Player, payload: str, turn: int, turns: Turns, pace: Pace, expect: str
) -> ChatMessage:
    await pace.pause()
    summary = await registration_summary(user, payload, who.nickname, who.club, who.city)
    async with turns.turn(turn):
        await pace.pause()
        return await press(user, summary, "Всё верно", expect)


async def register_alone(
    user: FakeUser, who: Player, payload: str, turn: int, turns: Turns, pace: Pace
) -> None:
    await _register(user, who, payload, turn, turns, pace, "Вы зарегистрированы")


async def register_team(
    users: dict[int, FakeUser], cast: Cast, team: int, payload: str, turns: Turns, pace: Pace
) -> None:
    """The captain registers and creates the team; the others join by the team's link."""
    captain, *members = cast.team_members(team)
    first = cast.players.index(captain)
    user = users[captain.telegram_id]
    await pace.pause()
    summary = await registration_summary(user, payload, *_details(captain))
    async with turns.turn(first):
        await pace.pause()
        mine = await press(user, summary, "Всё верно", "Вы зарегистрированы")
        await pace.pause()
        await press(user, mine, "Создать команду", "Название команды")
        await pace.pause()
        view = await answer(user, cast.teams[team], "Ссылка для игроков")
    link = payload_in(view)
    await asyncio.gather(
        *(
            _register(users[m.telegram_id], m, link, first + n, turns, pace, "команда:")
            for n, m in enumerate(members, start=1)
        )
    )


def _details(player: Player) -> tuple[str, str, str]:
    return player.nickname, player.club, player.city


async def check_in(player: FakeUser, pace: Pace) -> None:
    call = await player.wait_for(containing("подтвердите, что вы на месте"), WAIT)
    await pace.pause()
    await press(player, call, "Я на месте", "Отметка о прибытии принята")


# The window's end, should it close before the player's press or his reason.
PROTEST_TOO_LATE = "Время для протеста истекло"


def _either(*texts: str) -> Predicate:
    return lambda message: any(text in (message.text or "") for text in texts)


async def file_protest(player: FakeUser, reason: str, pace: Pace) -> bool:
    """Press "Protest" under the game's result and write what is wrong; False when the window
    closed first (at a fast run's speed it lasts seconds: a busy machine may miss it)."""
    offer = await player.wait_for(with_button("Протест"), WAIT)
    await pace.pause()
    answered = await player.press(offer, button_text="Протест").answer(WAIT)
    if PROTEST_TOO_LATE in (answered.text or ""):
        return False
    await player.wait_for(containing("в чём суть протеста"), WAIT)
    await pace.pause()
    player.send(reason)
    reply = await player.wait_for(_either("Протест принят", PROTEST_TOO_LATE), WAIT)
    return PROTEST_TOO_LATE not in (reply.text or "")


async def reject_protest(chief: FakeUser, decision: str, pace: Pace) -> ChatMessage:
    """The chief judge reads the protest and rejects it with a written decision."""
    card = await chief.wait_for(containing("Протест ·"), WAIT)
    await pace.pause()
    await press(chief, card, "Отклонить", "решение об отклонении")
    await pace.pause()
    return await answer(chief, decision, "Протест отклонён")


async def draw_lot(chief: FakeUser, request: ChatMessage, pace: Pace) -> str | None:
    """Open the lot screen from the bot's "lot needed" message and draw by the tournament's
    seed; the decision as the bot states it, on one line (None: an earlier draw settled it)."""
    screen = await tap(chief, request, "🎲 Открыть жребий", pace)
    if not with_button("🎲 Жребий по ключу (seed)")(screen):
        return None
    decided = await tap(chief, screen, "🎲 Жребий по ключу (seed)", pace)
    text = decided.text or ""
    if not text.startswith("Жребий брошен"):
        raise SimulationError(f"the lot was not drawn: {text}")
    return " ".join(text.splitlines()[:-1])


# --- table judges ---------------------------------------------------------------------------


async def called(judge: FakeUser) -> TableList:
    """The judge's next table list (the bot sends it when his round is published)."""
    return table_list(await judge.wait_for(with_button("Открыть протокол"), WAIT))


async def open_protocol(judge: FakeUser, listing: TableList, pace: Pace) -> ProtocolScreen:
    """The protocol the table list's button opens."""
    await pace.pause()
    opening = judge.press(listing.message, button_text="Открыть протокол")
    _refused(await opening.answer(WAIT), "open")
    shown = await judge.wait_for(containing("Протокол · тур"), WAIT)
    return ProtocolScreen(judge, shown)


async def fill_protocol(
    screen: ProtocolScreen,
    plan: GamePlan,
    pace: Pace,
    extra_step: Decimal,
    end: str | None = None,
) -> None:
    """Enter the game as planned, button by button, and confirm it; the screen moves on by
    itself where a step is complete (roles dealt, the kill, three named seats, the winner).
    `end`, a button such as "Красные: все чёрные выбыли", says how the game ended too (else
    the judge enters the winner alone)."""

    async def tap_(name: str) -> CallbackAnswer:
        await pace.pause()
        answered = await screen.tap(name)
        _refused(answered, name)
        return answered

    # The role tool passes don → sheriff → mafia; the rest become civilians, fouls come up.
    for seat in (plan.don, plan.sheriff, *plan.mafia):
        await tap_(str(seat))
    for seat, fouls in plan.fouls:
        for _ in range(fouls):
            await tap_(str(seat))
    if plan.disqualified:
        await tap_("Дисквалификация")
        for seat in plan.disqualified:
            await tap_(str(seat))
    await tap_("ПУ")
    if plan.first_kill is None:
        await tap_("Промахи — никого не убили")
    else:
        if plan.night != 1:
            await tap_(f"Ночь {plan.night}")
        await tap_(str(plan.first_kill))
    for seat in plan.best_move or ():
        await tap_(str(seat))
    if plan.extra_steps:
        for seat, steps in plan.extra_steps:
            await tap_(str(seat))
            await tap_(format_points(steps * extra_step, "ru"))
    await tap_("Победа")
    await tap_(end or ("Победа красных" if plan.winner is Side.RED else "Победа чёрных"))
    confirmed = await tap_("✅ Подтвердить протокол")
    if confirmed.text != "Протокол подтверждён.":
        raise SimulationError(f"the protocol was not confirmed: {confirmed.text}")


def people(fake: FakeTelegram, cast: Cast) -> dict[int, FakeUser]:
    """Everyone's Telegram account, by id."""
    accounts = [cast.organizer, cast.chief_judge, *cast.judges]
    users = {p.telegram_id: fake.user(p.telegram_id, p.first_name) for p in accounts}
    for player in cast.players:
        users[player.telegram_id] = fake.user(player.telegram_id, player.first_name)
    return users
