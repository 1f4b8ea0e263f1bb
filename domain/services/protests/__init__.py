"""Use cases of protests: offer the protest with the result, file one, decide it, settle it by
the protocol's correction; the organizer's switch and the tournament's audit log.

The protest window is the game's `protest_until`, stored when its protocol is confirmed. Every
protest, decision and correction is written to the audit log in the transaction that makes it,
and every notice goes through the outbox in the same transaction.

The package's modules: `confirmation` (what a protocol's confirmation does), `filing`,
`deciding` (the chief judge's acts, a game annulled), `organizer` (the window, the switch, the
audit log), `summary` (a game as the messages name it). The use cases of `filing`, `deciding`
and `organizer` are one service each, built once in `domain.services.catalog`.
"""

from domain.services.protests.confirmation import offer_key, on_protocol_confirmed
from domain.services.protests.deciding import ProtestCase
from domain.services.protests.filing import ProtestTarget
from domain.services.protests.organizer import AuditLog, ProtestSettings, window_of

__all__ = [
    "AuditLog",
    "ProtestCase",
    "ProtestSettings",
    "ProtestTarget",
    "offer_key",
    "on_protocol_confirmed",
    "window_of",
]
