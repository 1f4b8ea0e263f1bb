"""The judge's protocol screen as a state machine: a draft, what the buttons do, and refusals.

The screen is one message: seats 1–10 as buttons, a row of modes (roles, fouls, first kill,
best move, extra points, winner, summary) and the mode's tools. Every button carries the value
it sets, never a "+1": a double tap or a press on an old copy of the keyboard sets the same
value again and changes nothing. A press that would make the protocol impossible (a second
don, an extra point over the limit...) is refused with the rules engine's reason and leaves
the draft as it was.

The judge fills it under time pressure, so the screen moves on by itself when a step is done:
the role tool passes don → sheriff → mafia as each is dealt, and with both mafia dealt the rest
become civilians and the fouls come up; the first kill leads to the best move, three named seats
(or none) to the extra points; a seat's extra points are picked from a row of values; a winner
entered with nothing missing opens the summary with its confirm button. Moving on happens only
when the press changed the draft, so a double tap never skips a step.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from enum import StrEnum

from domain.cards import ROLE_COUNTS, Role, Side
from domain.game_end import GameEnd
from domain.player_keys import PlayerKey
from domain.protocol import (
    BEST_MOVE_NAMES,
    SEATS,
    FirstKill,
    ProtocolDraft,
    ProtocolError,
    ProtocolNotReady,
    Removal,
    check_draft,
    may_make_best_move,
    missing_items,
)
from domain.regulation import Regulation

# The order of the role tools; index 0 clears a seat's role.
ROLE_TOOLS: tuple[Role | None, ...] = (None, Role.DON, Role.SHERIFF, Role.MAFIA, Role.CIVILIAN)
WINNERS: tuple[Side, ...] = (Side.RED, Side.BLACK)
# How a game may end, each with the winner it gives: a button sets both. A defeat awarded to
# black gives red the game, and the other way round.
END_CHOICES: tuple[tuple[GameEnd, Side], ...] = (
    (GameEnd.BLACK_OUT, Side.RED),
    (GameEnd.PARITY, Side.BLACK),
    (GameEnd.MISSED_NIGHTS, Side.RED),
    (GameEnd.FOUR_PLAYERS_THREE_NIGHTS, Side.RED),
    (GameEnd.AWARDED_DEFEAT, Side.RED),
    (GameEnd.AWARDED_DEFEAT, Side.BLACK),
)
# The end-time correction's buttons, in minutes from the recorded end.
END_TIME_STEPS = (-5, -1, 1, 5)
# Nights offered for the first kill; a first kill later than this is exceedingly rare.
NIGHTS = (1, 2, 3, 4)
# The roles a judge deals one by one; everyone left is a civilian.
DEALT_ROLES: tuple[Role, ...] = (Role.DON, Role.SHERIFF, Role.MAFIA)
# At most this many values in a seat's extra-points picker (Telegram shows 100 buttons).
MAX_EXTRA_VALUES = 40


class Mode(StrEnum):
    """What tapping a seat does now."""

    ROLES = "roles"
    FOULS = "fouls"
    KILL = "kill"
    BEST_MOVE = "best_move"
    EXTRA = "extra"
    WINNER = "winner"
    SUMMARY = "summary"


MODES: tuple[Mode, ...] = tuple(Mode)


class Act(StrEnum):
    """A button's meaning; short values keep callback data within Telegram's 64 bytes."""

    ROLE = "r"
    REST_CIVILIANS = "rc"
    FOULS = "f"
    DISQUALIFY = "q"
    KILL = "k"
    NO_KILL = "nk"
    BEST_MOVE = "b"
    NO_BEST_MOVE = "nb"
    EXTRA = "x"
    PICK_EXTRA = "px"
    WINNER = "w"
    MODE = "m"
    ROLE_TOOL = "rt"
    SUBTRACT = "s"
    DISQUALIFY_TOOL = "qt"
    NIGHT = "n"
    END = "e"
    # The end of the game as minutes since the Unix epoch (a value, never a shift).
    END_TIME = "t"


@dataclass(frozen=True)
class Press:
    """A pressed button: what it does, the seat it concerns (0: none) and the value it sets."""

    act: Act
    seat: int = 0
    value: int = 0


@dataclass(frozen=True)
class Screen:
    """The draft and the screen's tools: the role a seat tap sets, subtracting fouls instead of
    adding, disqualifying, the night of the first kill, the seat whose extra points are being
    picked."""

    draft: ProtocolDraft
    mode: Mode = Mode.ROLES
    role_tool: Role | None = Role.DON
    subtract: bool = False
    disqualify: bool = False
    night: int = 1
    extra_seat: int | None = None


class UnknownPress(ValueError):
    """A press no screen shows: a seat outside 1–10 or a value outside its button row (forged
    or corrupted callback data). Nothing changes; the person is told the button is stale."""


# Presses that concern one seat, and those whose value picks from a row of buttons.
_SEATED = frozenset(
    {Act.ROLE, Act.FOULS, Act.DISQUALIFY, Act.KILL, Act.BEST_MOVE, Act.EXTRA, Act.PICK_EXTRA}
)
_CHOICES: dict[Act, tuple[object, ...]] = {
    Act.ROLE: ROLE_TOOLS,
    Act.ROLE_TOOL: ROLE_TOOLS,
    Act.WINNER: WINNERS,
    Act.MODE: MODES,
    Act.END: END_CHOICES,
}
# Presses whose value is the night of the first kill itself.
_NIGHTLY = frozenset({Act.KILL, Act.NIGHT})


def _check_shape(press: Press) -> None:
    choices = _CHOICES.get(press.act)
    if (
        (press.act in _SEATED and press.seat not in SEATS)
        or (choices is not None and not 0 <= press.value < len(choices))
        or (press.act in _NIGHTLY and press.value not in NIGHTS)
        or (press.act is Act.END_TIME and press.value <= 0)
    ):
        raise UnknownPress(f"no screen shows {press}")


class PressRefused(ValueError):
    """A press the rules do not allow; `errors` say why (message ids with their arguments)."""

    def __init__(self, errors: list[ProtocolError]) -> None:
        self.errors = errors
        super().__init__("; ".join(error.code for error in errors))


def new_screen(players: tuple[PlayerKey, ...]) -> Screen:
    """The screen of a fresh protocol: the seating's players in seats 1–10, nothing else."""
    draft = ProtocolDraft()
    for seat, player in enumerate(players, start=1):
        draft = draft.with_seat(seat, player=player)
    return Screen(draft)


