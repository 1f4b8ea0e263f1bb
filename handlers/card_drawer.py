"""The organizer's card drawn when the outbox edits it in place (`domain.services.card_updates`):
the same text and keyboard as the card a press opens, as the card stands at the moment it is
sent. Handed to the outbox worker by the composition root (the worker imports no handler)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from aiogram import Bot

from bot.config import Settings
from bot.delivery.writer import Drawer, DrawnScreen
from domain.actor import Actor
from domain.services.card_updates import TOURNAMENT_CARD
from domain.services.catalog import Services
from handlers.middlewares import Texts
from handlers.organizer_views import card_screen


class CardDrawer:
    """Draws a `tournament-card` edit for the person it names, in his language."""

    def __init__(self, services: Services, bot: Bot, settings: Settings) -> None:
        self._services = services
        self._bot = bot
        self._settings = settings

    async def __call__(
        self, args: Mapping[str, str | int], locale: str, now: datetime
    ) -> DrawnScreen:
        # Drawn as of the window's close at the earliest (the worker's clock may lag the
        # clock the push fell due by, as a test's or a simulation's does).
        moment = max(now, datetime.fromisoformat(str(args["at"])))
        actor = Actor.of(int(args["user"]), moment, self._settings.admin_ids)
        tournament_id = int(args["tournament"])
        card = await self._services.tournaments.tournament_card(actor, tournament_id)
        if card.changes_at is not None and card.changes_at > moment:
            # Still waiting (a correction moved the last window later): edited again then.
            await self._services.card_updates.keep_drawn_card_current(
                actor, tournament_id, card.changes_at
            )
        texts = Texts(locale)
        text, keyboard = await card_screen(
            card, texts, self._bot, self._settings.web_base_url, self._services
        )
        return DrawnScreen(texts.phrase(text), keyboard)


def screen_drawers(services: Services, bot: Bot, settings: Settings) -> dict[str, Drawer]:
    """The screens the outbox keeps current in place, by the name their drawings give."""
    return {TOURNAMENT_CARD: CardDrawer(services, bot, settings)}
