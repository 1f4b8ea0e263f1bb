"""A tournament's regulation as data: every number the rules engine uses comes from here.

A regulation is a frozen pydantic model. The two built-in presets live as JSON files in
`domain/presets/`; an organizer's own file goes through `parse_regulation`, which reports every
problem with its field path and the reason, so a third regulation needs a file, not code.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from decimal import Decimal
from enum import StrEnum
from functools import cache
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    NonNegativeInt,
    PositiveInt,
    ValidationError,
    field_validator,
    model_validator,
)

from domain.cards import Role
from domain.game_end import GameEnd
from domain.presets import PRESET_IDS, PRESETS_DIR

_TIME = re.compile(r"^(?:[01]\d|2[0-3]):[0-5]\d$")
_ID = r"^[a-z0-9][a-z0-9_-]*$"

NonNegativePoints = Annotated[Decimal, Field(ge=0)]
PositivePoints = Annotated[Decimal, Field(gt=0)]
NonPositivePoints = Annotated[Decimal, Field(le=0)]


class TieBreaker(StrEnum):
    """The fixed vocabulary of figures a regulation may order its standings by."""

    POINTS = "points"
    EXTRA_POINTS = "extra_points"
    WINS = "wins"
    WINS_AS_DON = "wins_as_don"
    WINS_AS_SHERIFF = "wins_as_sheriff"
    WINS_AS_MAFIA = "wins_as_mafia"
    WINS_AS_DON_OR_SHERIFF = "wins_as_don_or_sheriff"
    TIMES_NAMED_BEST = "times_named_best"
    FIRST_NIGHT_DEATHS = "first_night_deaths"
    BEST_MOVE_POINTS = "best_move_points"
    LOT = "lot"


class RegulationError(ValueError):
    """A regulation that cannot be used; `.problems` lists (field path, reason) pairs."""

    def __init__(self, problems: list[tuple[str, str]]) -> None:
        self.problems = problems
        super().__init__("; ".join(f"{path}: {reason}" for path, reason in problems))


class _Part(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class LocalizedText(_Part):
    """A name shown to users, in Russian (the community's language) and English."""

    ru: str = Field(min_length=1)
    en: str = Field(min_length=1)


class Advance(_Part):
    """Who goes on to the next stage: the top `count` players or teams."""

    unit: Literal["players", "teams"]
    count: PositiveInt


class Stage(_Part):
    """One stage of the tournament (qualifying, semifinal, final)."""

    id: str = Field(pattern=_ID)
    name: LocalizedText
    games_per_player: PositiveInt
    tables: PositiveInt | None = None
    # False: this stage is ranked on its own games only, earlier stages are forgotten.
    carry_points: bool = True
    advance: Advance | None = None


class WinPoints(_Part):
    """Points for each player of the winning side, by role."""

    civilian: NonNegativePoints
    sheriff: NonNegativePoints
    mafia: NonNegativePoints
    don: NonNegativePoints

    def for_role(self, role: Role) -> Decimal:
        """What a win is worth to a player of this role."""
        return Decimal(getattr(self, role.value))


class Penalties(_Part):
    """Points taken for leaving a game early (both are zero or negative)."""

    disqualification: NonPositivePoints
    # The texts do not say whether the 4th foul costs the disqualification's point: a setting.
    fouls_removal: NonPositivePoints
    fouls_for_removal: PositiveInt = 4


class BestMove(_Part):
    """The first victim's guess of three black players, and what it earns."""

    eligible_roles: tuple[Role, ...]
    # True: only a victim of the first night may make it; False: the first victim, whatever night.
    first_night_only: bool
    three_black: NonNegativePoints
    two_black: NonNegativePoints
    # black-raven-cup 11.1.5 names only the sheriff's 3-black case; this decides the 2-black one.
    sheriff_two_black: NonNegativePoints

    @field_validator("eligible_roles")
    @classmethod
    def _distinct_roles(cls, roles: tuple[Role, ...]) -> tuple[Role, ...]:
        if len(set(roles)) != len(roles):
            raise ValueError("a role is listed twice")
        return roles


class ExtraPoints(_Part):
    """The judge's extra points: limits per player, per game, and who may get them."""

    per_player_min: PositivePoints
    per_player_max: PositivePoints
    step: PositivePoints
    total_max: NonNegativePoints
    max_recipients: NonNegativeInt
    first_killed_may_receive: bool


class GameFlow(_Part):
    """How a game runs at the table, for the judge's live game (the Mini App): durations in
    seconds and the voting rules. Every field has the classic default, so a regulation file
    written before these settings stays valid."""

    # The black team's meeting on the introduction night (black-raven-cup 1.2: one minute).
    introduction_seconds: PositiveInt = 60
    speech_seconds: PositiveInt = 60
    # The extra speech of players tied in a vote (3.11: 30 seconds).
    split_speech_seconds: PositiveInt = 30
    last_word_seconds: PositiveInt = 60
    # Several players leaving together after a split vote share a shorter last word (10.5).
    split_last_word_seconds: PositiveInt = 30
    # The don's and the sheriff's checks (siberia-ural-teams: 15 seconds each); None: untimed.
    check_seconds: PositiveInt | None = None
    # The timer warns (vibration, sound) this many seconds before the end.
    warning_seconds: PositiveInt = 10
    # This many fouls take the player's next speech (6.4: three); None: no such rule.
    fouls_for_silence: PositiveInt | None = 3
    # Whether a nominating player may take his nomination back (siberia-ural-teams: yes).
    withdraw_nomination: bool = False
    # 3.10: a single candidate on the first day is not voted on.
    first_day_single_candidate_votes: bool = False
    # 3.11: players tied in a vote speak again and are voted on again.
    split_vote: bool = True
    # 3.11: tied again, the table votes on all of them leaving or all staying.
    all_or_nobody_vote: bool = True
    # 10.4: with fewer players than this at the table, a second tie ends the voting.
    all_or_nobody_min_players: PositiveInt = 5
    # Whether a removal (4th foul, disqualification) sends the town to night at once
    # (siberia-ural-teams); otherwise the day goes on without a vote (black-raven-cup 10.1).
    removal_ends_day: bool = False
    # The nights of the special ends the regulation names (`special_ends`): black missing this
    # many nights in a row (10.2), or this many nights without a kill with four players left.
    special_end_nights: PositiveInt = 3
    # Whether each vote records who voted for whom (as Polemica does), not only the counts.
    record_ballots: bool = False


class EntryFee(_Part):
    """The fee per player, in whole currency units."""

    amount: NonNegativePoints
    currency: str = Field(pattern=r"^[A-Z]{3}$")


class TimetableEvent(_Part):
    """One item of a tournament day: a game of a stage, lunch, results and so on."""

    kind: Literal["registration", "opening", "start", "game", "lunch", "results", "awards"]
    time: str | None = None
    stage: str | None = None

    @field_validator("time")
    @classmethod
    def _clock_time(cls, value: str | None) -> str | None:
        if value is not None and not _TIME.match(value):
            raise ValueError('expected a time "HH:MM"')
        return value


class TimetableDay(_Part):
    """The plan of one tournament day, in order."""

    day: PositiveInt
    events: tuple[TimetableEvent, ...]


class Regulation(_Part):
    """Everything a tournament's rules decide, as data (see `domain/presets/`)."""

    id: str = Field(pattern=_ID)
    name: LocalizedText
    # How this regulation settles what its text leaves open, shown to the organizer.
    notes: tuple[str, ...] = ()
    team_size: PositiveInt | None = None
    # "stage_reached": advancing players rank above the rest; "points": one list by points alone
    # (siberia-ural-teams: the individual winner has the most points over both days).
    individual_ranking: Literal["stage_reached", "points"] = "stage_reached"
    stages: tuple[Stage, ...] = Field(min_length=1)
    win_points: WinPoints
    loss_points: NonNegativePoints = Decimal(0)
    penalties: Penalties
    best_move: BestMove
    extra_points: ExtraPoints
    tie_breakers: tuple[TieBreaker, ...] = Field(min_length=1)
    # The ends of a game besides elimination that the judge may record (10.2, 9.1, ...).
    special_ends: tuple[GameEnd, ...] = ()
    protest_window_minutes: PositiveInt | None = None
    # Where the protest window starts: the end of the game (the winner entered in the
    # protocol) or the protocol's confirmation.
    protest_window_from: Literal["game_end", "confirmation"] = "confirmation"
    # Whether the chief judge may settle an accepted protest by annulling the game instead of
    # correcting its protocol (black-raven-cup 11.3: "where the regulation allows").
    protest_annulment_allowed: bool = False
    entry_fee: EntryFee | None = None
    game: GameFlow = GameFlow()
    timetable: tuple[TimetableDay, ...] = ()
    # The nominations the results name: the best player of each of these roles, by the points
    # he earned playing it (`domain.awards`). Neither text names any; the presets name the
    # four the community awards (a setting: empty names none).
    awards: tuple[Role, ...] = ()

    @model_validator(mode="after")
    def _consistent(self) -> Regulation:
        problems = _consistency_problems(self)
        if problems:
            raise _ConsistencyError(problems)
        return self

    def stage(self, stage_id: str) -> Stage:
        """The stage with this id (KeyError if the regulation has none)."""
        for stage in self.stages:
            if stage.id == stage_id:
                return stage
        raise KeyError(stage_id)

    def stage_index(self, stage_id: str) -> int:
        """The position of a stage in the tournament, 0 for the first."""
        return [stage.id for stage in self.stages].index(stage_id)

    @property
    def is_team_tournament(self) -> bool:
        """Whether players play in teams whose figures are their members' sums."""
        return self.team_size is not None


class _ConsistencyError(ValueError):
    def __init__(self, problems: list[tuple[str, str]]) -> None:
        self.problems = problems
        super().__init__("; ".join(f"{path}: {reason}" for path, reason in problems))


def _consistency_problems(regulation: Regulation) -> list[tuple[str, str]]:
    return [
        *_stage_problems(regulation),
        *_extra_point_problems(regulation.extra_points),
        *_tie_breaker_problems(regulation.tie_breakers),
        *_timetable_problems(regulation),
        *_special_end_problems(regulation.special_ends),
    ]


def _special_end_problems(ends: tuple[GameEnd, ...]) -> list[tuple[str, str]]:
    problems: list[tuple[str, str]] = []
    for index, end in enumerate(ends):
        if not end.special:
            problems.append((f"special_ends.{index}", f"{end.value!r} ends every game anyway"))
        elif ends.index(end) != index:
            problems.append((f"special_ends.{index}", f"{end.value!r} is listed twice"))
    return problems


def _stage_problems(regulation: Regulation) -> list[tuple[str, str]]:
    problems: list[tuple[str, str]] = []
    ids = [stage.id for stage in regulation.stages]
    last = len(regulation.stages) - 1
    previous_count: int | None = None
    for index, stage in enumerate(regulation.stages):
        path = f"stages.{index}"
        if ids.index(stage.id) != index:
            problems.append((f"{path}.id", f"stage {stage.id!r} is listed twice"))
        if index < last and stage.advance is None:
            problems.append((f"{path}.advance", "every stage but the last needs a cut"))
        if index == last and stage.advance is not None:
            problems.append((f"{path}.advance", "the last stage has no one to advance to"))
        if stage.advance is None:
            continue
        if stage.advance.unit == "teams" and regulation.team_size is None:
            problems.append((f"{path}.advance.unit", "teams advance only when team_size is set"))
        if previous_count is not None and stage.advance.count >= previous_count:
            problems.append((f"{path}.advance.count", "each cut must be smaller than the last"))
        previous_count = stage.advance.count
    return problems


def _extra_point_problems(extra: ExtraPoints) -> list[tuple[str, str]]:
    problems: list[tuple[str, str]] = []
    if extra.per_player_min > extra.per_player_max:
        problems.append(("extra_points.per_player_min", "greater than per_player_max"))
    for name in ("per_player_min", "per_player_max"):
        if getattr(extra, name) % extra.step:
            problems.append((f"extra_points.{name}", f"not a multiple of the step {extra.step}"))
    if extra.max_recipients and extra.total_max < extra.per_player_min:
        problems.append(("extra_points.total_max", "smaller than per_player_min"))
    return problems


def _tie_breaker_problems(chain: tuple[TieBreaker, ...]) -> list[tuple[str, str]]:
    problems: list[tuple[str, str]] = []
    if chain[0] is not TieBreaker.POINTS:
        problems.append(("tie_breakers.0", "the chain starts with points"))
    for index, breaker in enumerate(chain):
        if chain.index(breaker) != index:
            problems.append((f"tie_breakers.{index}", f"{breaker.value!r} is listed twice"))
        if breaker is TieBreaker.LOT and index != len(chain) - 1:
            problems.append((f"tie_breakers.{index}", "the lot can only be the last tie-breaker"))
    return problems


def _timetable_problems(regulation: Regulation) -> list[tuple[str, str]]:
    problems: list[tuple[str, str]] = []
    stage_ids = {stage.id for stage in regulation.stages}
    games: dict[str, int] = {}
    for day_index, day in enumerate(regulation.timetable):
        times = [event.time for event in day.events if event.time is not None]
        if times != sorted(times):
            problems.append((f"timetable.{day_index}.events", "times are not in order"))
        for event_index, event in enumerate(day.events):
            path = f"timetable.{day_index}.events.{event_index}"
            if event.stage is not None and event.stage not in stage_ids:
                problems.append((f"{path}.stage", f"no stage {event.stage!r}"))
            if event.kind == "game":
                if event.stage is None:
                    problems.append((f"{path}.stage", "a game belongs to a stage"))
                else:
                    games[event.stage] = games.get(event.stage, 0) + 1
    if regulation.timetable:
        for index, stage in enumerate(regulation.stages):
            planned = games.get(stage.id, 0)
            if planned != stage.games_per_player:
                problems.append(
                    (
                        f"stages.{index}.games_per_player",
                        f"{stage.games_per_player} games, but the timetable plans {planned}",
                    )
                )
    return problems


def parse_regulation(data: Mapping[str, Any]) -> Regulation:
    """Validate an organizer's regulation; raise `RegulationError` listing every problem."""
    try:
        return Regulation.model_validate(data)
    except ValidationError as error:
        raise RegulationError(_problems_of(error)) from None


def _problems_of(error: ValidationError) -> list[tuple[str, str]]:
    problems: list[tuple[str, str]] = []
    for detail in error.errors():
        cause = detail.get("ctx", {}).get("error")
        if isinstance(cause, _ConsistencyError):
            problems.extend(cause.problems)
            continue
        path = ".".join(str(part) for part in detail["loc"]) or "regulation"
        message = detail["msg"].removeprefix("Value error, ")
        problems.append((path, message))
    return problems


# No regulation or tournament file nests deeper than a handful of levels; a deeper document
# is refused before decoding or validation, whose recursion it could exhaust.
MAX_NESTING = 32


def nesting_depth(text: str) -> int:
    """How deep a JSON text nests its arrays and objects (brackets inside strings ignored)."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def read_regulation(text: str) -> Regulation:
    """A regulation from an uploaded JSON text; `RegulationError` lists what is wrong with it,
    including a text that is not JSON, not an object, or nested deeper than `MAX_NESTING`."""
    if nesting_depth(text) > MAX_NESTING:
        raise RegulationError([("file", f"nested deeper than {MAX_NESTING} levels")])
    try:
        data = json.loads(text, parse_float=Decimal)
    except json.JSONDecodeError as error:
        raise RegulationError([("file", f"not JSON: {error}")]) from None
    if not isinstance(data, dict):
        raise RegulationError([("regulation", "expected a JSON object")])
    return parse_regulation(data)


@cache
def load_preset(preset_id: str) -> Regulation:
    """A built-in regulation by id (see `PRESET_IDS`); raises `RegulationError` if unknown."""
    if preset_id not in PRESET_IDS:
        known = ", ".join(PRESET_IDS)
        raise RegulationError([("regulation", f"no preset {preset_id!r} (known: {known})")])
    text = (PRESETS_DIR / f"{preset_id}.json").read_text(encoding="utf-8")
    return parse_regulation(json.loads(text, parse_float=Decimal))