def seat_press(screen: Screen, seat: int, regulation: Regulation) -> Press | None:
    """What the seat's button does in the current mode (None: the seat is not pressable)."""
    draft = screen.draft
    record = draft.seats[seat - 1]
    if screen.mode is Mode.ROLES:
        role = None if record.role is screen.role_tool else screen.role_tool
        return Press(Act.ROLE, seat, ROLE_TOOLS.index(role))
    if screen.mode is Mode.FOULS:
        if screen.disqualify:
            return Press(Act.DISQUALIFY, seat, int(record.removed is not Removal.DISQUALIFIED))
        step = -1 if screen.subtract else 1
        limit = regulation.penalties.fouls_for_removal
        return Press(Act.FOULS, seat, min(max(record.fouls + step, 0), limit))
    if screen.mode is Mode.KILL:
        return Press(Act.KILL, seat, screen.night)
    if screen.mode is Mode.BEST_MOVE:
        victim = draft.first_kill.seat if draft.first_kill is not None else None
        if victim is None or victim == seat:
            return None
        return Press(Act.BEST_MOVE, seat, int(seat not in (draft.best_move or ())))
    if screen.mode is Mode.EXTRA:
        return Press(Act.PICK_EXTRA, seat, int(screen.extra_seat != seat))
    return None


def end_choices(regulation: Regulation) -> tuple[int, ...]:
    """The `END_CHOICES` a judge is offered: the ends by elimination and the regulation's own."""
    return tuple(
        index
        for index, (end, _) in enumerate(END_CHOICES)
        if not end.special or end in regulation.special_ends
    )


def end_time_presses(draft: ProtocolDraft) -> tuple[tuple[int, Press], ...]:
    """The end-time correction's buttons: each step in minutes with the end it sets (none
    before the game has ended)."""
    if draft.ended_at is None:
        return ()
    minute = int(draft.ended_at.timestamp()) // 60
    return tuple((step, Press(Act.END_TIME, value=minute + step)) for step in END_TIME_STEPS)


