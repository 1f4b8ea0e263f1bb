"""The live game at the table, as the judge follows it in the Mini App: a log of actions.

The log is the record (roles dealt, every speech, nomination, vote, shot, check, foul and the
end); the state of the game is what `replay` makes of it under the regulation in force, so a
game reopened after a reload or on another device is exactly where it was, and undoing is
dropping the last action. An action the rules do not allow now is refused with a
`GameLogRefused` whose `code` is a Fluent message id (bot/locales/*/miniapp.ftl) and changes
nothing.

The game runs in the regulation's order: the introduction night (the black team's meeting,
the sheriff), then each day the speeches from the right seat (day 1 from seat 1, each next day
from the seat after the previous day's first speaker), the nominations, the vote (the split
vote and the all-or-nobody vote where the regulation has them), the last words, then the night:
the shot or a miss, the don's and the sheriff's checks, the first victim's best move and his
last word. Fouls come at any moment with their consequences (the regulation's third foul takes
the next speech; the fourth, or a disqualification, removes the player and there is no vote that
day). The end is detected from the record (all black out, black equal to red, black missing
three nights in a row, four players and three nights without a kill) and offered; the judge
confirms it or ends the game otherwise with a reason.

The protocol is never scored here: `to_draft` turns the log into the `ProtocolDraft` that the
inline protocol screen fills, and the same rules engine (`domain.protocol`) validates and
`domain.scoring` scores it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import MISSING, dataclass, fields, replace
from datetime import datetime
from decimal import Decimal
from enum import StrEnum
from typing import Any, ClassVar, TypeAlias

from domain.cards import ROLE_COUNTS, Role, Side
from domain.game_end import GameEnd
from domain.protocol import (
    SEATS,
    FirstKill,
    ProtocolDraft,
    ProtocolError,
    Removal,
    SeatDraft,
    check_draft,
)
from domain.regulation import Regulation


class Phase(StrEnum):
    """Where the game is: what the judge's next tap means."""

    INTRODUCTION = "introduction"
    SPEECHES = "speeches"
    VOTING = "voting"
    SPLIT_SPEECHES = "split_speeches"
    REVOTE = "revote"
    ALL_OR_NOBODY = "all_or_nobody"
    LAST_WORDS = "last_words"
    SHOT = "shot"
    DON_CHECK = "don_check"
    SHERIFF_CHECK = "sheriff_check"
    BEST_MOVE = "best_move"
    MORNING_LAST_WORD = "morning_last_word"
    # The end was detected from the record: the judge confirms it or ends the game otherwise.
    END_DETECTED = "end_detected"
    FINISHED = "finished"


class Exit(StrEnum):
    """How a player left the table."""

    VOTED = "voted"
    KILLED = "killed"
    FOULS = "fouls"
    DISQUALIFIED = "disqualified"


# --- actions -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Action:
    """One tap of the judge, as stored in the log."""

    kind: ClassVar[str]


@dataclass(frozen=True)
class DealRoles(Action):
    """The roles dealt, seat 1 to 10 (None: not entered); at the start or at the end."""

    kind: ClassVar[str] = "roles"
    roles: tuple[Role | None, ...]


@dataclass(frozen=True)
class Proceed(Action):
    """Go on: the introduction is over, a speech or last word ends, a check is skipped."""

    kind: ClassVar[str] = "next"


@dataclass(frozen=True)
class Nominate(Action):
    """The speaker `by` puts `target` to the vote."""

    kind: ClassVar[str] = "nominate"
    by: int
    target: int


@dataclass(frozen=True)
class Withdraw(Action):
    """The player `by` takes his nomination back (where the regulation allows it)."""

    kind: ClassVar[str] = "withdraw"
    by: int


@dataclass(frozen=True)
class CastVotes(Action):
    """The votes per candidate, in the order they are voted on."""

    kind: ClassVar[str] = "votes"
    counts: tuple[int, ...]


@dataclass(frozen=True)
class AllOrNobody(Action):
    """How many players voted for all the tied candidates leaving."""

    kind: ClassVar[str] = "all_or_nobody"
    votes: int


@dataclass(frozen=True)
class Shoot(Action):
    """The night's shot: the seat killed, or None for a miss."""

    kind: ClassVar[str] = "shot"
    target: int | None


@dataclass(frozen=True)
class Check(Action):
    """The don's or the sheriff's check of a seat (by the phase)."""

    kind: ClassVar[str] = "check"
    seat: int


@dataclass(frozen=True)
class NameBestMove(Action):
    """The first victim's best move: the seats he names as black."""

    kind: ClassVar[str] = "best_move"
    seats: tuple[int, ...]


