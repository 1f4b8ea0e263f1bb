"""Synchronous filters run on the event loop, not in a thread each.

aiogram 3 calls every synchronous callable of a router (`F.chat.type == "private"`, a lambda
filter) through `asyncio.to_thread`. The bot's filters are cheap attribute reads, but an
update offered to fourteen routers made some thirty thread hand-offs, each waiting for the
GIL behind the database's threads (up to the 5 ms switch interval each on a busy process):
most of a plain command's time, and its worst cases. `run_filters_inline` turns each such
filter into a coroutine function calling it directly, once, after the routers are included.
Handlers are coroutine functions already; a synchronous one is left to aiogram's thread."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from aiogram import Router
from aiogram.dispatcher.event.handler import CallableObject, FilterObject


def _filters(router: Router) -> Iterator[FilterObject]:
    for observer in router.observers.values():
        yield from observer._handler.filters or ()  # the router-wide filters
        for handler in observer.handlers:
            yield from handler.filters or ()
    for child in router.sub_routers:
        yield from _filters(child)


def _inline(callable_object: CallableObject) -> None:
    sync = callable_object.callback

    async def call(*args: Any, **kwargs: Any) -> Any:
        return sync(*args, **kwargs)

    # The keyword arguments it takes were read from the synchronous callable already.
    callable_object.callback = call
    callable_object.awaitable = True


def run_filters_inline(router: Router) -> int:
    """Make every synchronous filter under `router` run on the loop; how many there were."""
    count = 0
    for event_filter in _filters(router):
        if not event_filter.awaitable:
            _inline(event_filter)
            count += 1
    return count
