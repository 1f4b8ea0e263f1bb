"""The protocol screen's state machine: presses set values, impossible presses are refused."""

from __future__ import annotations

import contextlib
from dataclasses import replace
from datetime import UTC, datetime
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.cards import Role, Side
from domain.game_end import GameEnd
from domain.protocol import Removal
from domain.protocol_screen import (
    END_CHOICES,
    MODES,
    ROLE_TOOLS,
    WINNERS,
    Act,
    Mode,
    Press,
    PressRefused,
    Screen,
    UnknownPress,
    apply_press,
    end_choices,
    end_time_presses,
    extra_values,
    new_screen,
    seat_press,
)
from domain.regulation import load_preset

CUP = load_preset("black-raven-cup")
TEAMS = load_preset("siberia-ural-teams")


def fresh() -> Screen:
    return new_screen(tuple(f"p{seat}" for seat in range(1, 11)))


def press(screen: Screen, *presses: Press, regulation=CUP) -> Screen:  # type: ignore[no-untyped-def]
    for item in presses:
        screen = apply_press(screen, item, regulation)
    return screen


def to_mode(mode: Mode) -> Press:
    return Press(Act.MODE, value=MODES.index(mode))


def tap(screen: Screen, seat: int, regulation=CUP) -> Screen:  # type: ignore[no-untyped-def]
    pressed = seat_press(screen, seat, regulation)
    assert pressed is not None
    return apply_press(screen, pressed, regulation)


def classic_roles(screen: Screen) -> Screen:
    """Don 10, sheriff 7, mafia 8 and 9, the rest civilians."""
    for role, seats in ((Role.DON, [10]), (Role.SHERIFF, [7]), (Role.MAFIA, [8, 9])):
        screen = press(screen, Press(Act.ROLE_TOOL, value=ROLE_TOOLS.index(role)))
        for seat in seats:
            screen = tap(screen, seat)
    return press(screen, Press(Act.REST_CIVILIANS))


def give_extra(screen: Screen, seat: int, steps: int, regulation=CUP) -> Screen:  # type: ignore[no-untyped-def]
    """Tap the seat in the extra-points mode, then the value in its picker."""
    screen = press(screen, to_mode(Mode.EXTRA), regulation=regulation)
    picking = tap(screen, seat, regulation)
    assert picking.extra_seat == seat and picking.draft == screen.draft
    return press(picking, Press(Act.EXTRA, seat, steps), regulation=regulation)


@pytest.mark.parametrize("mode", [Mode.ROLES, Mode.FOULS, Mode.KILL, Mode.EXTRA])
def test_a_double_tap_sets_the_same_value_twice(mode: Mode) -> None:
    screen = press(fresh(), to_mode(mode))
    button = seat_press(screen, 4, CUP)
    assert button is not None
    if mode is Mode.EXTRA:  # the seat opens its picker; the value sets the points
        screen = apply_press(screen, button, CUP)
        button = Press(Act.EXTRA, 4, 2)
    once = apply_press(screen, button, CUP)
    assert once.draft != screen.draft
    assert apply_press(once, button, CUP) == once


def test_the_screen_moves_on_by_itself_when_a_step_is_complete() -> None:
    screen = fresh()
    for seat, tool_after in ((10, Role.SHERIFF), (7, Role.MAFIA), (8, Role.MAFIA)):
        screen = tap(screen, seat)
        assert (screen.mode, screen.role_tool) == (Mode.ROLES, tool_after)
    dealt = tap(screen, 9)
    # Both mafia dealt: everyone left is a civilian and the fouls come up.
    assert dealt.mode is Mode.FOULS
    assert [seat.role for seat in dealt.draft.seats] == [Role.CIVILIAN] * 6 + [
        Role.SHERIFF,
        Role.MAFIA,
        Role.MAFIA,
        Role.DON,
    ]
    # The same press again (a double tap, an old keyboard) changes nothing and skips nothing.
    assert apply_press(dealt, Press(Act.ROLE, 9, ROLE_TOOLS.index(Role.MAFIA)), CUP) == dealt
    killed = tap(press(dealt, to_mode(Mode.KILL)), 1)
    assert killed.mode is Mode.BEST_MOVE
    named = tap(tap(killed, 8), 9)
    assert named.mode is Mode.BEST_MOVE
    named = tap(named, 10)
    assert named.mode is Mode.EXTRA
    won = press(named, Press(Act.WINNER, value=0))
    assert won.mode is Mode.SUMMARY and won.draft.complete(CUP).winner is Side.RED


def test_a_miss_or_a_victim_without_a_best_move_leads_to_the_extra_points() -> None:
    missed = press(classic_roles(fresh()), to_mode(Mode.KILL), Press(Act.NO_KILL))
    assert missed.mode is Mode.EXTRA
    second_night = press(classic_roles(fresh()), to_mode(Mode.KILL), Press(Act.NIGHT, value=2))
    assert tap(second_night, 1).mode is Mode.EXTRA
    # A winner with something still missing stays where it was entered.
    early = press(fresh(), to_mode(Mode.WINNER), Press(Act.WINNER, value=1))
    assert early.mode is Mode.WINNER