def end_time(press: Press) -> datetime:
    """The end of the game an `Act.END_TIME` press sets."""
    return datetime(1970, 1, 1, tzinfo=UTC) + timedelta(minutes=press.value)


def extra_values(regulation: Regulation) -> tuple[int, ...]:
    """The picker's values as whole steps: none, then the regulation's minimum to its maximum."""
    limits = regulation.extra_points
    low = max(extra_steps(limits.per_player_min, regulation), 1)
    high = min(extra_steps(limits.per_player_max, regulation), low + MAX_EXTRA_VALUES - 2)
    return (0, *range(low, high + 1))


def extra_steps(extra: Decimal, regulation: Regulation) -> int:
    """Extra points as a whole number of the regulation's steps."""
    return int(extra / regulation.extra_points.step)


def apply_press(screen: Screen, press: Press, regulation: Regulation) -> Screen:
    """The screen after a press; raises `PressRefused` if the press breaks a rule and
    `UnknownPress` if no screen shows such a button.

    Only errors the press itself brings count: a rule the draft already broke (which can only
    come from an older regulation) does not block unrelated presses.
    """
    _check_shape(press)
    changed = _pressed(screen, press, regulation)
    if changed.draft != screen.draft:
        changed = _moved_on(changed, press, regulation)
    if changed.mode is Mode.SUMMARY and screen.mode is not Mode.SUMMARY:
        _check_ready(changed.draft, regulation)
    if changed.draft != screen.draft:
        before = check_draft(screen.draft, regulation)
        new = [error for error in check_draft(changed.draft, regulation) if error not in before]
        if new:
            raise PressRefused(new)
    return changed


def _moved_on(screen: Screen, press: Press, regulation: Regulation) -> Screen:
    """The screen after a press that changed the draft: the next tool or mode once a step is
    complete (see the module's docstring)."""
    draft = screen.draft
    match press.act:
        case Act.ROLE | Act.REST_CIVILIANS if screen.role_tool is not None:
            counts = {role: 0 for role in Role}
            for record in draft.seats:
                if record.role is not None:
                    counts[record.role] += 1
            undealt = [role for role in DEALT_ROLES if counts[role] < ROLE_COUNTS[role]]
            if undealt:
                return replace(screen, role_tool=undealt[0])
            for number, record in enumerate(draft.seats, start=1):
                if record.role is None:
                    draft = draft.with_seat(number, role=Role.CIVILIAN)
            return replace(screen, draft=draft, mode=Mode.FOULS)
        case Act.KILL:
            mode = Mode.BEST_MOVE if may_make_best_move(draft, regulation) else Mode.EXTRA
            return replace(screen, mode=mode)
        case Act.NO_KILL | Act.NO_BEST_MOVE:
            return replace(screen, mode=Mode.EXTRA)
        case Act.BEST_MOVE if len(draft.best_move or ()) >= BEST_MOVE_NAMES:
            return replace(screen, mode=Mode.EXTRA)
        case Act.WINNER | Act.END if not missing_items(draft, regulation) and not check_draft(
            draft, regulation
        ):
            return replace(screen, mode=Mode.SUMMARY)
    return screen


def _check_ready(draft: ProtocolDraft, regulation: Regulation) -> None:
    try:
        draft.complete(regulation)
    except ProtocolNotReady as not_ready:
        missing = [ProtocolError(code) for code in not_ready.missing]
        raise PressRefused([*missing, *not_ready.errors]) from None


