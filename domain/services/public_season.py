"""What the public pages need of the season beside `domain.services.season`'s views: the
registration links of a series' upcoming tournaments (their `/start` payloads; the page
writes the t.me address)."""

from __future__ import annotations

from collections.abc import Iterable

from domain.invites import InviteKind
from domain.services.ports import UnitOfWorkFactory


async def registration_payloads(
    uow_factory: UnitOfWorkFactory, tournament_ids: Iterable[int]
) -> dict[int, str]:
    """The `/start` payload of each tournament's shared registration link (a tournament
    without one is left out: its card makes it on first need)."""
    payloads = {}
    async with uow_factory() as uow:
        for tournament_id in tournament_ids:
            invite = await uow.invites.find(InviteKind.REGISTRATION, tournament_id)
            if invite is not None:
                payloads[tournament_id] = invite.payload
    return payloads