def test_the_extra_points_picker_offers_none_and_the_regulations_values() -> None:
    assert extra_values(CUP) == (0, 1, 2, 3, 4, 5)  # 0, 0.1 … 0.5
    assert extra_values(TEAMS) == (0, 1, 2)  # 0, 0.5, 1
    screen = give_extra(fresh(), 3, 4)
    assert (screen.draft.seats[2].extra, screen.extra_seat) == (Decimal("0.4"), None)
    assert give_extra(screen, 3, 0).draft.seats[2].extra == 0


def test_a_second_don_is_refused_with_the_reason_and_changes_nothing() -> None:
    screen = press(tap(fresh(), 10), Press(Act.ROLE_TOOL, value=ROLE_TOOLS.index(Role.DON)))
    with pytest.raises(PressRefused) as refused:
        tap(screen, 3)
    assert [error.code for error in refused.value.errors] == ["protocol-role-count"]
    assert refused.value.errors[0].args["role"] == "don"


def test_the_fourth_foul_removes_and_taking_it_back_lets_the_player_stay() -> None:
    screen = press(fresh(), to_mode(Mode.FOULS))
    for _ in range(4):
        screen = tap(screen, 2)
    assert (screen.draft.seats[1].fouls, screen.draft.seats[1].removed) == (4, Removal.FOULS)
    assert tap(screen, 2).draft.seats[1].fouls == 4  # the limit: a fifth tap changes nothing
    back = tap(press(screen, Press(Act.SUBTRACT, value=1)), 2)
    assert (back.draft.seats[1].fouls, back.draft.seats[1].removed) == (3, None)


def test_a_disqualification_can_be_taken_back_but_not_given_after_the_fourth_foul() -> None:
    screen = press(fresh(), to_mode(Mode.FOULS))
    screen = tap(tap(screen, 5), 5)
    screen = press(screen, Press(Act.DISQUALIFY_TOOL, value=1))
    screen = tap(screen, 5)
    assert screen.draft.seats[4].removed is Removal.DISQUALIFIED
    assert tap(screen, 5).draft.seats[4].removed is None
    for _ in range(4):
        screen = tap(press(screen, Press(Act.SUBTRACT, value=0)), 6)
    with pytest.raises(PressRefused) as refused:
        tap(press(screen, Press(Act.DISQUALIFY_TOOL, value=1)), 6)
    assert refused.value.errors[0].code == "protocol-fouls-need-removal"


def test_a_new_first_victim_clears_the_previous_victims_best_move() -> None:
    screen = press(classic_roles(fresh()), to_mode(Mode.KILL))
    screen = press(tap(screen, 1), to_mode(Mode.BEST_MOVE))
    screen = tap(tap(screen, 8), 9)
    assert screen.draft.best_move == (8, 9)
    assert seat_press(screen, 1, CUP) is None  # the victim cannot name himself
    moved = tap(press(screen, to_mode(Mode.KILL)), 2)
    assert moved.draft.first_kill is not None and moved.draft.first_kill.seat == 2
    assert moved.draft.best_move is None


def test_a_best_move_needs_a_victim_and_names_at_most_three() -> None:
    with pytest.raises(PressRefused) as refused:
        press(fresh(), Press(Act.BEST_MOVE, seat=3, value=1))
    assert refused.value.errors[0].code == "protocol-best-move-without-victim"
    screen = press(classic_roles(fresh()), to_mode(Mode.KILL))
    screen = press(tap(screen, 1), to_mode(Mode.BEST_MOVE))
    for seat in (8, 9, 10):
        screen = tap(screen, seat)
    with pytest.raises(PressRefused) as refused:  # a fourth name from an older keyboard
        press(screen, Press(Act.BEST_MOVE, seat=2, value=1))
    assert refused.value.errors[0].code == "protocol-best-move-size"


def test_a_second_night_victim_makes_no_best_move_where_the_cup_says_so() -> None:
    screen = press(classic_roles(fresh()), to_mode(Mode.KILL), Press(Act.NIGHT, value=2))
    screen = press(tap(screen, 1), to_mode(Mode.BEST_MOVE))
    with pytest.raises(PressRefused) as refused:
        tap(screen, 8)
    assert refused.value.errors[0].code == "protocol-best-move-not-first-night"


def test_extra_points_over_the_limits_are_refused() -> None:
    screen = give_extra(fresh(), 1, 5)
    assert screen.draft.seats[0].extra == Decimal("0.5")
    with pytest.raises(PressRefused) as refused:
        give_extra(screen, 1, 6)  # a value from a forged button
    assert refused.value.errors[0].code == "protocol-extra-above-max"
    screen = give_extra(screen, 2, 5)
    with pytest.raises(PressRefused) as refused:
        give_extra(screen, 3, 1)
    assert refused.value.errors[0].code == "protocol-extra-total"


def test_the_first_victim_gets_no_extra_points_in_the_team_tournament() -> None:
    screen = press(fresh(), to_mode(Mode.KILL), regulation=TEAMS)
    screen = tap(screen, 4, TEAMS)
    with pytest.raises(PressRefused) as refused:
        give_extra(screen, 4, 1, TEAMS)
    assert refused.value.errors[0].code == "protocol-extra-first-killed"
    assert give_extra(screen, 5, 1, TEAMS).draft.seats[4].extra == Decimal("0.5")


