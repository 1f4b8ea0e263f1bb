"""nickname_keys: a participant's nickname and club as the rules compare them (NFKC, case
folded), so a registration finds a nickname's holder and counts a club's players by index
instead of reading the whole tournament (a team's members by index too); a nickname held
twice at once is refused

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

# The keys are the ones the repository writes: the rule's own function.
from domain.validation import nickname_key

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None

HOLDING = "status IN ('registered', 'waiting')"


def upgrade() -> None:
    # Plain ADD COLUMNs (nullable): SQLite adds them without rebuilding a table others
    # refer to.
    op.add_column("participants", sa.Column("nickname_key", sa.String(), nullable=True))
    op.add_column("participants", sa.Column("club_key", sa.String(), nullable=True))
    _fill_keys()
    op.create_index(
        "uq_participants_holding_nickname",
        "participants",
        ["tournament_id", "nickname_key"],
        unique=True,
        sqlite_where=sa.text(HOLDING),
        postgresql_where=sa.text(HOLDING),
    )
    op.create_index("ix_participants_club_key", "participants", ["tournament_id", "club_key"])
    op.create_index(op.f("ix_participants_team_id"), "participants", ["team_id"])


def _fill_keys() -> None:
    """Every stored participant's keys, computed here (SQL has no NFKC nor case folding).
    Two participants holding one nickname in a tournament (a file imported before the rule
    was kept by the storage) stop the upgrade, naming them: one is renamed first."""
    bind = op.get_bind()
    rows = bind.execute(
        sa.text(f"SELECT id, tournament_id, nickname, club, {HOLDING} AS holds FROM participants")
    ).all()
    holders: dict[tuple[int, str], int] = {}
    clashes = []
    for row in rows:
        key = (row.tournament_id, nickname_key(row.nickname))
        if row.holds and key in holders:
            clashes.append(f"tournament {key[0]}: participants {holders[key]} and {row.id}")
        elif row.holds:
            holders[key] = row.id
    if clashes:
        raise RuntimeError("one nickname held twice, rename one: " + "; ".join(clashes))
    fill = sa.text(
        "UPDATE participants SET nickname_key = :nickname, club_key = :club WHERE id = :id"
    )
    keys = [
        {"id": row.id, "nickname": nickname_key(row.nickname), "club": nickname_key(row.club)}
        for row in rows
    ]
    if keys:
        bind.execute(fill, keys)


def downgrade() -> None:
    op.drop_index(op.f("ix_participants_team_id"), table_name="participants")
    op.drop_index("ix_participants_club_key", table_name="participants")
    op.drop_index("uq_participants_holding_nickname", table_name="participants")
    # SQLite (3.35 on) drops a column in place: no rebuild of a table others refer to.
    op.drop_column("participants", "club_key")
    op.drop_column("participants", "nickname_key")
