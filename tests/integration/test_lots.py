"""The lot on both databases: a qualifying over with its cut line in a tie, the chief judge
alerted by the last confirmation, his decision stored, audited, told to the channel, and the
semifinal seated after it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.db.uow import SqlUnitOfWorkFactory
from domain.actor import Actor
from domain.intents import OpenLot
from domain.outgoing import DeliveryStatus, OutgoingMessage
from domain.permissions import Forbidden
from domain.protests import AuditKind
from domain.protocol import ProtocolDraft
from domain.protocol_screen import Mode, Screen
from domain.services import tie_decisions
from domain.services.catalog import Services
from domain.validation import Invalid
from tests.factories import (
    CHIEF_JUDGE,
    NOW,
    ORGANIZER,
    Seeded,
    seed_tournament,
)
from tests.unit.protocol_builders import protocol


async def _qualifying_played(
    uow_factory: SqlUnitOfWorkFactory, services: Services, *, confirm_the_last: bool = False
) -> Seeded:
    """Thirty players, every qualifying game a red win with the same roles by seat: the
    twentieth and twenty-first places are equal on every tie-breaker. With `confirm_the_last`
    the last game's protocol is confirmed by the chief judge, as the protocol screen does."""
    seeded = await seed_tournament(uow_factory, players=30)
    preview = await services.rounds_seating.start_stage(
        Actor(ORGANIZER, NOW), seeded.tournament.id, seed=1, swaps=2_000
    )
    last = preview.stage.rounds[-1].games[-1]
    async with uow_factory() as uow:
        for round_ in preview.stage.rounds:
            for game in round_.games:
                if confirm_the_last and game.id == last.id:
                    continue
                assert await uow.protocols.advance_game(game.id, 0, None)
                players = [str(player) for player in game.players]
                await uow.protocols.store(game.id, protocol(players), ORGANIZER, NOW)
        await uow.commit()
    if confirm_the_last:
        for number in range(1, len(preview.stage.rounds) + 1):
            await services.rounds_publication.publish_round(
                Actor(ORGANIZER, NOW), seeded.tournament.id, number
            )
        filled = protocol([str(player) for player in last.players])
        async with uow_factory() as uow:
            screen = Screen(ProtocolDraft.from_protocol(filled), mode=Mode.WINNER)
            assert await uow.protocols.add_draft(last.id, screen, CHIEF_JUDGE, NOW)
            await uow.commit()
        await services.protocols.confirm_protocol(Actor(CHIEF_JUDGE, NOW), last.id)
    return seeded


async def _lot_alerts(uow_factory: SqlUnitOfWorkFactory) -> list[OutgoingMessage]:
    """The "lot needed" alerts waiting in the outbox (claimed, so each is read once)."""
    async with uow_factory() as uow:
        claimed = await uow.outbox.claim([i.id for i in await uow.outbox.waiting(1_000)], "test")
        await uow.commit()
    messages = [item.message for item in claimed]
    return [m for m in messages if m.phrase is not None and m.phrase.key == "lot-needed"]


async def test_the_last_confirmation_alerts_the_chief_judge_once_with_a_button_to_the_lot(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    seeded = await _qualifying_played(uow_factory, services, confirm_the_last=True)
    tid = seeded.tournament.id
    case = await services.tie_decisions.lot_case(Actor(CHIEF_JUDGE, NOW), tid)
    assert case.tie is not None
    # Only the chief judge is alerted: the table judges cannot draw the lot.
    (alert,) = await _lot_alerts(uow_factory)
    assert alert.chat_id == CHIEF_JUDGE and alert.phrase is not None
    args = alert.phrase.arguments
    assert (args["where"], args["count"]) == ("cut", len(case.tie.tied))
    assert args["names"] == ", ".join(case.names)
    ((button,),) = alert.buttons
    assert button.intent == OpenLot(tid)
    # The same tie is told once, however often the results change around it.
    async with uow_factory() as uow:
        tournament = await uow.tournaments.get(tid)
        assert tournament is not None
        await tie_decisions.alert_lot_needed(uow, tournament)
        await uow.commit()
    assert await _lot_alerts(uow_factory) == []


async def _next_stage(uow_factory: SqlUnitOfWorkFactory, seeded: Seeded) -> None:
    async with uow_factory() as uow:
        tournament = await uow.tournaments.get(seeded.tournament.id)
        assert tournament is not None
        await uow.tournaments.save(replace(tournament, current_stage="semifinal"))
        await uow.commit()


async def test_the_chief_judge_orders_the_tie_at_the_cut_and_the_semifinal_is_seated(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    seeded = await _qualifying_played(uow_factory, services)
    tid = seeded.tournament.id
    case = await services.tie_decisions.lot_case(Actor(CHIEF_JUDGE, NOW), tid)
    assert case.tie is not None and case.tie.context == "cut qualifying"
    assert len(case.tie.tied) >= 2 and case.seed is None
    with pytest.raises(Forbidden):
        await services.tie_decisions.lot_case(Actor(seeded.judges[0], NOW), tid)
    with pytest.raises(Invalid) as refused:
        await services.tie_decisions.draw_lot(
            Actor(CHIEF_JUDGE, NOW), tid, [1, 1], fresh_seed="f00d"
        )
    assert refused.value.code == "lot-order-invalid"
    entered = list(range(len(case.tie.tied), 0, -1))
    decision = await services.tie_decisions.draw_lot(
        Actor(CHIEF_JUDGE, NOW), tid, entered, fresh_seed="f00d"
    )
    assert decision.method == "order"
    assert decision.order == tuple(reversed(case.tie.tied))
    # Decided once: a second press (another device) finds nothing to decide.
    with pytest.raises(Invalid) as again:
        await services.tie_decisions.draw_lot(Actor(CHIEF_JUDGE, NOW), tid, None, fresh_seed="f00d")
    assert again.value.code == "lot-nothing-to-decide"
    assert (await services.tie_decisions.lot_case(Actor(CHIEF_JUDGE, NOW), tid)).tie is None
    standings = await services.standings.current_standings(tid)
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
    semifinal = await services.rounds_seating.start_stage(
        Actor(ORGANIZER, NOW), tid, seed=5, swaps=2_000
    )
    seated = {player for game in semifinal.stage.rounds[0].games for player in game.players}
    assert {str(player) for player in seated} == set(cut.advancing)


async def test_the_next_stage_waits_for_the_lot_and_a_seed_draw_settles_it(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    seeded = await _qualifying_played(uow_factory, services)
    tid = seeded.tournament.id
    await _next_stage(uow_factory, seeded)
    with pytest.raises(Invalid) as waiting:
        await services.rounds_seating.start_stage(Actor(ORGANIZER, NOW), tid, seed=5, swaps=2_000)
    assert waiting.value.code == "stage-cut-needs-lot"
    async with uow_factory() as uow:
        tournament = await uow.tournaments.get(tid)
        assert tournament is not None
        await uow.tournaments.save(replace(tournament, current_stage="qualifying"))
        await uow.commit()
    decision = await services.tie_decisions.draw_lot(
        Actor(CHIEF_JUDGE, NOW), tid, None, fresh_seed="f00d"
    )
    assert decision.method == "seed" and sorted(decision.order) == sorted(decision.tie.tied)
    assert decision.seed == "f00d"
    await _next_stage(uow_factory, seeded)
    semifinal = await services.rounds_seating.start_stage(
        Actor(ORGANIZER, NOW), tid, seed=5, swaps=2_000
    )
    assert sum(len(game.players) for game in semifinal.stage.rounds[0].games) == 20