@dataclass(frozen=True)
class Foul(Action):
    """A foul to a seat, at any moment."""

    kind: ClassVar[str] = "foul"
    seat: int


@dataclass(frozen=True)
class Disqualify(Action):
    """A disqualifying foul: the player leaves the game."""

    kind: ClassVar[str] = "disqualify"
    seat: int


@dataclass(frozen=True)
class Finish(Action):
    """The judge ends the game: the detected end confirmed, or otherwise with his reason (a
    special end the regulation names, e.g. a defeat awarded, 9.1, or none recorded)."""

    kind: ClassVar[str] = "finish"
    winner: Side
    end: GameEnd | None
    comment: str = ""


@dataclass(frozen=True)
class Extra(Action):
    """Extra points to a seat at the end (0 takes them back), with the judge's comment."""

    kind: ClassVar[str] = "extra"
    seat: int
    points: Decimal
    comment: str = ""


ACTIONS: Mapping[str, type[Action]] = {
    cls.kind: cls
    for cls in (
        DealRoles,
        Proceed,
        Nominate,
        Withdraw,
        CastVotes,
        AllOrNobody,
        Shoot,
        Check,
        NameBestMove,
        Foul,
        Disqualify,
        Finish,
        Extra,
    )
}


@dataclass(frozen=True)
class Entry:
    """An action in the log: what the judge did, when, and who (the table's or chief judge)."""

    action: Action
    at: datetime
    by: int


def entry_to_dict(entry: Entry) -> dict[str, Any]:
    """A log entry as JSON data (the stored log, the tournament file)."""
    return {**action_to_dict(entry.action), "at": entry.at.isoformat(), "judge": entry.by}


def entry_from_dict(data: Mapping[str, Any]) -> Entry:
    """A log entry from JSON data; GameLogRefused if it is not one."""
    try:
        at = datetime.fromisoformat(data["at"])
        by = _seat(data["judge"])
    except (KeyError, TypeError, ValueError):
        raise GameLogRefused("game-log-bad-action") from None
    return Entry(action_from_dict(data), at, by)


class GameLogRefused(ValueError):
    """An action the rules do not allow now: `code` is a Fluent message id."""

    def __init__(self, code: str, **args: object) -> None:
        self.code = code
        self.args_ = args
        super().__init__(f"{code} {args}" if args else code)


def action_to_dict(action: Action) -> dict[str, Any]:
    """An action as JSON data: its kind and its fields."""
    data: dict[str, Any] = {"kind": action.kind}
    for item in fields(action):
        value = getattr(action, item.name)
        if isinstance(value, Decimal):
            value = str(value)
        elif isinstance(value, tuple):
            value = [None if v is None else str(v) if isinstance(v, Role) else v for v in value]
        elif isinstance(value, StrEnum):
            value = value.value
        data[item.name] = value
    return data


def action_from_dict(data: Mapping[str, Any]) -> Action:
    """An action from JSON data (the API's or the log's); GameLogRefused if it is not one."""
    try:
        cls = ACTIONS[data["kind"]]
        # A field with a default (a comment) may be left out.
        values = {
            item.name: data[item.name]
            if item.default is MISSING
            else data.get(item.name, item.default)
            for item in fields(cls)
        }
        return _typed(cls, values)
    except (KeyError, TypeError, ValueError, ArithmeticError):
        raise GameLogRefused("game-log-bad-action") from None


