"""Use cases of protests: offer the protest with the result, file one, decide it, settle it by
the protocol's correction; the organizer's switch and the tournament's audit log.

The protest window is the game's `protest_until`, stored when its protocol is confirmed. Every
protest, decision and correction is written to the audit log in the transaction that makes it,
and every notice goes through the outbox in the same transaction.

The package's modules: `confirmation` (what a protocol's confirmation does), `filing`,
`deciding` (the chief judge's acts, a game annulled), `organizer` (the window, the switch, the
audit log), `summary` (a game as the messages name it).
"""

from domain.services.protests.confirmation import offer_key, on_protocol_confirmed
from domain.services.protests.deciding import (
    ProtestCase,
    annul_game,
    check_undecided,
    decide_protest,
    protest_case,
)
from domain.services.protests.filing import (
    ProtestTarget,
    file_protest,
    protest_target,
    protestable_games,
)
from domain.services.protests.organizer import (
    AuditLog,
    ProtestSettings,
    audit_log,
    protest_settings,
    switch_protests,
    window_of,
)

__all__ = [
    "AuditLog",
    "ProtestCase",
    "ProtestSettings",
    "ProtestTarget",
    "annul_game",
    "audit_log",
    "check_undecided",
    "decide_protest",
    "file_protest",
    "offer_key",
    "on_protocol_confirmed",
    "protest_case",
    "protest_settings",
    "protest_target",
    "protestable_games",
    "switch_protests",
    "window_of",
]
