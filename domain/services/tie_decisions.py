"""Use cases of the lot: the chief judge sees the tie only a lot settles and decides it.

A tie needs the lot when the stage being played is over and its cut line (in the last stage,
a place) is shared by entries equal on every tie-breaker. The chief judge draws by the
tournament's seed (shown to everyone) or enters the order of a physical draw. The decision is
written to the audit log, the channel is told and the live table edited with the standings it
makes, all in one transaction; the next stage can then be seated.

When a change closes the stage (its last protocol confirmed, a correction, an annulment) with
such a tie, the chief judge is told in the same transaction, with a button to the lot screen.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from domain.actor import Actor
from domain.intents import OpenLot
from domain.lot_draw import Lot
from domain.outgoing import Button, Lines, OutgoingMessage, Phrase
from domain.permissions import Action, Forbidden, StaffRole
from domain.player_keys import participant_key
from domain.protests import AuditEntry, AuditKind
from domain.services.access import NotFound
from domain.services.ports import UnitOfWork, UnitOfWorkFactory
from domain.services.standings import compute_current, played_games
from domain.services.standings_posts import publish_live_standings
from domain.tie_decisions import (
    LotDecision,
    Tie,
    decide_tie,
    tie_key,
    ties_to_decide,
)
from domain.tournament import Tournament
from domain.validation import Invalid


@dataclass(frozen=True)
class LotCase:
    """What the chief judge's lot screen shows: the tie to decide (None: nothing to decide),
    the names of its entries in `tie.tied` order, and the order the tournament's seed gives
    them when a seed is already recorded (None before the first decision)."""

    tournament: Tournament
    tie: Tie | None
    names: tuple[str, ...]
    seed: str | None
    seed_order: tuple[str, ...] | None


async def _chief_judge(uow: UnitOfWork, actor: Actor, tournament_id: int) -> Tournament:
    tournament = await uow.tournaments.get(tournament_id)
    if tournament is None:
        raise NotFound(f"tournament {tournament_id}")
    if StaffRole.CHIEF_JUDGE not in await uow.staff.roles(tournament_id, actor.user_id):
        raise Forbidden(Action.EXCLUDE)
    return tournament


async def _stage_complete(uow: UnitOfWork, tournament: Tournament) -> bool:
    """Every game of the stage being played has a confirmed protocol."""
    stage = tournament.current_stage
    if stage is None:
        return False
    # One light query (no seats, no protocol bodies): each confirmation asks.
    places = await uow.rounds.game_places(tournament.id, stage)
    return bool(places) and all(place.confirmed for place in places)


async def _open_tie(uow: UnitOfWork, tournament: Tournament) -> Tie | None:
    """The first tie that needs the lot and that no decision settles yet."""
    standings = await compute_current(uow, tournament)
    complete = await _stage_complete(uow, tournament)
    ties = ties_to_decide(standings, tournament.current_stage, complete)
    return ties[0] if ties else None


async def _names(uow: UnitOfWork, tournament: Tournament, tie: Tie) -> tuple[str, ...]:
    if tie.unit == "teams":
        teams = await uow.teams.of_tournament(tournament.id)
        named = {participant_key(t.id): t.name for t in teams}
    else:
        players = await uow.participants.of_tournament(tournament.id)
        named = {participant_key(p.id): p.nickname for p in players}
    return tuple(named.get(entry, entry) for entry in tie.tied)


class TieDecisionService:
    """Ties decided by lot by the chief judge."""

    def __init__(self, uow: UnitOfWorkFactory) -> None:
        self._uow = uow

    async def chief_judged(self, actor: Actor) -> list[Tournament]:
        """The tournaments the person is the chief judge of: the ones whose ties he decides."""
        async with self._uow() as uow:
            return [
                tournament
                for tournament in await uow.tournaments.of_person(actor.user_id)
                if StaffRole.CHIEF_JUDGE in await uow.staff.roles(tournament.id, actor.user_id)
            ]

    async def lot_case(self, actor: Actor, tournament_id: int) -> LotCase:
        """The tie the chief judge is asked to decide (`Forbidden` for anyone but him)."""
        async with self._uow() as uow:
            tournament = await _chief_judge(uow, actor, tournament_id)
            tie = await _open_tie(uow, tournament)
            if tie is None:
                return LotCase(tournament, None, (), None, None)
            decisions = await uow.lots.of_tournament(tournament.id)
            seed = decisions[0].seed if decisions else None
            seed_order = Lot(seed=seed).arrange(tie.unit, tie.tied) if seed is not None else None
            return LotCase(tournament, tie, await _names(uow, tournament, tie), seed, seed_order)

    async def draw_lot(
        self,
        actor: Actor,
        tournament_id: int,
        entered: Sequence[int] | None,
        *,
        fresh_seed: str,
    ) -> LotDecision:
        """Decide the open tie: by the tournament's seed when `entered` is None, else by the
        order of the tied entries as the chief judge numbers them on his screen (from 1).
        `fresh_seed` (drawn by the caller) becomes the tournament's seed at its first lot.

        `Invalid("lot-nothing-to-decide")` when no tie waits (another chief judge decided it).
        """
        async with self._uow() as uow:
            tournament = await _chief_judge(uow, actor, tournament_id)
            # The results lock: a protocol confirmed meanwhile cannot change the tie under us,
            # and a second chief judge deciding at once finds the tie decided.
            await uow.protocols.lock_standings(tournament.id)
            tie = await _open_tie(uow, tournament)
            if tie is None:
                raise Invalid("lot-nothing-to-decide")
            decisions = await uow.lots.of_tournament(tournament.id)
            decision = await uow.lots.add(
                decide_tie(
                    tie,
                    decisions,
                    entered,
                    fresh_seed=fresh_seed,
                    tournament_id=tournament.id,
                    judge_id=actor.user_id,
                    now=actor.now,
                )
            )
            names = dict(zip(tie.tied, await _names(uow, tournament, tie), strict=True))
            order = " > ".join(names[entry] for entry in decision.order)
            await uow.protests.log(
                AuditEntry(
                    tournament.id,
                    actor.now,
                    actor.user_id,
                    AuditKind.LOT_DRAWN,
                    f"{tie.context}: {order} ({decision.method}, seed {decision.seed})",
                )
            )
            await _tell_channel(uow, tournament, decision, names)
            await publish_live_standings(
                uow,
                tournament.id,
                await played_games(uow, tournament),
                protocol_key=f"lot:{decision.id}",
                now=actor.now,
            )
            await uow.commit()
            return decision


async def _tell_channel(
    uow: UnitOfWork, tournament: Tournament, decision: LotDecision, names: dict[str, str]
) -> None:
    """Everyone sees the lot: how it was drawn, its seed (to re-run it) and the order."""
    if tournament.channel_id is None:
        return
    lines = tuple(
        Phrase.of("lot-place", place=place, name=names[entry])
        for place, entry in enumerate(decision.order, 1)
    )
    await uow.outbox.add(
        OutgoingMessage(
            chat_id=tournament.channel_id,
            phrase=Phrase.of(
                "lot-drawn-channel",
                tournament=tournament.title,
                where="cut" if decision.tie.context.startswith("cut ") else "places",
                method=decision.method,
                seed=decision.seed,
                order=Lines(lines),
            ),
            tournament_id=tournament.id,
            dedupe_key=f"lot:{decision.id}",
        )
    )


async def alert_lot_needed(uow: UnitOfWork, tournament: Tournament) -> None:
    """Tell the chief judges of every tie the stage closed with that only a lot settles: where
    it is, who is tied, and a button to the lot screen. Called in the transaction of a change
    to the results; each tie is told once, however often the results change around it."""
    if not await _stage_complete(uow, tournament):
        return
    standings = await compute_current(uow, tournament)
    ties = ties_to_decide(standings, tournament.current_stage, stage_complete=True)
    if not ties:
        return
    chiefs = sorted(
        person
        for person, role in await uow.staff.of_tournament(tournament.id)
        if role is StaffRole.CHIEF_JUDGE
    )
    button = Button(Phrase.of("lot-open"), OpenLot(tournament.id))
    for tie in ties:
        names = ", ".join(await _names(uow, tournament, tie))
        phrase = Phrase.of(
            "lot-needed",
            tournament=tournament.title,
            where="cut" if tie.context.startswith("cut ") else "places",
            count=len(tie.tied),
            names=names,
        )
        for chief in chiefs:
            await uow.outbox.add(
                OutgoingMessage(
                    chat_id=chief,
                    phrase=phrase,
                    buttons=((button,),),
                    tournament_id=tournament.id,
                    dedupe_key=f"lot-needed:{tournament.id}:{tie_key(tie)}:{chief}",
                )
            )