def _seat(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(value)
    return value


def _typed(cls: type[Action], values: dict[str, Any]) -> Action:
    if cls is DealRoles:
        roles = values["roles"]
        if not isinstance(roles, list):
            raise TypeError(roles)
        return DealRoles(tuple(None if r is None else Role(r) for r in roles))
    if cls is CastVotes:
        return CastVotes(tuple(_seat(v) for v in values["counts"]))
    if cls is NameBestMove:
        return NameBestMove(tuple(_seat(v) for v in values["seats"]))
    if cls is Shoot:
        target = values["target"]
        return Shoot(None if target is None else _seat(target))
    if cls is Finish:
        comment = values["comment"]
        if not isinstance(comment, str):
            raise TypeError(comment)
        end = values["end"]
        return Finish(Side(values["winner"]), None if end is None else GameEnd(end), comment[:500])
    if cls is Extra:
        points = Decimal(str(values["points"]))
        if not points.is_finite():
            raise ValueError(points)
        comment = values["comment"]
        if not isinstance(comment, str):
            raise TypeError(comment)
        return Extra(_seat(values["seat"]), points, comment.strip()[:500])
    return cls(**{name: _seat(value) for name, value in values.items()})


# --- the state -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Nomination:
    """Who put whom to the vote."""

    by: int
    target: int


@dataclass(frozen=True)
class CheckRecord:
    """A night's check: by the don (looking for the sheriff) or by the sheriff."""

    night: int
    by: Role
    seat: int


@dataclass(frozen=True)
class FoulRecord:
    """A foul with the phase it was given in."""

    seat: int
    day: int
    phase: Phase
    disqualifying: bool = False


@dataclass(frozen=True)
class VoteRecord:
    """One vote of a day: the candidates and their counts (or the all-or-nobody vote)."""

    day: int
    candidates: tuple[int, ...]
    counts: tuple[int, ...]
    all_or_nobody: bool = False


@dataclass(frozen=True)
class LiveGame:
    """The game as the log makes it (see `replay`)."""

    roles: tuple[Role | None, ...] = (None,) * 10
    fouls: tuple[int, ...] = (0,) * 10
    exits: tuple[Exit | None, ...] = (None,) * 10
    phase: Phase = Phase.INTRODUCTION
    # Day n is followed by night n; the introduction night is night 0.
    day: int = 0
    night: int = 0
    first_speaker: int = 0
    # Today's speakers in order and who speaks now (an index into it).
    order: tuple[int, ...] = ()
    position: int = 0
    # The current speaker lost this speech to his fouls (he may still nominate).
    silent: bool = False
    silenced: frozenset[int] = frozenset()
    nominations: tuple[Nomination, ...] = ()
    no_vote: bool = False
    # The candidates of the current vote (all nominees, then the tied ones).
    candidates: tuple[int, ...] = ()
    # Who leaves after the vote or the night and gives a last word now.
    leaving: tuple[int, ...] = ()
    shot: int | None = None
    misses_in_row: int = 0
    four_players_quiet_nights: int = 0
    first_killed: int | None = None
    first_killed_night: int | None = None
    best_move: tuple[int, ...] | None = None
    checks: tuple[CheckRecord, ...] = ()
    foul_log: tuple[FoulRecord, ...] = ()
    votes: tuple[VoteRecord, ...] = ()
    detected: GameEnd | None = None
    winner: Side | None = None
    end: GameEnd | None = None
    end_comment: str = ""
    extra: tuple[Decimal, ...] = (Decimal(0),) * 10

    def alive(self, seat: int) -> bool:
        """Whether the seat is still in the game."""
        return self.exits[seat - 1] is None

    @property
    def in_play(self) -> tuple[int, ...]:
        """The seats still in the game."""
        return tuple(seat for seat in SEATS if self.alive(seat))

    @property
    def speaker(self) -> int | None:
        """Who speaks now (a day's or a split speech, or a last word)."""
        if self.phase in (Phase.SPEECHES, Phase.SPLIT_SPEECHES) and self.position < len(self.order):
            return self.order[self.position]
        if self.phase in (Phase.LAST_WORDS, Phase.MORNING_LAST_WORD) and self.leaving:
            return self.leaving[0]
        return None

    @property
    def nominees(self) -> tuple[int, ...]:
        """Today's candidates in the order they were nominated."""
        return tuple(n.target for n in self.nominations)

    @property
    def roles_dealt(self) -> bool:
        """Whether every seat's role is entered."""
        return all(role is not None for role in self.roles)


def timer_seconds(game: LiveGame, regulation: Regulation) -> int | None:
    """The current step's time on the speech timer (None: untimed, 0: the speech is lost)."""
    flow = regulation.game
    if game.phase is Phase.INTRODUCTION:
        return flow.introduction_seconds
    if game.phase is Phase.SPEECHES:
        return 0 if game.silent else flow.speech_seconds
    if game.phase is Phase.SPLIT_SPEECHES:
        return flow.split_speech_seconds
    if game.phase is Phase.LAST_WORDS:
        return flow.split_last_word_seconds if len(game.leaving) > 1 else flow.last_word_seconds
    if game.phase is Phase.MORNING_LAST_WORD:
        return flow.last_word_seconds
    if game.phase in (Phase.DON_CHECK, Phase.SHERIFF_CHECK):
        return flow.check_seconds
    return None


def replay(actions: Iterable[Action], regulation: Regulation) -> LiveGame:
    """The game a log makes; GameLogRefused if an action breaks the rules where it stands."""
    game = LiveGame()
    for action in actions:
        game = apply(game, action, regulation)
    return game


def apply(game: LiveGame, action: Action, regulation: Regulation) -> LiveGame:
    """The game after one more action; GameLogRefused (nothing changed) if it is not allowed."""
    if isinstance(action, DealRoles):
        return _deal(game, action.roles)
    if isinstance(action, Foul):
        return _after_removal(game, _foul(game, action.seat, regulation), regulation)
    if isinstance(action, Disqualify):
        return _after_removal(game, _disqualify(game, action.seat), regulation)
    if isinstance(action, Extra):
        return _extra(game, action, regulation)
    if isinstance(action, Finish):
        return _finish(game, action, regulation)
    if game.phase in (Phase.END_DETECTED, Phase.FINISHED):
        raise GameLogRefused("game-log-game-over")
    handler = _PHASE_ACTIONS.get((game.phase, type(action)))
    if handler is None:
        raise GameLogRefused("game-log-not-now", phase=game.phase.value)
    return handler(game, action, regulation)


def _seat_in_range(seat: int) -> None:
    if seat not in SEATS:
        raise GameLogRefused("game-log-bad-seat", seat=seat)


def _alive_seat(game: LiveGame, seat: int) -> None:
    _seat_in_range(seat)
    if not game.alive(seat):
        raise GameLogRefused("game-log-seat-out", seat=seat)


def _deal(game: LiveGame, roles: tuple[Role | None, ...]) -> LiveGame:
    if len(roles) != len(SEATS):
        raise GameLogRefused("game-log-bad-action")
    for role, expected in ROLE_COUNTS.items():
        count = roles.count(role)
        if count > expected:
            raise GameLogRefused(
                "protocol-role-count", role=role.value, count=count, expected=expected
            )
    return _detect(replace(game, roles=roles))


def _foul(game: LiveGame, seat: int, regulation: Regulation) -> LiveGame:
    _in_game(game, seat)
    fouls = game.fouls[seat - 1] + 1
    record = FoulRecord(seat, game.day, game.phase)
    game = replace(game, fouls=_with(game.fouls, seat, fouls), foul_log=(*game.foul_log, record))
    if fouls >= regulation.penalties.fouls_for_removal:
        return _remove(game, seat, Exit.FOULS)
    if regulation.game.fouls_for_silence is not None and fouls == regulation.game.fouls_for_silence:
        return replace(game, silenced=game.silenced | {seat})
    return game


def _disqualify(game: LiveGame, seat: int) -> LiveGame:
    _in_game(game, seat)
    record = FoulRecord(seat, game.day, game.phase, disqualifying=True)
    game = replace(game, foul_log=(*game.foul_log, record))
    return _remove(game, seat, Exit.DISQUALIFIED)


def _in_game(game: LiveGame, seat: int) -> None:
    """Fouls go to players at the table (the protocol knows no removal after leaving)."""
    if game.phase is Phase.FINISHED:
        raise GameLogRefused("game-log-game-over")
    _alive_seat(game, seat)


def _remove(game: LiveGame, seat: int, how: Exit) -> LiveGame:
    """A removal: no last word; during the day, no vote that day (10.1)."""
    day_phases = (
        Phase.SPEECHES,
        Phase.VOTING,
        Phase.SPLIT_SPEECHES,
        Phase.REVOTE,
        Phase.ALL_OR_NOBODY,
    )
    game = replace(
        game,
        exits=_with(game.exits, seat, how),
        silenced=game.silenced - {seat},
        leaving=tuple(s for s in game.leaving if s != seat),
    )
    if game.phase in day_phases:
        game = replace(game, no_vote=True)
    return game


def _after_removal(game: LiveGame, changed: LiveGame, regulation: Regulation) -> LiveGame:
    """Where the game goes when a foul or a disqualification removed a player."""
    removed = [s for s in SEATS if game.alive(s) and not changed.alive(s)]
    if not removed:
        return changed
    seat = removed[0]
    if changed.phase in (Phase.END_DETECTED, Phase.FINISHED):
        return changed
    after = _detect(changed)
    if after.detected is not None:
        return after
    phase = after.phase
    if phase in (Phase.VOTING, Phase.REVOTE, Phase.ALL_OR_NOBODY, Phase.SPLIT_SPEECHES) or (
        phase is Phase.SPEECHES and regulation.game.removal_ends_day
    ):
        return _to_night(after, regulation)
    if phase is Phase.SPEECHES:
        # The day goes on without the removed player (and without a vote).
        order = after.order
        index = order.index(seat) if seat in order else None
        if index is None:
            return after
        position = after.position - (1 if index < after.position else 0)
        speaking = index == after.position
        after = replace(after, order=order[:index] + order[index + 1 :], position=position)
        if speaking:
            return _next_speaker(after, regulation, started=False)
    return after


def _extra(game: LiveGame, action: Extra, regulation: Regulation) -> LiveGame:
    _seat_in_range(action.seat)
    if game.phase is not Phase.FINISHED:
        raise GameLogRefused("game-log-extra-at-end")
    extra = _with(game.extra, action.seat, action.points)
    changed = replace(game, extra=extra)
    errors = [
        error for error in check_draft(_draft(changed, None), regulation) if "extra" in error.code
    ]
    if errors:
        raise _refused(errors[0])
    return changed


def _refused(error: ProtocolError) -> GameLogRefused:
    args = dict(error.args)
    if error.seat is not None:
        args["seat"] = error.seat
    return GameLogRefused(error.code, **args)


def _finish(game: LiveGame, action: Finish, regulation: Regulation) -> LiveGame:
    if game.phase is Phase.FINISHED:
        raise GameLogRefused("game-log-game-over")
    detected = game.detected or detect_end(game)
    confirmed = (
        detected is not None and action.end is detected and action.winner is _winner(detected)
    )
    if not confirmed and not action.comment.strip():
        # Ending otherwise than the record shows takes the judge's reason.
        raise GameLogRefused("game-log-finish-needs-comment")
    # A game ended before the first victim named anyone: he named nobody.
    best_move = game.best_move if game.best_move is not None or not game.first_killed else ()
    finished = replace(
        game,
        best_move=best_move,
        phase=Phase.FINISHED,
        winner=action.winner,
        end=action.end,
        end_comment=action.comment.strip(),
    )
    errors = [e for e in check_draft(_draft(finished, None), regulation) if "end" in e.code]
    if errors:
        raise _refused(errors[0])
    return finished


def _winner(end: GameEnd) -> Side | None:
    return end.winner


# --- the day -------------------------------------------------------------------------------


def _proceed_introduction(game: LiveGame, _action: Action, regulation: Regulation) -> LiveGame:
    return _start_day(replace(game, day=0), regulation)


def _start_day(game: LiveGame, regulation: Regulation) -> LiveGame:
    day = game.day + 1
    first = _next_in_play(game, 0) if day == 1 else _next_in_play(game, game.first_speaker)
    order = _order_from(game, first)
    game = replace(
        game,
        phase=Phase.SPEECHES,
        day=day,
        first_speaker=first,
        order=order,
        position=0,
        nominations=(),
        no_vote=False,
        candidates=(),
        leaving=(),
        shot=None,
    )
    return _begin_turn(game)


def _next_in_play(game: LiveGame, after: int) -> int:
    """The first seat in play after `after`, going round the table."""
    for step in range(1, 11):
        seat = (after + step - 1) % 10 + 1
        if game.alive(seat):
            return seat
    raise GameLogRefused("game-log-nobody-left")


def _order_from(game: LiveGame, first: int) -> tuple[int, ...]:
    return tuple(seat for step in range(10) if game.alive(seat := (first + step - 1) % 10 + 1))


def _begin_turn(game: LiveGame) -> LiveGame:
    """The turn of the speaker at `position`: a player silenced by fouls loses this speech."""
    speaker = game.speaker
    if game.phase is Phase.SPEECHES and speaker is not None and speaker in game.silenced:
        return replace(game, silent=True, silenced=game.silenced - {speaker})
    return replace(game, silent=False)


def _next_speaker(game: LiveGame, regulation: Regulation, *, started: bool = True) -> LiveGame:
    position = game.position + 1 if started else game.position
    game = replace(game, position=position)
    if position < len(game.order):
        return _begin_turn(game)
    if game.phase is Phase.SPLIT_SPEECHES:
        return replace(game, phase=Phase.REVOTE, silent=False)
    return _after_speeches(replace(game, silent=False), regulation)


def _proceed_speech(game: LiveGame, _action: Action, regulation: Regulation) -> LiveGame:
    return _next_speaker(game, regulation)


def _after_speeches(game: LiveGame, regulation: Regulation) -> LiveGame:
    candidates = tuple(seat for seat in game.nominees if game.alive(seat))
    if game.no_vote or not candidates:
        return _to_night(game, regulation)
    if (
        len(candidates) == 1
        and game.day == 1
        and not regulation.game.first_day_single_candidate_votes
    ):
        # 3.10: a single candidate on the first day is not voted on.
        return _to_night(game, regulation)
    return replace(game, phase=Phase.VOTING, candidates=candidates)


def _nominate(game: LiveGame, action: Action, _regulation: Regulation) -> LiveGame:
    assert isinstance(action, Nominate)
    _alive_seat(game, action.by)
    _alive_seat(game, action.target)
    if action.by != game.speaker:
        raise GameLogRefused("game-log-not-speaker", seat=action.by)
    if any(n.by == action.by for n in game.nominations):
        raise GameLogRefused("game-log-nominated-already", seat=action.by)
    if action.target in game.nominees:
        raise GameLogRefused("game-log-candidate-already", seat=action.target)
    return replace(game, nominations=(*game.nominations, Nomination(action.by, action.target)))


def _withdraw(game: LiveGame, action: Action, regulation: Regulation) -> LiveGame:
    assert isinstance(action, Withdraw)
    if not regulation.game.withdraw_nomination:
        raise GameLogRefused("game-log-no-withdrawal")
    if action.by != game.speaker or not any(n.by == action.by for n in game.nominations):
        raise GameLogRefused("game-log-nothing-to-withdraw", seat=action.by)
    return replace(game, nominations=tuple(n for n in game.nominations if n.by != action.by))


def _cast_votes(game: LiveGame, action: Action, regulation: Regulation) -> LiveGame:
    assert isinstance(action, CastVotes)
    voters = len(game.in_play)
    if len(action.counts) != len(game.candidates) or any(c < 0 for c in action.counts):
        raise GameLogRefused("game-log-bad-votes")
    if sum(action.counts) != voters:
        # 3.9: a player who does not vote votes for the last candidate: every vote is counted.
        raise GameLogRefused("game-log-votes-total", total=sum(action.counts), voters=voters)
    record = VoteRecord(game.day, game.candidates, action.counts)
    game = replace(game, votes=(*game.votes, record))
    top = max(action.counts)
    leaders = tuple(s for s, c in zip(game.candidates, action.counts, strict=True) if c == top)
    if len(leaders) == 1:
        return _voted_out(game, leaders, regulation)
    flow = regulation.game
    if game.phase is Phase.VOTING and flow.split_vote:
        return _begin_turn(
            replace(game, phase=Phase.SPLIT_SPEECHES, candidates=leaders, order=leaders, position=0)
        )
    if (
        game.phase is Phase.REVOTE
        and flow.all_or_nobody_vote
        and voters >= flow.all_or_nobody_min_players
    ):
        return replace(game, phase=Phase.ALL_OR_NOBODY, candidates=leaders)
    # 10.4: a second tie with few players (or no further vote in this regulation): night.
    return _to_night(game, regulation)


def _all_or_nobody(game: LiveGame, action: Action, regulation: Regulation) -> LiveGame:
    assert isinstance(action, AllOrNobody)
    voters = len(game.in_play)
    if not 0 <= action.votes <= voters:
        raise GameLogRefused("game-log-votes-total", total=action.votes, voters=voters)
    record = VoteRecord(game.day, game.candidates, (action.votes,), all_or_nobody=True)
    game = replace(game, votes=(*game.votes, record))
    # A majority for leaving: all of them leave; against, or half and half: all stay.
    if action.votes * 2 > voters:
        return _voted_out(game, game.candidates, regulation)
    return _to_night(game, regulation)


def _voted_out(game: LiveGame, seats: tuple[int, ...], regulation: Regulation) -> LiveGame:
    exits = game.exits
    for seat in seats:
        exits = _with(exits, seat, Exit.VOTED)
    del regulation  # the same for every regulation: the end, or the last words
    game = _detect(replace(game, exits=exits, candidates=(), leaving=seats))
    if game.detected is not None:
        return game
    return replace(game, phase=Phase.LAST_WORDS)


def _proceed_last_word(game: LiveGame, _action: Action, regulation: Regulation) -> LiveGame:
    return _after_last_words(replace(game, leaving=game.leaving[1:]), regulation)


def _after_last_words(game: LiveGame, regulation: Regulation) -> LiveGame:
    if game.leaving:
        return game
    if game.phase is Phase.LAST_WORDS:
        return _to_night(game, regulation)
    return _start_day(game, regulation)


# --- the night -----------------------------------------------------------------------------


def _to_night(game: LiveGame, _regulation: Regulation) -> LiveGame:
    return replace(
        game,
        phase=Phase.SHOT,
        night=game.day,
        order=(),
        position=0,
        silent=False,
        candidates=(),
        leaving=(),
        shot=None,
    )


def _shoot(game: LiveGame, action: Action, regulation: Regulation) -> LiveGame:
    assert isinstance(action, Shoot)
    nights = regulation.game.special_end_nights
    if action.target is None:
        quiet = game.four_players_quiet_nights + 1 if len(game.in_play) == 4 else 0
        game = replace(
            game, shot=None, misses_in_row=game.misses_in_row + 1, four_players_quiet_nights=quiet
        )
    else:
        _alive_seat(game, action.target)
        game = replace(
            game,
            shot=action.target,
            misses_in_row=0,
            four_players_quiet_nights=0,
            exits=_with(game.exits, action.target, Exit.KILLED),
        )
        if game.first_killed is None:
            game = replace(game, first_killed=action.target, first_killed_night=game.night)
    ends = regulation.special_ends
    if GameEnd.MISSED_NIGHTS in ends and game.misses_in_row >= nights:
        return replace(game, phase=Phase.END_DETECTED, detected=GameEnd.MISSED_NIGHTS)
    if GameEnd.FOUR_PLAYERS_THREE_NIGHTS in ends and game.four_players_quiet_nights >= nights:
        return replace(game, phase=Phase.END_DETECTED, detected=GameEnd.FOUR_PLAYERS_THREE_NIGHTS)
    return _to_check(game, Phase.DON_CHECK, regulation)


def _role_in_play(game: LiveGame, role: Role) -> bool:
    """Whether the role may still check: unknown roles are offered, a known one if alive
    (the victim of this night still checks: the checks come before the morning)."""
    if not game.roles_dealt:
        return True
    seat = game.roles.index(role) + 1
    return game.alive(seat) or seat == game.shot


def _to_check(game: LiveGame, phase: Phase, regulation: Regulation) -> LiveGame:
    if phase is Phase.DON_CHECK and not _role_in_play(game, Role.DON):
        phase = Phase.SHERIFF_CHECK
    if phase is Phase.SHERIFF_CHECK and not _role_in_play(game, Role.SHERIFF):
        return _morning(game, regulation)
    return replace(game, phase=phase)


def _check(game: LiveGame, action: Action, regulation: Regulation) -> LiveGame:
    assert isinstance(action, Check)
    _seat_in_range(action.seat)
    by = Role.DON if game.phase is Phase.DON_CHECK else Role.SHERIFF
    if game.checks and any(c.night == game.night and c.by is by for c in game.checks):
        raise GameLogRefused("game-log-checked-already")
    game = replace(game, checks=(*game.checks, CheckRecord(game.night, by, action.seat)))
    return _after_check(game, regulation)


def _skip_check(game: LiveGame, _action: Action, regulation: Regulation) -> LiveGame:
    return _after_check(game, regulation)


def _after_check(game: LiveGame, regulation: Regulation) -> LiveGame:
    if game.phase is Phase.DON_CHECK:
        return _to_check(game, Phase.SHERIFF_CHECK, regulation)
    return _morning(game, regulation)


def _morning(game: LiveGame, regulation: Regulation) -> LiveGame:
    """The night's victim leaves: the end may come now; otherwise his best move (if he is the
    first victim and may make one) and his last word, then the day."""
    victim = game.shot
    if victim is not None and victim == game.first_killed and _may_make_best_move(game, regulation):
        return replace(game, phase=Phase.BEST_MOVE, leaving=(victim,))
    return _last_word_or_day(game, regulation)


def _last_word_or_day(game: LiveGame, regulation: Regulation) -> LiveGame:
    game = _detect(game)
    if game.detected is not None:
        return game
    if game.shot is None:
        return _start_day(game, regulation)
    return replace(game, phase=Phase.MORNING_LAST_WORD, leaving=(game.shot,))


def _may_make_best_move(game: LiveGame, regulation: Regulation) -> bool:
    if regulation.best_move.first_night_only and game.first_killed_night != 1:
        return False
    assert game.first_killed is not None
    role = game.roles[game.first_killed - 1]
    return role is None or role in regulation.best_move.eligible_roles


def _name_best_move(game: LiveGame, action: Action, regulation: Regulation) -> LiveGame:
    assert isinstance(action, NameBestMove)
    changed = replace(game, best_move=action.seats)
    errors = [
        error
        for error in check_draft(_draft(changed, None), regulation)
        if error.code.startswith("protocol-best-move")
    ]
    if errors:
        raise _refused(errors[0])
    return _last_word_or_day(changed, regulation)


def _skip_best_move(game: LiveGame, _action: Action, regulation: Regulation) -> LiveGame:
    return _last_word_or_day(replace(game, best_move=()), regulation)


# --- the end -------------------------------------------------------------------------------


def detect_end(game: LiveGame) -> GameEnd | None:
    """The end the record shows, once the roles are known: all black out, or black equal to
    red (the nights' rules are detected as they happen, see `_shoot`)."""
    if not game.roles_dealt:
        return None
    black = sum(1 for s in game.in_play if _side(game, s) is Side.BLACK)
    red = len(game.in_play) - black
    if black == 0:
        return GameEnd.BLACK_OUT
    if black >= red:
        return GameEnd.PARITY
    return None


def _side(game: LiveGame, seat: int) -> Side:
    role = game.roles[seat - 1]
    assert role is not None
    return role.side


def _detect(game: LiveGame) -> LiveGame:
    if game.phase in (Phase.FINISHED, Phase.INTRODUCTION):
        return game
    detected = detect_end(game)
    if detected is None:
        if game.phase is Phase.END_DETECTED and game.detected is not None:
            return game
        return replace(game, detected=None)
    return replace(game, phase=Phase.END_DETECTED, detected=detected)


# --- the protocol --------------------------------------------------------------------------


def _draft(game: LiveGame, players: tuple[str, ...] | None) -> ProtocolDraft:
    limit_removed = {Exit.FOULS: Removal.FOULS, Exit.DISQUALIFIED: Removal.DISQUALIFIED}
    seats = tuple(
        SeatDraft(
            player=players[index] if players else None,
            role=game.roles[index],
            fouls=game.fouls[index],
            removed=limit_removed.get(exit_) if (exit_ := game.exits[index]) else None,
            extra=game.extra[index],
        )
        for index in range(10)
    )
    if game.first_killed is not None:
        first_kill: FirstKill | None = FirstKill(game.first_killed, game.first_killed_night or 1)
    elif game.phase is Phase.FINISHED:
        first_kill = FirstKill(None)
    else:
        first_kill = None
    return ProtocolDraft(
        seats=seats,
        winner=game.winner,
        first_kill=first_kill,
        best_move_by=game.first_killed if game.best_move else None,
        best_move=game.best_move,
        end=game.end,
    )


def to_draft(game: LiveGame, players: tuple[str, ...]) -> ProtocolDraft:
    """The protocol the game makes, for the rules engine to validate and score: the same draft
    the inline protocol screen fills (fouls beyond the removal's count are not the protocol's)."""
    return _draft(game, players)


def _with(values: tuple[Any, ...], seat: int, value: Any) -> tuple[Any, ...]:
    return (*values[: seat - 1], value, *values[seat:])


# Each handler takes the one action type it is registered for.
_Handler: TypeAlias = Callable[[LiveGame, Any, Regulation], LiveGame]
_PHASE_ACTIONS: Mapping[tuple[Phase, type[Action]], _Handler] = {
    (Phase.INTRODUCTION, Proceed): _proceed_introduction,
    (Phase.SPEECHES, Proceed): _proceed_speech,
    (Phase.SPEECHES, Nominate): _nominate,
    (Phase.SPEECHES, Withdraw): _withdraw,
    (Phase.SPLIT_SPEECHES, Proceed): _proceed_speech,
    (Phase.VOTING, CastVotes): _cast_votes,
    (Phase.REVOTE, CastVotes): _cast_votes,
    (Phase.ALL_OR_NOBODY, AllOrNobody): _all_or_nobody,
    (Phase.LAST_WORDS, Proceed): _proceed_last_word,
    (Phase.MORNING_LAST_WORD, Proceed): _proceed_last_word,
    (Phase.SHOT, Shoot): _shoot,
    (Phase.DON_CHECK, Check): _check,
    (Phase.DON_CHECK, Proceed): _skip_check,
    (Phase.SHERIFF_CHECK, Check): _check,
    (Phase.SHERIFF_CHECK, Proceed): _skip_check,
    (Phase.BEST_MOVE, NameBestMove): _name_best_move,
    (Phase.BEST_MOVE, Proceed): _skip_best_move,
}

__all__ = [
    "ACTIONS",
    "Action",
    "AllOrNobody",
    "CastVotes",
    "Check",
    "CheckRecord",
    "DealRoles",
    "Disqualify",
    "Entry",
    "Exit",
    "Extra",
    "Finish",
    "Foul",
    "FoulRecord",
    "GameLogRefused",
    "LiveGame",
    "NameBestMove",
    "Nominate",
    "Nomination",
    "Phase",
    "Proceed",
    "Shoot",
    "VoteRecord",
    "Withdraw",
    "action_from_dict",
    "action_to_dict",
    "apply",
    "detect_end",
    "entry_from_dict",
    "entry_to_dict",
    "replay",
    "timer_seconds",
    "to_draft",
]
