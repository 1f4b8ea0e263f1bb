"""Who may do what: the role matrix every screen and every button press is checked against."""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum


class Role(StrEnum):
    """A person's role towards one tournament (an admin is one everywhere)."""

    ADMIN = "admin"
    ORGANIZER = "organizer"
    CHIEF_JUDGE = "chief_judge"
    TABLE_JUDGE = "table_judge"
    PLAYER = "player"
    STRANGER = "stranger"


class StaffRole(StrEnum):
    """The roles an organizer hands out by invite links, per tournament."""

    CHIEF_JUDGE = "chief_judge"
    TABLE_JUDGE = "table_judge"


class Action(StrEnum):
    """Everything a person can ask the bot to do with a tournament."""

    VIEW_CARD = "view_card"
    EDIT_SETTINGS = "edit_settings"
    MOVE_STATE = "move_state"
    INVITE_STAFF = "invite_staff"
    VIEW_PARTICIPANTS = "view_participants"
    MARK_PAID = "mark_paid"
    EXPORT = "export"
    MARK_NO_SHOW = "mark_no_show"
    SUBSTITUTE = "substitute"
    EXCLUDE = "exclude"
    REGISTER = "register"
    CHECK_IN = "check_in"
    EDIT_OWN_REGISTRATION = "edit_own_registration"


_ORGANIZING = frozenset({Role.ADMIN, Role.ORGANIZER})
_JUDGING = frozenset({Role.CHIEF_JUDGE, Role.TABLE_JUDGE})

MATRIX: dict[Action, frozenset[Role]] = {
    Action.VIEW_CARD: _ORGANIZING | _JUDGING,
    Action.EDIT_SETTINGS: _ORGANIZING,
    Action.MOVE_STATE: _ORGANIZING,
    Action.INVITE_STAFF: _ORGANIZING,
    Action.VIEW_PARTICIPANTS: _ORGANIZING | _JUDGING,
    Action.MARK_PAID: _ORGANIZING,
    Action.EXPORT: _ORGANIZING | {Role.CHIEF_JUDGE},
    Action.MARK_NO_SHOW: _ORGANIZING | {Role.CHIEF_JUDGE},
    Action.SUBSTITUTE: _ORGANIZING | {Role.CHIEF_JUDGE},
    # Regulation 11.3.3: excluding a player is the judges' decision, not the organizer's.
    Action.EXCLUDE: frozenset({Role.CHIEF_JUDGE}),
    Action.REGISTER: frozenset({Role.STRANGER}),
    Action.CHECK_IN: frozenset({Role.PLAYER}),
    Action.EDIT_OWN_REGISTRATION: frozenset({Role.PLAYER}),
}


class Forbidden(PermissionError):
    """The person's roles do not allow the action."""

    def __init__(self, action: Action) -> None:
        self.action = action
        super().__init__(action.value)


def roles_of(
    *,
    is_admin: bool,
    is_organizer: bool,
    staff: Iterable[StaffRole],
    is_player: bool,
) -> frozenset[Role]:
    """A person's roles in a tournament; someone with none of them is a stranger."""
    roles = {Role(role.value) for role in staff}
    if is_admin:
        roles.add(Role.ADMIN)
    if is_organizer:
        roles.add(Role.ORGANIZER)
    if is_player:
        roles.add(Role.PLAYER)
    return frozenset(roles or {Role.STRANGER})


def allows(roles: Iterable[Role], action: Action) -> bool:
    """Whether any of the roles may perform the action."""
    return not MATRIX[action].isdisjoint(roles)


def require(roles: Iterable[Role], action: Action) -> None:
    """Raise `Forbidden` unless one of the roles may perform the action."""
    if not allows(roles, action):
        raise Forbidden(action)
