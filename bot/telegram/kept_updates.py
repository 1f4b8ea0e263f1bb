"""Updates a stop could not finish, kept and handled after the restart (long polling).

Long polling confirms an update to Telegram with the next getUpdates, long before its handler
ends: an update still being handled when the bot stops (its handler cancelled after
`STOP_HANDLERS_SECONDS`) would be gone for good, and its sender never answered. The stop keeps
such updates in the conversations' storage (the database, or Redis: wherever the next start
looks), and the next start hands them to the Dispatcher before it polls. A kept update is
handled afresh; its cancelled handler may have done part of its work (a reply sent, a change
stored), as after a crash, which the use cases' own checks make harmless.

In webhook mode nothing is kept: an update not answered is delivered again by Telegram.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from aiogram import Bot, Dispatcher
from aiogram.fsm.storage.base import BaseStorage, StorageKey
from aiogram.types import Update

log = logging.getLogger(__name__)

DESTINY = "kept_updates"


def _key(bot: Bot) -> StorageKey:
    # No chat or person has id 0: the key is the bot's own.
    return StorageKey(bot_id=bot.id, chat_id=0, user_id=0, destiny=DESTINY)


async def keep(storage: BaseStorage, bot: Bot, updates: list[Update]) -> None:
    """Keep `updates` (beside any kept already) for the next start."""
    kept = (await storage.get_data(_key(bot))).get("updates", [])
    kept += [update.model_dump(mode="json", exclude_none=True) for update in updates]
    await storage.set_data(_key(bot), {"updates": kept})
    log.warning(
        "%d updates were still being handled at the stop: kept, to be handled after the restart",
        len(updates),
    )


async def take(storage: BaseStorage, bot: Bot) -> list[Update]:
    """The updates the last stop kept, no longer kept."""
    kept: list[dict[str, Any]] = (await storage.get_data(_key(bot))).get("updates", [])
    if kept:
        await storage.set_data(_key(bot), {})
    return [Update.model_validate(update, context={"bot": bot}) for update in kept]


def handle_at_start(dispatcher: Dispatcher, bot: Bot) -> None:
    """Once the Dispatcher has started, hand it the updates the last stop kept."""
    tasks: set[asyncio.Task[Any]] = set()

    async def handle_kept() -> None:
        updates = await take(dispatcher.storage, bot)
        if updates:
            log.info("handling %d updates kept by the last stop", len(updates))
        for update in updates:
            task = asyncio.create_task(dispatcher.feed_update(bot, update))
            tasks.add(task)  # held until done: the loop keeps only weak references
            task.add_done_callback(tasks.discard)

    dispatcher.startup.register(handle_kept)
