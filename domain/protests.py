"""Protests against a game's result (regulation black-raven-cup 11.3), as pure rules.

A player of a game may protest its result while the protest window is open: it opens when the
table judge confirms the protocol and lasts the regulation's minutes (the tournament's organizer
may switch protests on or off). One open protest per player per game; the reason is a bounded
text; an annulled game takes none. The chief judge decides; the decision is final. Accepting a
protest means the protocol is corrected: the protest stays open (and the result provisional)
until the correction is stored.
Time is always passed in.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace
from datetime import datetime
from enum import StrEnum
from zoneinfo import ZoneInfo

from domain.validation import Invalid, clean_text

# A tournament switched on by its organizer under a regulation without protests gets
# black-raven-cup's window.
DEFAULT_WINDOW_MINUTES = 10
REASON_MIN, REASON_MAX = 10, 1000
DECISION_MIN, DECISION_MAX = 3, 500


class ProtestStatus(StrEnum):
    """Where a protest stands."""

    # Filed, waiting for the chief judge.
    PENDING = "pending"
    # Accepted: the chief judge is correcting the protocol.
    ACCEPTED = "accepted"
    # Accepted and the protocol corrected.
    CORRECTED = "corrected"
    REJECTED = "rejected"


# The statuses in which the game's result may still change.
OPEN_STATUSES = frozenset({ProtestStatus.PENDING, ProtestStatus.ACCEPTED})


@dataclass(frozen=True)
class Protest:
    """A player's written protest against a game's result, and the chief judge's decision."""

    id: int
    tournament_id: int
    game_id: int
    participant_id: int
    # Who filed it (the participant's Telegram id).
    user_id: int
    reason: str
    filed_at: datetime
    status: ProtestStatus = ProtestStatus.PENDING
    # A photo of the game's sheet or the like, as Telegram's file id.
    photo: str | None = None
    decided_by: int | None = None
    decided_at: datetime | None = None
    decision: str | None = None

    @property
    def is_open(self) -> bool:
        """The chief judge has not decided yet, or is still correcting the protocol."""
        return self.status in OPEN_STATUSES


class AuditKind(StrEnum):
    """What an entry of a tournament's audit log records."""

    PROTEST_FILED = "protest_filed"
    PROTEST_REJECTED = "protest_rejected"
    PROTEST_ACCEPTED = "protest_accepted"
    PROTOCOL_CORRECTED = "protocol_corrected"
    PROTESTS_SWITCHED = "protests_switched"
    PLAYER_EXCLUDED = "player_excluded"
    LOT_DRAWN = "lot_drawn"
    GAME_ANNULLED = "game_annulled"


@dataclass(frozen=True)
class AuditEntry:
    """One line of a tournament's audit log: when, who, what, about which game or protest."""

    tournament_id: int
    at: datetime
    actor_id: int | None
    kind: AuditKind
    text: str
    game_id: int | None = None
    protest_id: int | None = None


def window_minutes(regulation_minutes: int | None, switch: bool | None) -> int | None:
    """The protest window of a tournament: the regulation's, unless the organizer switched
    protests off (None) or on (the regulation's window, or the default when it has none)."""
    if switch is None:
        return regulation_minutes
    if not switch:
        return None
    return regulation_minutes or DEFAULT_WINDOW_MINUTES


def window_open(closes_at: datetime | None, now: datetime) -> bool:
    """Whether protests are taken at `now`: up to, not including, the closing moment."""
    return closes_at is not None and now < closes_at


def check_filing(
    *,
    participant_id: int | None,
    players: Collection[int],
    closes_at: datetime | None,
    now: datetime,
    open_protests: Collection[Protest],
    timezone: str,
    annulled: bool = False,
) -> None:
    """Refuse a protest (`Invalid`) from someone who did not play the game, on a game the
    chief judge annulled (its result no longer counts, so there is nothing to protest), after
    the window, or from a player whose earlier protest on this game is still open."""
    if participant_id is None or participant_id not in players:
        raise Invalid("protest-not-your-game")
    if annulled:
        raise Invalid("protest-game-annulled")
    if closes_at is None:
        raise Invalid("protest-no-window")
    if not window_open(closes_at, now):
        raise Invalid("protest-window-closed", time=local_time(closes_at, timezone))
    if any(p.participant_id == participant_id and p.is_open for p in open_protests):
        raise Invalid("protest-already-open")


def local_time(moment: datetime, timezone: str) -> str:
    """A moment as the tournament's clock shows it (HH:MM)."""
    return moment.astimezone(ZoneInfo(timezone)).strftime("%H:%M")


def _bounded(text: str | None, low: int, high: int, code: str) -> str:
    value = clean_text(text)
    if not low <= len(value) <= high:
        raise Invalid(code, min=low, max=high, length=len(value))
    return value


def protest_reason(text: str | None) -> str:
    """A protest's reason: a written sentence or more, of bounded length."""
    return _bounded(text, REASON_MIN, REASON_MAX, "protest-reason-length")


def decision_text(text: str | None) -> str:
    """The chief judge's short decision text."""
    return _bounded(text, DECISION_MIN, DECISION_MAX, "protest-decision-length")


def decide(protest: Protest, *, accept: bool, text: str, judge_id: int, now: datetime) -> Protest:
    """The chief judge's final decision on a pending protest; a decided one stays as decided."""
    if protest.status is not ProtestStatus.PENDING:
        raise Invalid("protest-already-decided")
    return replace(
        protest,
        status=ProtestStatus.ACCEPTED if accept else ProtestStatus.REJECTED,
        decided_by=judge_id,
        decided_at=now,
        decision=decision_text(text),
    )


def settle_by_correction(protest: Protest) -> Protest:
    """An accepted protest once the protocol's correction is stored; others are unchanged."""
    if protest.status is ProtestStatus.ACCEPTED:
        return replace(protest, status=ProtestStatus.CORRECTED)
    return protest


def deciders(staff: Collection[tuple[int, str]], table_judge: int | None) -> frozenset[int]:
    """Who decides a protest: the tournament's chief judges, or when it has none the panel of
    the other judges (every table judge but the game's own). `staff` pairs people with their
    role ("chief_judge" or "table_judge")."""
    chiefs = frozenset(person for person, role in staff if role == "chief_judge")
    if chiefs:
        return chiefs
    return frozenset(
        person for person, role in staff if role == "table_judge" and person != table_judge
    )
