"""Start-up checks: the database, Redis and Telegram are reachable and the token is accepted.

A service that cannot be reached yet (a network fault, a server still starting) is tried again
with a growing pause for up to `STARTUP_TIMEOUT` seconds; anything else, or a service still
unreachable then, ends start-up with `StartupError`: one line naming the cause and what to do.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from aiogram.exceptions import (
    ClientDecodeError,
    TelegramAPIError,
    TelegramNetworkError,
    TelegramServerError,
    TelegramUnauthorizedError,
)
from aiogram.utils.backoff import Backoff, BackoffConfig
from sqlalchemy.exc import DBAPIError

from bot.config import Settings
from bot.db.engine import create_engine
from bot.errors import StartupError, TokenRefused

log = logging.getLogger(__name__)

RETRY_BACKOFF = BackoffConfig(min_delay=1.0, max_delay=15.0, factor=2.0, jitter=0.1)
T = TypeVar("T")


def _reason(error: BaseException) -> str:
    text = " ".join(str(error).split()) or type(error).__name__
    return text.split(" (Background on this error")[0]


async def _retrying(
    what: str,
    attempt: Callable[[], Awaitable[T]],
    transient: tuple[type[BaseException], ...],
    timeout: float,
    advice: str,
) -> T:
    loop = asyncio.get_running_loop()
    # The pauses are counted from the first refusal: a first attempt slowed by a loaded
    # machine (the Telegram client's import) must not use up the time for retrying.
    deadline: float | None = None
    backoff = Backoff(RETRY_BACKOFF)
    while True:
        try:
            return await attempt()
        except transient as error:
            deadline = loop.time() + timeout if deadline is None else deadline
            delay = next(backoff)
            if loop.time() + delay > deadline:
                raise StartupError(f"cannot reach {what} ({_reason(error)}); {advice}") from None
            log.warning("cannot reach %s (%s); retrying in %.0f s", what, _reason(error), delay)
            await asyncio.sleep(delay)


async def _database(settings: Settings) -> None:
    engine = create_engine(settings.database_url)
    try:
        async with engine.connect():
            pass
    except DBAPIError as error:
        raise StartupError(
            f"the database refused the connection ({_reason(error.orig or error)}); "
            "check DATABASE_URL"
        ) from None
    finally:
        await engine.dispose()


async def _redis(url: str) -> None:
    from redis.asyncio import from_url
    from redis.exceptions import AuthenticationError, ResponseError

    client = from_url(url)
    try:
        await client.ping()
    except (AuthenticationError, ResponseError) as error:
        raise StartupError(
            f"Redis refused the connection ({_reason(error)}); check REDIS_URL"
        ) from None
    finally:
        await client.aclose()


async def _telegram(settings: Settings) -> None:
    from bot.app import build_bot

    bot = build_bot(settings)
    try:
        await bot.get_me()
    except TelegramUnauthorizedError:
        raise TokenRefused() from None
    except (TelegramNetworkError, TelegramServerError, ClientDecodeError):
        raise
    except TelegramAPIError as error:
        raise StartupError(
            f"Telegram refused the bot ({_reason(error)}); check BOT_TOKEN and TELEGRAM_API_BASE"
        ) from None
    finally:
        await bot.session.close()


async def check_services(settings: Settings) -> None:
    """Wait until the database, Redis (when configured) and Telegram answer; `StartupError`
    when one of them refuses or stays unreachable for `settings.startup_timeout` seconds."""
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import TimeoutError as RedisTimeoutError

    timeout = settings.startup_timeout
    await _retrying(
        "the database",
        lambda: _database(settings),
        (OSError, asyncio.TimeoutError),
        timeout,
        "is it running? check DATABASE_URL",
    )
    if settings.redis_url:
        redis_url = settings.redis_url
        await _retrying(
            "Redis",
            lambda: _redis(redis_url),
            (RedisConnectionError, RedisTimeoutError, OSError),
            timeout,
            "is it running? check REDIS_URL",
        )
    await _retrying(
        "Telegram",
        lambda: _telegram(settings),
        (TelegramNetworkError, TelegramServerError, ClientDecodeError),
        timeout,
        "check the network (and TELEGRAM_API_BASE if set)",
    )
