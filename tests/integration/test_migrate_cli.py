"""`mafiatour migrate` as the README's upgrade and roll-back steps use it."""

from __future__ import annotations

from bot.db.migrate import revisions
from tests.operations import mafiatour


async def test_one_migration_rolled_back_and_applied_again(database_url: str) -> None:
    head, before_head = revisions()[-1], revisions()[-2]
    assert await mafiatour(database_url, "migrate") == (0, f"database at revision {head}", "")
    assert await mafiatour(database_url, "migrate", "--down") == (
        0,
        f"database at revision {before_head}",
        "",
    )
    assert await mafiatour(database_url, "migrate") == (0, f"database at revision {head}", "")


async def test_an_unknown_revision_is_one_line(database_url: str) -> None:
    status, out, err = await mafiatour(database_url, "migrate", "--down", "0999")
    assert (status, out) == (2, "")
    assert err == "mafiatour: cannot migrate to 0999: Can't locate revision identified by '0999'"
