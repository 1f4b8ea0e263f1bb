"""A confirmed protocol to the channel's pushes queued, on SQLite (target: p95 under 300 ms).

A cup is seated (6 rounds) and every round published; each of its games gets a complete
draft; then every confirmation is timed, in play order: each confirmation queues the result
post and the live table's edit (drawn when it is sent, like the closing posts) and schedules
the live table's refresh for its protest window's close; the last game of a round also queues
its closing post (pictures and the table as text, drawn when sent), so those are timed apart
too.

Three cases: 100 players (10 tables) all confirmed at one moment, so every protest window
closes at the same time (k = 1 closing moment); then the realistic case, the results of a
round coming in over ten minutes, so the windows of the last ten minutes are open (about one
per table: 10 and 30 open windows at 100 and 300 players). A confirmation's cost should not
grow with the open windows.

Run: .venv/bin/python bench/bench_protocol.py [--players 100 300]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bench_standings import load_average, machine

from bot.db.engine import create_engine, create_session_factory
from bot.db.migrate import upgrade
from bot.db.transactions import counting
from bot.db.uow import SqlUnitOfWorkFactory
from domain.actor import Actor
from domain.cards import Role, Side
from domain.permissions import StaffRole
from domain.protocol import FirstKill, ProtocolDraft
from domain.protocol_screen import Mode, Screen
from domain.registration import Participant, ParticipantStatus
from domain.regulation import load_preset
from domain.services.catalog import Services, build_services
from domain.tournament import Tournament, TournamentState
from domain.users import User

ORGANIZER = 1
REGULATION = "black-raven-cup"
CHANNEL = -100777
NOW = datetime(2026, 12, 20, 12, 0, tzinfo=UTC)
ROLES = [Role.CIVILIAN] * 6 + [Role.SHERIFF, Role.MAFIA, Role.MAFIA, Role.DON]
# A round's results come in over this long: the protest windows (10 minutes) of about one
# round's tables are open at each confirmation.
ROUND_SPAN = timedelta(minutes=10)


def finished(draft: ProtocolDraft, rng: random.Random) -> ProtocolDraft:
    """A complete, valid draft: roles dealt, a first-night victim who named nobody, a winner."""
    for seat, role in enumerate(rng.sample(ROLES, 10), start=1):
        draft = draft.with_seat(seat, role=role)
    victim = rng.choice([s for s in range(1, 11) if draft.seats[s - 1].role is Role.CIVILIAN])
    return replace(
        draft,
        winner=rng.choice(list(Side)),
        first_kill=FirstKill(victim, 1),
        best_move=(),
        best_move_by=victim,
    )


async def cup(uow_factory: SqlUnitOfWorkFactory, player_count: int) -> int:
    """A running cup in its qualifying stage: players registered, table judges appointed."""
    judges = range(ORGANIZER + 1, ORGANIZER + 1 + player_count // 10)
    players = range(1000, 1000 + player_count)
    async with uow_factory() as uow:
        for telegram_id in (ORGANIZER, *judges, *players):
            await uow.users.save(User(telegram_id, f"U{telegram_id}", None, None, "ru"))
        tournament = await uow.tournaments.add(
            Tournament(
                id=0,
                title="Cup",
                regulation_id=REGULATION,
                state=TournamentState.RUNNING,
                timezone="UTC",
                created_by=ORGANIZER,
                created_at=NOW,
                channel_id=CHANNEL,
                current_stage="qualifying",
            )
        )
        for judge in judges:
            await uow.staff.appoint(tournament.id, judge, StaffRole.TABLE_JUDGE)
        for user_id in players:
            await uow.participants.add(
                Participant(
                    0,
                    tournament.id,
                    user_id,
                    f"Player{user_id}",
                    "Club",
                    "City",
                    ParticipantStatus.REGISTERED,
                    NOW,
                )
            )
        await uow.commit()
    return tournament.id


async def prepare(
    uow_factory: SqlUnitOfWorkFactory, services: Services, player_count: int
) -> tuple[list[tuple[int, int]], int]:
    """The seated, published cup: every game's (id, judge) with its draft complete."""
    tournament = await cup(uow_factory, player_count)
    preview = await services.rounds_seating.start_stage(
        Actor(ORGANIZER, NOW), tournament, seed=1, swaps=200_000
    )
    for round_ in preview.stage.rounds:
        await services.rounds_publication.publish_round(
            Actor(ORGANIZER, NOW), tournament, round_.number
        )
    rng = random.Random(2026)
    games = []
    for round_ in preview.stage.rounds:
        for game in round_.games:
            assert game.judge_id is not None
            view = await services.protocols.open_protocol(Actor(game.judge_id, NOW), game.id)
            assert view.screen is not None
            screen = Screen(finished(view.screen.draft, rng), mode=Mode.SUMMARY)
            async with uow_factory() as uow:
                stored = await uow.protocols.draft(game.id)
                assert stored is not None
                await uow.protocols.save_draft(game.id, screen, stored[1], game.judge_id, NOW)
                await uow.commit()
            games.append((game.id, game.judge_id))
    return games, tournament


