"""Deep-link invites: opaque random tokens, never a guessable id."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum


class InviteKind(StrEnum):
    """What a link opens; the one-letter prefix keeps `/start` payloads short."""

    REGISTRATION = "r"
    TEAM = "t"
    CHIEF_JUDGE = "c"
    TABLE_JUDGE = "j"
    ORGANIZER = "o"

    @property
    def single_use(self) -> bool:
        """Judge and organizer invites give a role once; registration and team links are shared."""
        return self in (InviteKind.CHIEF_JUDGE, InviteKind.TABLE_JUDGE, InviteKind.ORGANIZER)


@dataclass(frozen=True, slots=True)
class Invite:
    """A token and what it grants."""

    token: str
    kind: InviteKind
    tournament_id: int | None
    team_id: int | None
    created_at: datetime
    used_by: int | None = None

    @property
    def payload(self) -> str:
        """The `/start` payload: the kind's letter and the token."""
        return f"{self.kind.value}{self.token}"


def split_payload(payload: str) -> tuple[InviteKind, str] | None:
    """The kind and token of a `/start` payload, None if it is not one of ours."""
    if len(payload) < 2:
        return None
    try:
        return InviteKind(payload[0]), payload[1:]
    except ValueError:
        return None
