"""The organizer's card kept current by itself: a card that waits for a protest window to close
(its stage's move held back) is edited in place when the window closes, with nobody pressing
anything. The card a handler sent is anchored under a key of its own, and an edit of it is
scheduled for that moment, drawn when sent (`handlers.card_drawer`) as the card then stands. A
card drawn so that still waits (a correction moved the last window later meanwhile) is edited
again when that window closes, and so on until it waits no more."""

from __future__ import annotations

from datetime import datetime

from domain.actor import Actor
from domain.outgoing import Drawing, OutgoingMessage, ScheduledPush
from domain.permissions import Action
from domain.services.access import authorize
from domain.services.ports import UnitOfWork, UnitOfWorkFactory

# The drawer the outbox worker draws a card's edit with (handed in by the composition root).
TOURNAMENT_CARD = "tournament-card"


def card_key(tournament_id: int, user_id: int) -> str:
    """The edit-in-place key of a person's card of a tournament (the last one he opened)."""
    return f"card:{tournament_id}:{user_id}"


def card_drawing(tournament_id: int, user_id: int, moment: datetime) -> Drawing:
    """The card as it stands when the edit is sent (at `moment` at the earliest), for the
    person who opened it."""
    return Drawing.of(
        TOURNAMENT_CARD, tournament=tournament_id, user=user_id, at=moment.isoformat()
    )


class CardUpdateService:
    """The tournament's card kept current where it was posted."""

    def __init__(self, uow: UnitOfWorkFactory) -> None:
        self._uow = uow

    async def keep_card_current(
        self,
        actor: Actor,
        tournament_id: int,
        message_id: int,
        changes_at: datetime,
    ) -> None:
        """The card just sent to the actor as `message_id` is edited at `changes_at` (when the
        last protest window holding its stage closes): the held move then appears by itself. A
        card opened later takes the edit over (one push per person and tournament)."""
        key = card_key(tournament_id, actor.user_id)
        async with self._uow() as uow:
            tournament = await authorize(uow, actor, tournament_id, Action.VIEW_CARD)
            await uow.outbox.anchor_message(key, actor.user_id, message_id)
            await _schedule_edit(uow, actor, tournament.id, changes_at, f"{message_id}")
            await uow.commit()

    async def keep_drawn_card_current(
        self, actor: Actor, tournament_id: int, changes_at: datetime
    ) -> None:
        """The card just drawn in place still waits, now until `changes_at`: it is edited again
        then (whichever card of the tournament the person holds: the anchor stays)."""
        async with self._uow() as uow:
            tournament = await authorize(uow, actor, tournament_id, Action.VIEW_CARD)
            await _schedule_edit(uow, actor, tournament.id, changes_at, "drawn")
            await uow.commit()


async def _schedule_edit(
    uow: UnitOfWork, actor: Actor, tournament_id: int, changes_at: datetime, origin: str
) -> None:
    """The edit of the person's card at `changes_at` (one push per person and tournament: a
    later one replaces it); `origin` tells apart the edits of one moment."""
    key = card_key(tournament_id, actor.user_id)
    message = OutgoingMessage(
        chat_id=actor.user_id,
        text_drawing=card_drawing(tournament_id, actor.user_id, changes_at),
        edit_key=key,
        tournament_id=tournament_id,
        dedupe_key=f"{key}:{origin}:{changes_at.isoformat()}",
    )
    await uow.scheduled_pushes.schedule(ScheduledPush(key, changes_at, message))