def test_the_summary_opens_only_when_nothing_is_missing() -> None:
    with pytest.raises(PressRefused) as refused:
        press(fresh(), to_mode(Mode.SUMMARY))
    assert "protocol-missing-winner" in [error.code for error in refused.value.errors]
    screen = press(
        classic_roles(fresh()),
        Press(Act.NO_KILL),
        Press(Act.WINNER, value=1),
        to_mode(Mode.SUMMARY),
    )
    assert screen.mode is Mode.SUMMARY
    assert screen.draft.complete(CUP).winner is Side.BLACK


@given(
    act=st.sampled_from(list(Act)),
    seat=st.integers(0, 12) | st.integers(0, 2**31 - 1),
    value=st.integers(0, 12) | st.integers(0, 2**31 - 1),
)
def test_a_forged_press_is_refused_or_unknown_and_never_crashes(
    act: Act, seat: int, value: int
) -> None:
    # Callback data is the client's to forge: every press either applies, breaks a rule
    # (PressRefused) or is one no screen shows (UnknownPress, answered "out of date").
    with contextlib.suppress(PressRefused, UnknownPress):
        apply_press(fresh(), Press(act, seat, value), CUP)


def test_a_winner_entered_alone_claims_no_end_and_keeps_a_special_one() -> None:
    screen = press(classic_roles(fresh()), Press(Act.NO_KILL), to_mode(Mode.WINNER))
    red = press(screen, Press(Act.WINNER, value=WINNERS.index(Side.RED)))
    # The judge said who won, not how: nothing says "every black player left".
    assert (red.draft.winner, red.draft.end) == (Side.RED, None)
    missed = END_CHOICES.index((GameEnd.MISSED_NIGHTS, Side.RED))
    three_misses = press(screen, Press(Act.END, value=missed))
    assert (three_misses.draft.winner, three_misses.draft.end) == (
        Side.RED,
        GameEnd.MISSED_NIGHTS,
    )
    assert three_misses.mode is Mode.SUMMARY
    # Red pressed again (a double tap, an old keyboard) keeps the three misses; black's win
    # drops them, and says no end of its own.
    again = press(three_misses, to_mode(Mode.WINNER), Press(Act.WINNER, value=0))
    assert again.draft.end is GameEnd.MISSED_NIGHTS
    black = press(again, Press(Act.WINNER, value=WINNERS.index(Side.BLACK)))
    assert (black.draft.winner, black.draft.end) == (Side.BLACK, None)


def test_a_defeat_awarded_to_black_gives_red_the_game() -> None:
    screen = press(classic_roles(fresh()), Press(Act.NO_KILL), to_mode(Mode.WINNER))
    awarded = END_CHOICES.index((GameEnd.AWARDED_DEFEAT, Side.RED))
    done = press(screen, Press(Act.END, value=awarded)).draft.complete(CUP)
    assert (done.winner, done.end) == (Side.RED, GameEnd.AWARDED_DEFEAT)


def test_the_judge_is_offered_only_the_ends_of_the_regulation() -> None:
    def offered(regulation) -> set[GameEnd]:  # type: ignore[no-untyped-def]
        return {END_CHOICES[index][0] for index in end_choices(regulation)}

    assert offered(CUP) == {
        GameEnd.BLACK_OUT,
        GameEnd.PARITY,
        GameEnd.MISSED_NIGHTS,
        GameEnd.AWARDED_DEFEAT,
    }
    assert offered(TEAMS) == {GameEnd.BLACK_OUT, GameEnd.PARITY, GameEnd.FOUR_PLAYERS_THREE_NIGHTS}
    # A press on an end the regulation lacks (an old keyboard, forged data) is refused.
    missed = END_CHOICES.index((GameEnd.MISSED_NIGHTS, Side.RED))
    with pytest.raises(PressRefused) as refused:
        press(fresh(), Press(Act.END, value=missed), regulation=TEAMS)
    assert [error.code for error in refused.value.errors] == ["protocol-end-not-allowed"]


def test_the_end_of_the_game_is_corrected_by_values_not_shifts() -> None:
    ended = datetime(2026, 12, 1, 14, 32, 40, tzinfo=UTC)
    screen = replace(fresh(), draft=replace(fresh().draft, winner=Side.RED, ended_at=ended))
    steps = dict(end_time_presses(screen.draft))
    assert sorted(steps) == [-5, -1, 1, 5]
    earlier = apply_press(screen, steps[-5], CUP)
    assert earlier.draft.ended_at == datetime(2026, 12, 1, 14, 27, tzinfo=UTC)
    # The same button again sets the same moment: a double tap never moves it twice.
    assert apply_press(earlier, steps[-5], CUP) == earlier
    assert end_time_presses(fresh().draft) == ()
    with pytest.raises(PressRefused) as refused:
        apply_press(fresh(), steps[1], CUP)
    assert [error.code for error in refused.value.errors] == ["protocol-end-time-before-end"]