def _figures(timings: list[float]) -> str:
    ms = sorted(t * 1000 for t in timings)
    p95 = ms[min(len(ms) - 1, round(0.95 * len(ms)) - 1)]
    return f"p50 {statistics.median(ms):.1f} ms, p95 {p95:.1f} ms, max {ms[-1]:.1f} ms"


def _by_windows(cpus: list[float], open_windows: list[int]) -> str:
    """The CPU's median by the number of windows open (in groups of about a third of the
    largest number), to show it does not grow with them."""
    most = max(open_windows)
    if most == 0:
        return f"{open_windows.count(0)} confirmations with none open"
    width = max(1, (most + 3) // 3)
    groups: dict[int, list[float]] = {}
    for cpu, count in zip(cpus, open_windows, strict=True):
        groups.setdefault(count // width, []).append(cpu)
    return "; ".join(
        f"{group * width}-{min(most, group * width + width - 1)} open: "
        f"p50 {statistics.median(values) * 1000:.1f} ms ({len(values)})"
        for group, values in sorted(groups.items())
    )


async def run(folder: Path, player_count: int, spread: bool) -> None:
    url = f"sqlite+aiosqlite:///{folder / 'bench.sqlite3'}"
    engine = create_engine(url)
    await upgrade(engine)
    session_factory = create_session_factory(engine)
    uow_factory = SqlUnitOfWorkFactory(session_factory)
    services = build_services(uow_factory)
    games, tournament = await prepare(uow_factory, services, player_count)
    # Games come round by round: every `tables`-th confirmation completes a round.
    tables = player_count // 10
    step = ROUND_SPAN / tables if spread else timedelta(0)
    timings: list[float] = []
    cpus: list[float] = []
    closing: list[float] = []
    within: list[float] = []
    transactions: list[int] = []
    statements: list[int] = []
    # The protest windows open at each confirmation (each runs from its game's confirmation).
    window = timedelta(minutes=load_preset(REGULATION).protest_window_minutes or 0)
    confirmed_at: list[datetime] = []
    open_windows: list[int] = []
    for number, (game_id, judge_id) in enumerate(games, start=1):
        moment = NOW + step * number
        open_windows.append(sum(1 for at in confirmed_at if at + window > moment))
        confirmed_at.append(moment)
        with counting() as tally:
            start, cpu = time.perf_counter(), time.process_time()
            view = await services.protocols.confirm_protocol(Actor(judge_id, moment), game_id)
            elapsed = time.perf_counter() - start
        cpus.append(time.process_time() - cpu)
        timings.append(elapsed)
        transactions.append(tally.transactions)
        statements.append(tally.statements)
        (closing if number % tables == 0 else within).append(elapsed)
        assert view.notice == "protocol-screen-confirmed", view.refused
    standings = await build_services(uow_factory).standings.current_standings(tournament)
    last = NOW + step * len(games)
    async with uow_factory() as uow:
        queued = await uow.outbox.waiting(100_000)
        ids = [item.id for item in queued if item.chat_id == CHANNEL]
        channel = await uow.outbox.claim(ids, "bench")
        refreshes = await uow.scheduled_pushes.waiting(f"standings-refresh:{tournament}:")
    await engine.dispose()
    posts = [item.message for item in channel]
    live = sum(1 for post in posts if post.edit_key is not None)
    pictures = sum(1 for post in posts if post.attachment is not None)
    case = (
        f"results of a round over {ROUND_SPAN.seconds // 60} minutes, the last confirmation "
        f"with {sum(1 for push in refreshes.values() if push.due_at > last)} windows open"
        if spread
        else "all at one moment (k = 1 closing moment)"
    )
    print(f"== {player_count} players ({tables} tables), {len(games)} games: {case}")
    print(f"  every confirmation: {_figures(timings)} ({load_average()})")
    print(f"  CPU per confirmation (the load-independent figure): {_figures(cpus)}")
    half = len(cpus) // 2
    print(
        f"  CPU per confirmation, first half of the games {_figures(cpus[:half])}; "
        f"second half {_figures(cpus[half:])}"
    )
    by_windows = _by_windows(cpus, open_windows)
    print(f"  CPU per confirmation by the protest windows open at it: {by_windows}")
    print(f"  within a round (result and live table): {_figures(within)}")
    print(f"  the last of a round (and its closing post): {_figures(closing)}")
    print(
        f"  transactions per confirmation: {max(transactions)} at most; statements: "
        f"median {statistics.median(statements):.0f}, at most {max(statements)}"
    )
    games_counted = sum(row.figures.games for row in standings.players) // 10
    print(
        f"  standings over {games_counted} games; channel messages queued: {len(posts)} "
        f"({live} live table edits, {pictures} closing pictures); "
        f"{len(refreshes)} window refreshes scheduled"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, nargs="+", default=[100, 300])
    args = parser.parse_args()
    cases = [(100, False), *((players, True) for players in args.players)]
    for players, spread in cases:
        with tempfile.TemporaryDirectory() as folder:
            asyncio.run(run(Path(folder), players, spread))
    print("target: p95 < 300 ms, not growing with the open windows")
    print(f"machine: {machine()}")


if __name__ == "__main__":
    main()
