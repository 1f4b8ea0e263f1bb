"""The lot on both databases: a qualifying over with its cut line in a tie, the chief judge's
decision stored, audited, told to the channel, and the semifinal seated after it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.db.uow import SqlUnitOfWorkFactory
from bot.rendering.standings_posts import ChannelStandings
from domain.outgoing import DeliveryStatus
from domain.permissions import Forbidden
from domain.protests import AuditKind
from domain.services import lots, protocols, rounds
from domain.validation import Invalid
from tests.integration.test_rounds_setup import (
    CHIEF_JUDGE,
    NOW,
    ORGANIZER,
    Seeded,
    seed_tournament,
)
from tests.unit.protocol_builders import protocol

PRESENTER = ChannelStandings("ru")


async def _qualifying_played(uow_factory: SqlUnitOfWorkFactory) -> Seeded:
    """Thirty players, every qualifying game a red win with the same roles by seat: the
    twentieth and twenty-first places are equal on every tie-breaker."""
    seeded = await seed_tournament(uow_factory, players=30)
    preview = await rounds.start_stage(
        uow_factory, seeded.tournament.id, ORGANIZER, (), NOW, seed=3, swaps=2_000
    )
    async with uow_factory() as uow:
        for round_ in preview.stage.rounds:
            for game in round_.games:
                assert await uow.protocols.advance_game(game.id, 0, None)
                players = [str(player) for player in game.players]
                await uow.protocols.store(game.id, protocol(players), ORGANIZER, NOW)
        await uow.commit()
    return seeded


async def _next_stage(uow_factory: SqlUnitOfWorkFactory, seeded: Seeded) -> None:
    async with uow_factory() as uow:
        tournament = await uow.tournaments.get(seeded.tournament.id)
        assert tournament is not None
        await uow.tournaments.save(replace(tournament, current_stage="semifinal"))
        await uow.commit()


async def test_the_chief_judge_orders_the_tie_at_the_cut_and_the_semifinal_is_seated(
    uow_factory: SqlUnitOfWorkFactory,
) -> None:
    seeded = await _qualifying_played(uow_factory)
    tid = seeded.tournament.id
    case = await lots.lot_case(uow_factory, tid, CHIEF_JUDGE)
    assert case.tie is not None and case.tie.context == "cut qualifying"
    assert len(case.tie.tied) >= 2 and case.seed is None
    with pytest.raises(Forbidden):
        await lots.lot_case(uow_factory, tid, seeded.judges[0])
    with pytest.raises(Invalid) as refused:
        await lots.draw_lot(uow_factory, tid, CHIEF_JUDGE, [1, 1], presenter=PRESENTER, now=NOW)
    assert refused.value.code == "lot-order-invalid"
    entered = list(range(len(case.tie.tied), 0, -1))
    decision = await lots.draw_lot(
        uow_factory, tid, CHIEF_JUDGE, entered, presenter=PRESENTER, now=NOW
    )
    assert decision.method == "order"
    assert decision.order == tuple(reversed(case.tie.tied))
    # Decided once: a second press (another device) finds nothing to decide.
    with pytest.raises(Invalid) as again:
        await lots.draw_lot(uow_factory, tid, CHIEF_JUDGE, None, presenter=PRESENTER, now=NOW)
    assert again.value.code == "lot-nothing-to-decide"
    assert (await lots.lot_case(uow_factory, tid, CHIEF_JUDGE)).tie is None
    standings = await protocols.current_standings(uow_factory, tid)
    cut = next(cut for cut in standings.cuts if cut.stage == "qualifying")
    assert not cut.needs_lot and cut.settled_by_lot and len(cut.advancing) == 20
    # The judge's first pick crosses the line, his last does not.
    assert decision.order[0] in cut.advancing and decision.order[-1] not in cut.advancing
    assert any(row.lot for row in standings.players)
    async with uow_factory() as uow:
        audit = await uow.protests.audit(tid)
        told = await uow.outbox.status_of(f"lot:{decision.id}")
        live = await uow.outbox.status_of(f"standings-live:{tid}:lot:{decision.id}")
    assert [e.kind for e in audit] == [AuditKind.LOT_DRAWN]
    assert decision.seed in audit[0].text
    # The channel is told the lot and its live table is edited, in the decision's transaction.
    assert told is DeliveryStatus.PENDING and live is DeliveryStatus.PENDING
    await _next_stage(uow_factory, seeded)
    semifinal = await rounds.start_stage(uow_factory, tid, ORGANIZER, (), NOW, seed=5, swaps=2_000)
    seated = {player for game in semifinal.stage.rounds[0].games for player in game.players}
    assert {str(player) for player in seated} == set(cut.advancing)


async def test_the_next_stage_waits_for_the_lot_and_a_seed_draw_settles_it(
    uow_factory: SqlUnitOfWorkFactory,
) -> None:
    seeded = await _qualifying_played(uow_factory)
    tid = seeded.tournament.id
    await _next_stage(uow_factory, seeded)
    with pytest.raises(Invalid) as waiting:
        await rounds.start_stage(uow_factory, tid, ORGANIZER, (), NOW, seed=5, swaps=2_000)
    assert waiting.value.code == "stage-cut-needs-lot"
    async with uow_factory() as uow:
        tournament = await uow.tournaments.get(tid)
        assert tournament is not None
        await uow.tournaments.save(replace(tournament, current_stage="qualifying"))
        await uow.commit()
    decision = await lots.draw_lot(
        uow_factory, tid, CHIEF_JUDGE, None, presenter=PRESENTER, now=NOW
    )
    assert decision.method == "seed" and sorted(decision.order) == sorted(decision.tie.tied)
    await _next_stage(uow_factory, seeded)
    semifinal = await rounds.start_stage(uow_factory, tid, ORGANIZER, (), NOW, seed=5, swaps=2_000)
    assert sum(len(game.players) for game in semifinal.stage.rounds[0].games) == 20