def _pressed(screen: Screen, press: Press, regulation: Regulation) -> Screen:
    draft = screen.draft
    seat = press.seat
    match press.act:
        case Act.ROLE:
            return _with_draft(screen, draft.with_seat(seat, role=ROLE_TOOLS[press.value]))
        case Act.REST_CIVILIANS:
            for number, record in enumerate(draft.seats, start=1):
                if record.role is None:
                    draft = draft.with_seat(number, role=Role.CIVILIAN)
            return _with_draft(screen, draft)
        case Act.FOULS:
            return _with_draft(screen, _with_fouls(draft, seat, press.value, regulation))
        case Act.DISQUALIFY:
            return _with_draft(screen, _with_disqualification(draft, seat, bool(press.value)))
        case Act.KILL:
            return _with_draft(screen, _with_first_kill(draft, FirstKill(seat, press.value)))
        case Act.NO_KILL:
            return _with_draft(screen, _with_first_kill(draft, FirstKill(None)))
        case Act.BEST_MOVE:
            return _with_draft(screen, _with_named(draft, seat, bool(press.value)))
        case Act.NO_BEST_MOVE:
            victim = _victim(draft)
            return _with_draft(screen, replace(draft, best_move=(), best_move_by=victim))
        case Act.EXTRA:
            extra = press.value * regulation.extra_points.step
            return replace(screen, draft=draft.with_seat(seat, extra=extra), extra_seat=None)
        case Act.PICK_EXTRA:
            return replace(screen, extra_seat=seat if press.value else None)
        case Act.WINNER:
            return _with_draft(screen, _with_winner(draft, WINNERS[press.value]))
        case Act.END:
            end, winner = END_CHOICES[press.value]
            return _with_draft(screen, replace(draft, end=end, winner=winner))
        case Act.END_TIME:
            if draft.ended_at is None:
                raise PressRefused([ProtocolError("protocol-end-time-before-end")])
            return _with_draft(screen, replace(draft, ended_at=end_time(press)))
        case Act.MODE:
            mode = MODES[press.value]
            return replace(screen, mode=mode, subtract=False, disqualify=False, extra_seat=None)
        case Act.ROLE_TOOL:
            return replace(screen, role_tool=ROLE_TOOLS[press.value])
        case Act.SUBTRACT:
            return replace(screen, subtract=bool(press.value), disqualify=False)
        case Act.DISQUALIFY_TOOL:
            return replace(screen, disqualify=bool(press.value), subtract=False)
        case Act.NIGHT:
            return replace(screen, night=press.value)
    raise ValueError(f"unknown press {press}")


def _with_draft(screen: Screen, draft: ProtocolDraft) -> Screen:
    return replace(screen, draft=draft)


def _with_winner(draft: ProtocolDraft, winner: Side) -> ProtocolDraft:
    """The winner entered: the recorded end stays if it gives him the game, else how the
    game ended is left unsaid (the judge said only who won; pressing the same winner again
    changes nothing)."""
    if draft.winner is winner:
        return draft
    end = draft.end if draft.end is not None and draft.end.winner is winner else None
    return replace(draft, winner=winner, end=end)


def _victim(draft: ProtocolDraft) -> int | None:
    return draft.first_kill.seat if draft.first_kill is not None else None


def _with_fouls(
    draft: ProtocolDraft, seat: int, fouls: int, regulation: Regulation
) -> ProtocolDraft:
    limit = regulation.penalties.fouls_for_removal
    removed = draft.seats[seat - 1].removed
    # The 4th foul removes the player; taking it back lets him stay. A disqualification stays.
    if fouls >= limit and removed is None:
        removed = Removal.FOULS
    elif fouls < limit and removed is Removal.FOULS:
        removed = None
    return draft.with_seat(seat, fouls=fouls, removed=removed)


def _with_disqualification(draft: ProtocolDraft, seat: int, disqualified: bool) -> ProtocolDraft:
    if disqualified:
        return draft.with_seat(seat, removed=Removal.DISQUALIFIED)
    if draft.seats[seat - 1].removed is Removal.DISQUALIFIED:
        return draft.with_seat(seat, removed=None)
    return draft


def _with_first_kill(draft: ProtocolDraft, kill: FirstKill) -> ProtocolDraft:
    if draft.first_kill == kill:
        return draft
    # The best move belonged to the previous victim: it is entered again for the new one.
    return replace(draft, first_kill=kill, best_move=None, best_move_by=None)


def _with_named(draft: ProtocolDraft, seat: int, named: bool) -> ProtocolDraft:
    victim = _victim(draft)
    if victim is None:
        raise PressRefused([ProtocolError("protocol-best-move-without-victim")])
    seats = [s for s in (draft.best_move or ()) if s != seat]
    if named:
        seats.append(seat)
    return replace(draft, best_move=tuple(seats), best_move_by=victim)
