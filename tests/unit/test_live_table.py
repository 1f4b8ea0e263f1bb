"""What the live game's pages show (domain/live_table.py): the roles and anything that tells
them hidden from spectators until the game ends, shown on a stream, a delayed stream showing
the table as it was, the speech timer from the log's moments."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from domain.cards import Role, Side
from domain.game_log import Check, Entry, Phase, Proceed, Shoot, replay
from domain.live_table import Stage, StreamLink, as_of, live_table, next_change
from domain.regulation import load_preset
from harness.simulation.games import GamePlan
from harness.simulation.live_game import live_actions

CUP = load_preset("black-raven-cup")
PLAN = GamePlan(
    don=10,
    sheriff=7,
    mafia=(8, 9),
    fouls=((2, 2),),
    disqualified=(),
    first_kill=1,
    night=1,
    best_move=(8, 9, 10),
    extra_steps=((3, 3),),
    winner=Side.RED,
)
START = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)
NAMES = tuple(f"Игрок {seat}" for seat in range(1, 11))


def _entries(count: int | None = None) -> list[Entry]:
    actions = live_actions(PLAN, CUP)[:count]
    return [Entry(action, START + timedelta(seconds=10 * i), 1) for i, action in enumerate(actions)]


def _until(phase: Phase) -> list[Entry]:
    """The log up to the first moment the game is in `phase`."""
    entries = _entries()
    for count in range(len(entries) + 1):
        if replay((e.action for e in entries[:count]), CUP).phase is phase:
            return entries[:count]
    raise AssertionError(phase)


def test_a_game_not_started_shows_the_seats_and_nothing_else() -> None:
    table = live_table([], CUP, NAMES, now=START)
    assert table.stage is Stage.NOT_STARTED
    assert [seat.nickname for seat in table.seats] == list(NAMES)
    assert table.timer is None and not table.roles_shown


def test_spectators_never_see_a_role_or_a_check_while_the_game_runs() -> None:
    whole = _entries()
    for count in range(len(whole)):
        entries = whole[:count]
        table = live_table(entries, CUP, NAMES, now=START + timedelta(hours=1))
        state = replay((e.action for e in entries), CUP)
        if state.phase is Phase.FINISHED:
            break
        assert all(seat.role is None for seat in table.seats), count
        assert table.checks == () and table.winner is None and not table.roles_shown
        # The night's secret steps look like nightfall: no shot, no check, no timer.
        if state.phase in (Phase.DON_CHECK, Phase.SHERIFF_CHECK):
            assert table.stage is Stage.NIGHT and table.timer is None
            assert table.nights == () or table.nights[-1].night < state.night
            shot = max(i for i, e in enumerate(entries) if isinstance(e.action, Shoot))
            nightfall = replay((e.action for e in entries[:shot]), CUP)
            assert tuple(seat.exit for seat in table.seats) == nightfall.exits


def test_the_night_steps_send_no_change_to_spectators() -> None:
    at_shot = _until(Phase.SHOT)
    later = START + timedelta(hours=1)
    digests = set()
    entries = _entries()
    for count in range(len(at_shot), len(entries)):
        state = replay((e.action for e in entries[:count]), CUP)
        if state.phase not in (Phase.SHOT, Phase.DON_CHECK, Phase.SHERIFF_CHECK):
            break
        digests.add(live_table(entries[:count], CUP, NAMES, now=later).digest)
    assert len(digests) == 1


def test_the_end_shows_the_roles_checks_and_winner_to_everyone() -> None:
    table = live_table(_entries(), CUP, NAMES, now=START + timedelta(hours=1))
    assert table.stage is Stage.FINISHED and table.roles_shown
    assert table.seats[9].role is Role.DON and table.seats[6].role is Role.SHERIFF
    assert table.winner is Side.RED
    assert table.nights[0].night == 1 and table.nights[0].shot == 1


def test_a_stream_shows_the_roles_and_the_checks_with_their_results() -> None:
    entries = _until(Phase.SHERIFF_CHECK)
    entries.append(Entry(Check(10), entries[-1].at + timedelta(seconds=5), 1))
    table = live_table(entries, CUP, NAMES, now=START + timedelta(hours=1), reveal=True)
    assert table.seats[7].role is Role.MAFIA
    (check,) = table.checks
    assert check.by is Role.SHERIFF and check.seat == 10 and check.found is True
    assert table.nights[-1].shot == 1


def test_a_delayed_stream_shows_the_table_as_it_was() -> None:
    entries = _entries()
    delay = timedelta(seconds=60)
    # Five actions recorded by START + 40 s: a minute later the stream shows those five.
    now = START + timedelta(seconds=100)
    assert as_of(entries, now - delay) == tuple(entries[:5])
    delayed = live_table(entries, CUP, NAMES, now=now, delay=delay, reveal=True)
    direct = live_table(entries[:5], CUP, NAMES, now=now - delay, reveal=True)
    assert delayed == direct
    # The next one shows when its moment plus the delay comes.
    assert next_change(entries, now - delay) == entries[5].at
    assert live_table(entries, CUP, NAMES, now=START, delay=delay).stage is Stage.NOT_STARTED
    # Without a delay, every stored action shows, even one whose moment is ahead of `now`.
    assert live_table(entries[:3], CUP, NAMES, now=START).stage is not Stage.NOT_STARTED


def test_the_timer_counts_the_current_speech_from_its_start() -> None:
    entries = _until(Phase.SPEECHES)
    began = entries[-1].at
    table = live_table(entries, CUP, NAMES, now=began + timedelta(seconds=25))
    assert table.stage is Stage.SPEECHES and table.speaker == 1
    assert table.timer is not None and table.timer.started_at == began
    assert table.timer.left(began + timedelta(seconds=25)) == CUP.game.speech_seconds - 25
    assert table.timer.left(began + timedelta(hours=1)) == 0
    # The next speaker's time starts with his speech.
    entries.append(Entry(Proceed(), began + timedelta(seconds=50), 1))
    table = live_table(entries, CUP, NAMES, now=began + timedelta(seconds=50))
    assert table.speaker == 2 and table.timer is not None
    assert table.timer.left(began + timedelta(seconds=50)) == CUP.game.speech_seconds


def test_a_miss_is_a_night_without_a_kill() -> None:
    entries = _until(Phase.SHOT)
    entries.append(Entry(Shoot(None), entries[-1].at + timedelta(seconds=5), 1))
    table = live_table(entries, CUP, NAMES, now=START + timedelta(hours=1), reveal=True)
    assert table.nights[-1].shot is None


def test_a_stream_link_opens_with_its_token_unless_revoked() -> None:
    link = StreamLink(5, "secret-token")
    assert link.opens("secret-token") and not link.opens("other") and not link.opens("")
    assert link.delay == timedelta(seconds=60)
    assert not StreamLink(5, "secret-token", revoked=True).opens("secret-token")
