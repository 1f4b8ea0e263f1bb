"""The staffing screens' views: what a person reads once an invitation made him staff."""

from __future__ import annotations

from domain.invites import InviteKind

ROLE_TEXTS = {
    InviteKind.ORGANIZER: "staff-became-organizer",
    InviteKind.CHIEF_JUDGE: "staff-became-chief",
    InviteKind.TABLE_JUDGE: "staff-became-judge",
}
