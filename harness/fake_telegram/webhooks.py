"""The fake Telegram calling the bot's webhook, as Telegram does once `setWebhook` was called.

Updates go out one request each; a chat's updates in order (its next update waits for the
answer to the previous one), different chats' at once. A delivery that fails (no answer, not a
2xx) is tried again, on the next address. Given several addresses (replicas behind a load
balancer), deliveries go round-robin; `duplicate_every` delivers every n-th update a second time
to the next address, as Telegram does when it missed the answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections.abc import Callable
from typing import Any

import aiohttp

from harness.fake_telegram.state import World

log = logging.getLogger(__name__)

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
RETRY_SECONDS = 0.5
REQUEST_SECONDS = 120.0


def update_chat(update: dict[str, Any]) -> int:
    """The chat whose updates must keep their order."""
    for kind in ("message", "edited_message", "channel_post", "my_chat_member"):
        if kind in update:
            return int(update[kind]["chat"]["id"])
    if "callback_query" in update:
        return int(update["callback_query"]["from"]["id"])
    return 0


class WebhookDelivery:
    """Pushes the world's updates to `addresses()` (the registered webhook when not given)."""

    def __init__(
        self,
        world: World,
        addresses: Callable[[], list[str]],
        secret: Callable[[], str | None],
        clock: Callable[[], float],
        duplicate_every: int = 0,
        on_handed: Callable[[dict[str, Any], float], None] | None = None,
        busy: Callable[[int], None] | None = None,
    ) -> None:
        self._world = world
        self._addresses = addresses
        self._secret = secret
        self._clock = clock
        self._duplicate_every = duplicate_every
        self._on_handed = on_handed
        self._busy = busy or (lambda _: None)
        self._turn = itertools.count()
        self._chats_busy: set[int] = set()
        self._taken: set[int] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        self.deliveries = 0  # requests made, duplicates and retries included
        self.duplicates = 0  # deliveries of an update already answered with 2xx
        self.failures = 0  # deliveries without a 2xx answer

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="fake-telegram-webhooks")

    async def stop(self) -> None:
        self._stopping = True
        self._world.update_queued.fire()
        for task in [self._task, *self._tasks]:
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    async def _run(self) -> None:
        timeout = aiohttp.ClientTimeout(total=REQUEST_SECONDS)
        async with aiohttp.ClientSession(timeout=timeout) as http:
            while not self._stopping:
                if self._addresses():
                    for update in list(self._world.updates):
                        chat = update_chat(update)
                        if update["update_id"] in self._taken or chat in self._chats_busy:
                            continue
                        self._taken.add(update["update_id"])
                        self._chats_busy.add(chat)
                        task = asyncio.create_task(self._deliver(http, update, chat))
                        self._tasks.add(task)
                        task.add_done_callback(self._tasks.discard)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._world.update_queued.wait(), RETRY_SECONDS)

    async def _deliver(
        self, http: aiohttp.ClientSession, update: dict[str, Any], chat: int
    ) -> None:
        self._busy(+1)
        world = self._world
        world.delivered_update_id = max(world.delivered_update_id, update["update_id"])
        if self._on_handed is not None:
            self._on_handed(update, self._clock())
        try:
            while not await self._post(http, update):
                await asyncio.sleep(RETRY_SECONDS)
            if self._duplicate_every and update["update_id"] % self._duplicate_every == 0:
                self.duplicates += 1
                await self._post(http, update)
            with contextlib.suppress(ValueError):
                self._world.updates.remove(update)
        finally:
            self._chats_busy.discard(chat)
            self._busy(-1)
            self._world.update_queued.fire()  # the chat's next update may go
            self._world.activity.fire()

    async def _post(self, http: aiohttp.ClientSession, update: dict[str, Any]) -> bool:
        addresses = self._addresses()
        if not addresses:
            return False
        address = addresses[next(self._turn) % len(addresses)]
        headers = {SECRET_HEADER: secret} if (secret := self._secret()) else {}
        self.deliveries += 1
        try:
            async with http.post(address, json=update, headers=headers) as answer:
                await answer.read()
                if 200 <= answer.status < 300:
                    return True
        except (aiohttp.ClientError, TimeoutError) as error:
            log.debug("webhook %s did not answer: %s", address, error)
        self.failures += 1
        return False
