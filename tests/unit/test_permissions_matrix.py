"""The whole permission matrix: organizer, chief judge, table judge, player, stranger, admin."""

from __future__ import annotations

import pytest

from domain.permissions import MATRIX, Action, Forbidden, Role, StaffRole, allows, require, roles_of

# Who may do what, written out by hand: a change of the matrix must change this table too.
EXPECTED: dict[Role, set[Action]] = {
    Role.ADMIN: {
        Action.VIEW_CARD,
        Action.EDIT_SETTINGS,
        Action.MOVE_STATE,
        Action.INVITE_STAFF,
        Action.VIEW_PARTICIPANTS,
        Action.MARK_PAID,
        Action.EXPORT,
        Action.MARK_NO_SHOW,
        Action.SUBSTITUTE,
    },
    Role.ORGANIZER: {
        Action.VIEW_CARD,
        Action.EDIT_SETTINGS,
        Action.MOVE_STATE,
        Action.INVITE_STAFF,
        Action.VIEW_PARTICIPANTS,
        Action.MARK_PAID,
        Action.EXPORT,
        Action.MARK_NO_SHOW,
        Action.SUBSTITUTE,
    },
    Role.CHIEF_JUDGE: {
        Action.VIEW_CARD,
        Action.VIEW_PARTICIPANTS,
        Action.EXPORT,
        Action.MARK_NO_SHOW,
        Action.SUBSTITUTE,
        Action.EXCLUDE,
    },
    Role.TABLE_JUDGE: {Action.VIEW_CARD, Action.VIEW_PARTICIPANTS},
    Role.PLAYER: {Action.CHECK_IN, Action.EDIT_OWN_REGISTRATION},
    Role.STRANGER: {Action.REGISTER},
}


@pytest.mark.parametrize("role", list(Role))
@pytest.mark.parametrize("action", list(Action))
def test_each_role_may_do_exactly_what_the_matrix_says(role: Role, action: Action) -> None:
    assert allows({role}, action) is (action in EXPECTED[role])
    if action in EXPECTED[role]:
        require({role}, action)
    else:
        with pytest.raises(Forbidden):
            require({role}, action)


def test_every_action_is_in_the_matrix() -> None:
    assert set(MATRIX) == set(Action)


def test_someone_with_no_role_is_a_stranger_and_roles_add_up() -> None:
    assert roles_of(is_admin=False, is_organizer=False, staff=(), is_player=False) == {
        Role.STRANGER
    }
    judge_and_admin = roles_of(
        is_admin=True, is_organizer=False, staff=(StaffRole.CHIEF_JUDGE,), is_player=False
    )
    assert judge_and_admin == {Role.ADMIN, Role.CHIEF_JUDGE}
    assert allows(judge_and_admin, Action.EXCLUDE) and allows(judge_and_admin, Action.MARK_PAID)
