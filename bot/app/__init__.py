"""The composition root: engine, unit of work, Bot, Dispatcher, routers and middlewares."""

from __future__ import annotations

import asyncio
import logging
import signal
from dataclasses import dataclass
from urllib.parse import urlsplit

from aiogram import Bot, Dispatcher
from aiogram.client.default import DefaultBotProperties
from aiogram.client.telegram import PRODUCTION, TelegramAPIServer
from aiogram.enums import ParseMode
from aiogram.fsm.storage.base import BaseEventIsolation, BaseStorage
from aiogram.fsm.storage.memory import SimpleEventIsolation
from aiogram.types import BotCommand, Update
from aiogram.utils.token import extract_bot_id
from aiogram.webhook.aiohttp_server import setup_application
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from bot.app.health_watch import HealthWatch
from bot.clock import JumpingClock, ScaledClock, SystemClock
from bot.config import Settings
from bot.db.engine import create_engine, create_session_factory
from bot.db.fsm_storage import (
    ConversationWritesHeld,
    SenderReadingFSM,
    SqlStorage,
    menu_read_with_state,
    sender_read_with_state,
    standing_read_with_state,
)
from bot.db.migrate import upgrade
from bot.db.uow import SqlUnitOfWorkFactory
from bot.delivery import DeliveryLimits, DeliveryWorker
from bot.delivery.drawers import standings_drawers
from bot.delivery.jobs import utc_now
from bot.delivery.leases import POLLING_LEASE, process_identity
from bot.delivery.limits import Limiter, LocalLimiter
from bot.delivery.scheduler import ReminderScheduler
from bot.delivery.shared_limits import RedisLimiter
from bot.delivery.worker import Pace
from bot.delivery.writer import Writer
from bot.i18n import LOCALES, translator
from bot.metrics import TelegramRequestMetrics, UpdateMetricsMiddleware
from bot.rendering.pictures import StandingsPainter
from bot.seeds import SystemSeeds
from bot.telegram import kept_updates
from bot.telegram.inline_filters import run_filters_inline
from bot.telegram.json_bodies import JsonBodySession
from bot.telegram.menus import CommandMenus
from bot.telegram.polling import UPDATES_AT_ONCE, ConflictGuard
from bot.telegram.replies import ReliableReplies, ReplyScope
from bot.telegram.response_models import HeldResponseModels
from bot.telegram.update_ledger import (
    OnceRequestHandler,
    RedisUpdateLedger,
    SqlUpdateLedger,
    UpdateLedger,
)
from bot.web import build_web_app, serving
from domain.services.catalog import Services, build_services
from domain.services.ports import Clock, SeedSource
from handlers.card_drawer import screen_drawers
from handlers.errors import refusals_answered
from handlers.intents import intent_packer
from handlers.middlewares import KnownUserMiddleware
from handlers.routers import all_routers
from handlers.start import shows_menu
from handlers.start_views import EVERYONE_COMMANDS

log = logging.getLogger(__name__)

# Everyone's menu; staff get their roles' commands in a menu of their own (handlers/start_views.py).
MENU_COMMANDS = EVERYONE_COMMANDS
DEFAULT_WEBHOOK_PATH = "/webhook"


@dataclass
class Application:
    """Everything a running bot is made of; `close()` releases it all."""

    settings: Settings
    engine: AsyncEngine
    uow_factory: SqlUnitOfWorkFactory
    services: Services
    bot: Bot
    dispatcher: Dispatcher
    delivery: DeliveryWorker
    reminders: ReminderScheduler
    health: HealthWatch

    async def close(self) -> None:
        await self.dispatcher.storage.close()
        await self.bot.session.close()
        await self.engine.dispose()


def build_bot(settings: Settings, limiter: Limiter | None = None) -> Bot:
    """A Bot speaking HTML, pointed at Telegram or at `TELEGRAM_API_BASE` when set; its
    direct replies keep Telegram's limits through `limiter` (the outbox's)."""
    if settings.bot_token is None:
        raise ValueError("BOT_TOKEN is required to build the bot")
    base = settings.telegram_api_base
    # Calls without files go as JSON bodies (bot.telegram.json_bodies).
    session = JsonBodySession(api=TelegramAPIServer.from_base(base) if base else PRODUCTION)
    # Replies made while handling an update keep the limits, wait out 429s and retry faults
    # (bot.telegram.replies); registered first, it wraps the metrics, which so count every attempt.
    session.middleware(ReliableReplies(limiter=limiter))
    session.middleware(TelegramRequestMetrics())
    session.middleware(HeldResponseModels())
    return Bot(
        token=settings.bot_token.get_secret_value(),
        session=session,
        default=DefaultBotProperties(parse_mode=ParseMode.HTML),
    )


def _fsm_storage(
    settings: Settings, session_factory: async_sessionmaker[AsyncSession]
) -> tuple[BaseStorage, BaseEventIsolation]:
    # Redis when configured (several bot processes share it); otherwise the database, so
    # wizard progress survives a restart either way.
    if settings.redis_url:
        from aiogram.fsm.storage.redis import RedisEventIsolation, RedisStorage

        storage = RedisStorage.from_url(settings.redis_url)
        # A chat's lock (one of its updates handled at a time) lives a lease, not aiogram's
        # minute: a replica killed while handling one holds the chat's next update up no longer
        # than its other work waits for another replica. An update handled for longer is not
        # failed at its end for having outlived its lock (redis logs a warning).
        lock = {"timeout": settings.lease_seconds, "raise_on_release_error": False}
        return storage, RedisEventIsolation(storage.redis, lock_kwargs=lock)
    return SqlStorage(session_factory), SimpleEventIsolation()


def _update_ledger(storage: BaseStorage, uow_factory: SqlUnitOfWorkFactory) -> UpdateLedger:
    from aiogram.fsm.storage.redis import RedisStorage

    if isinstance(storage, RedisStorage):
        return RedisUpdateLedger(storage.redis)
    return SqlUpdateLedger(uow_factory)


def build_dispatcher(
    settings: Settings,
    session_factory: async_sessionmaker[AsyncSession],
    uow_factory: SqlUnitOfWorkFactory,
    clock: Clock | None = None,
    seeds: SeedSource | None = None,
    pictures: StandingsPainter | None = None,
) -> Dispatcher:
    """A Dispatcher with per-user event isolation, so a double tap cannot race a wizard.

    Every handler and the reminder scheduler read the time from `clock` (the system's clock
    unless a test or the simulation hands in its own); handlers draw seatings' seeds from
    `seeds` (unpredictable unless a seeded source is handed in), pictures with `pictures`
    (a painter with a worker process of its own unless one is handed in)."""
    storage, isolation = _fsm_storage(settings, session_factory)
    in_database = isinstance(storage, SqlStorage)
    dispatcher = Dispatcher(storage=storage, events_isolation=isolation, disable_fsm=in_database)
    if isinstance(storage, SqlStorage):
        # aiogram's FSM middleware, in its place, asking the storage to read what a /help or
        # a /start needs with the sender's state (one statement: bot.db.sender_reads).
        dispatcher.fsm = SenderReadingFSM(storage, isolation, wants_person=shows_menu)
        dispatcher.update.outer_middleware(dispatcher.fsm)
    dispatcher["uow_factory"] = uow_factory
    # The use cases, built once; handlers take them as `services`.
    dispatcher["services"] = build_services(uow_factory)
    dispatcher["settings"] = settings
    dispatcher["clock"] = clock if clock is not None else SystemClock()
    dispatcher["seeds"] = seeds if seeds is not None else SystemSeeds()
    # Standings pictures (the channel's and those asked for) are drawn in a process of their own.
    dispatcher["pictures"] = pictures if pictures is not None else StandingsPainter()
    # Command menus are set only when they would change (Telegram limits setMyCommands).
    shown_read = menu_read_with_state if in_database else None
    dispatcher["menus"] = CommandMenus(session_factory, shown_read)
    dispatcher.update.outer_middleware(UpdateMetricsMiddleware())
    # Knows the updates being handled: a stop lets them finish before the session closes.
    dispatcher["reply_scope"] = ReplyScope()
    dispatcher.update.outer_middleware(dispatcher["reply_scope"])
    sender_read, standing_read = None, None
    if isinstance(storage, SqlStorage):
        # Inside aiogram's isolation lock and the reply scope (a stop waits for the store):
        # an update's conversation writes are stored in one transaction at its end.
        dispatcher.update.outer_middleware(ConversationWritesHeld(storage))
        # The database storage reads the sender with the conversation state (one statement).
        sender_read, standing_read = sender_read_with_state, standing_read_with_state
    dispatcher.update.outer_middleware(
        KnownUserMiddleware(
            dispatcher["services"], settings.default_locale, sender_read, standing_read
        )
    )
    # Innermost, so a refusal is answered within the person's turn and the reply scope.
    dispatcher.update.outer_middleware(refusals_answered())
    dispatcher.include_routers(*all_routers())
    run_filters_inline(dispatcher)
    return dispatcher


async def build_application(
    settings: Settings,
    *,
    clock: Clock | None = None,
    seeds: SeedSource | None = None,
    pictures: StandingsPainter | None = None,
    limiter: Limiter | None = None,
) -> Application:
    """Migrate the database to the newest schema and wire the bot to it: handlers and
    reminders on `clock` (by default CLOCK_ORIGIN's scaled clock, else the system's), seeds
    from `seeds`, pictures by `pictures` (their defaults: `build_dispatcher`), Telegram's
    limits kept by `limiter` (`build_limiter`'s by default)."""
    engine = create_engine(settings.database_url)
    await upgrade(engine)
    session_factory = create_session_factory(engine)
    if clock is None and settings.clock_origin is not None:
        clock = ScaledClock.shared(settings.clock_origin, settings.clock_rate)
    # One identity for this process's claims, leases and notices among the bot's replicas.
    uow_factory = SqlUnitOfWorkFactory(session_factory, process=process_identity(), clock=clock)
    dispatcher = build_dispatcher(settings, session_factory, uow_factory, clock, seeds, pictures)
    # One limiter for the outbox and the direct replies: Telegram counts them together.
    limiter = limiter or build_limiter(dispatcher.storage, settings)
    bot = build_bot(settings, limiter)
    delivery, reminders = build_delivery(settings, bot, dispatcher, engine, uow_factory, limiter)
    # The admins told of a problem once when it starts and once when it ends.
    health = HealthWatch(uow_factory, engine, settings.admin_ids, settings.backup_dir)
    dispatcher.startup.register(health.start)
    dispatcher.shutdown.register(health.stop)
    return Application(
        settings=settings,
        engine=engine,
        uow_factory=uow_factory,
        services=dispatcher["services"],
        bot=bot,
        dispatcher=dispatcher,
        delivery=delivery,
        reminders=reminders,
        health=health,
    )


def delivery_limits(settings: Settings) -> DeliveryLimits:
    """The limits the bot keeps, from the DELIVERY_* settings."""
    return DeliveryLimits(
        messages_per_second=settings.delivery_messages_per_second,
        private_chat_per_second=settings.delivery_private_chat_per_second,
        group_per_minute=settings.delivery_group_per_minute,
    )


def build_limiter(storage: BaseStorage, settings: Settings) -> Limiter:
    """Telegram's limits as this process keeps them: with Redis, together with every replica
    (sliding windows in Redis); otherwise on its own."""
    from aiogram.fsm.storage.redis import RedisStorage

    if isinstance(storage, RedisStorage):
        assert settings.bot_token is not None
        bot_id = extract_bot_id(settings.bot_token.get_secret_value())
        return RedisLimiter(storage.redis, bot_id, delivery_limits(settings))
    return LocalLimiter(delivery_limits(settings))


def _writer(settings: Settings, bot: Bot, dispatcher: Dispatcher) -> Writer:
    """What the outbox worker writes with: the standings and the screens drawn at send time."""
    services: Services = dispatcher["services"]
    return Writer(
        drawers={
            **standings_drawers(services.standings, dispatcher["pictures"], settings.web_base_url),
            **screen_drawers(services, bot, settings),
        },
        pack=intent_packer(settings),
        default_locale=settings.default_locale,
    )


def build_delivery(
    settings: Settings,
    bot: Bot,
    dispatcher: Dispatcher,
    engine: AsyncEngine,
    uow_factory: SqlUnitOfWorkFactory,
    limiter: Limiter,
) -> tuple[DeliveryWorker, ReminderScheduler]:
    """The outbox worker and the reminder scheduler, started and stopped with the Dispatcher
    and woken by every commit that records a push."""
    identity = uow_factory.process
    delivery = DeliveryWorker(
        bot,
        uow_factory,
        limiter=limiter,
        writer=_writer(settings, bot, dispatcher),
        pace=Pace(
            updates_quiet=dispatcher["reply_scope"].quiet, lease_seconds=settings.lease_seconds
        ),
        identity=identity,
    )
    # Reminders fall due by the Dispatcher's clock, the one handlers read; a faster one (the
    # simulation's `ScaledClock`) says how much, one that jumps (a test's `FixedClock`) when.
    clock: Clock = dispatcher["clock"]
    reminders = ReminderScheduler(
        uow_factory,
        clock=clock.now,
        rate=getattr(clock, "rate", 1.0),
        identity=identity,
        engine=engine,
        lease_seconds=settings.lease_seconds,
        jumps=clock if isinstance(clock, JumpingClock) else None,
    )
    uow_factory.add_commit_listener(delivery.on_commit)
    uow_factory.add_commit_listener(reminders.on_commit)
    dispatcher.startup.register(delivery.start)
    dispatcher.startup.register(reminders.start)

    async def stop() -> None:
        # Updates still being handled finish first (their replies and pushes go out), and
        # none calls Telegram once the bot's session is closed.
        unfinished = await dispatcher["reply_scope"].finish(STOP_HANDLERS_SECONDS)
        # A database that is gone or does not answer is said in one line, and nothing waits
        # for it (a unit of work would wait up to CONNECTION_WAIT_S for its pool).
        problem = await database_problem(settings, uow_factory)
        if unfinished:
            await _keep_unfinished(settings, dispatcher, bot, unfinished, problem)
        if problem is not None:
            log.error(
                "stopping without the database: %s; the messages in flight are settled by "
                "the next start",
                problem,
            )
        await reminders.stop(database=problem is None)
        await delivery.stop(database=problem is None)
        # After the worker stopped: no picture is being drawn any more.
        await dispatcher["pictures"].close()

    dispatcher.shutdown.register(stop)
    return delivery, reminders


async def _keep_unfinished(
    settings: Settings, dispatcher: Dispatcher, bot: Bot, updates: list[Update], problem: str | None
) -> None:
    """Keep the updates a stop cut short for the next start (long polling confirmed them to
    Telegram already; a webhook's are delivered again)."""
    if settings.webhook_url:
        log.warning(
            "%d updates were cut short by the stop: Telegram delivers them again", len(updates)
        )
        return
    if problem is not None and not settings.redis_url:
        log.error("%d updates were cut short by the stop and could not be kept", len(updates))
        return
    try:
        await kept_updates.keep(dispatcher.storage, bot, updates)
    except Exception:
        log.exception("%d updates were cut short by the stop and could not be kept", len(updates))


# How long a stop waits for the database to answer before going on without it.
STOP_CHECK_SECONDS = 5.0
# How long a stop lets the updates being handled finish (a container's stop grace is ~10 s).
STOP_HANDLERS_SECONDS = 8.0


async def database_problem(settings: Settings, uow_factory: SqlUnitOfWorkFactory) -> str | None:
    """Why the database cannot be used now (one line), or None when it answers."""
    path = settings.sqlite_path
    if path is not None and not path.exists():
        # Connecting would make a new, empty file in its place.
        return f"the SQLite database {path} is gone"
    try:
        async with asyncio.timeout(STOP_CHECK_SECONDS), uow_factory() as uow:
            await uow.leases.holder(POLLING_LEASE, utc_now())
    except TimeoutError:
        return f"the database did not answer within {STOP_CHECK_SECONDS:.0f} s"
    except Exception as error:
        return f"the database fails: {str(error).splitlines()[0] if str(error) else error!r}"
    return None


async def set_command_menu(app: Application) -> None:
    """The command menu in Russian for everyone, in English for English-speaking clients;
    a restart leaves the menus Telegram shows already alone."""
    menus: CommandMenus = app.dispatcher["menus"]
    for locale in LOCALES:
        commands = [
            BotCommand(command=name, description=translator().get(locale, f"command-{name}"))
            for name in MENU_COMMANDS
        ]
        language_code = None if locale == "ru" else locale
        await menus.set(app.bot, commands, language_code=language_code)


async def run_polling(app: Application, handle_signals: bool = True) -> None:
    """Long polling until SIGINT or SIGTERM (or `stop_polling()`), then a graceful stop;
    `PollingConflict` after that when another bot instance polls with the same token."""
    await set_command_menu(app)
    await app.bot.delete_webhook(drop_pending_updates=False)
    guard = ConflictGuard(app.dispatcher)
    app.bot.session.middleware(guard)
    kept_updates.handle_at_start(app.dispatcher, app.bot)
    await app.dispatcher.start_polling(
        app.bot,
        handle_signals=handle_signals,
        close_bot_session=False,
        allowed_updates=app.dispatcher.resolve_used_update_types(),
        tasks_concurrency_limit=UPDATES_AT_ONCE,
    )
    if guard.conflict is not None:
        raise guard.conflict


async def run_webhook(app: Application, stop: asyncio.Event | None = None) -> None:
    """The bot's web application with Telegram's webhook added; it takes only requests
    carrying Telegram's secret-token header."""
    settings = app.settings
    assert settings.webhook_url is not None and settings.webhook_secret is not None
    secret = settings.webhook_secret.get_secret_value()
    path = urlsplit(settings.webhook_url).path or DEFAULT_WEBHOOK_PATH
    web_app = build_web_app(app)
    # Answered once handled, so Telegram delivers again what a killed replica did not handle;
    # a second delivery of an update (to this or another replica) is dropped.
    ledger = _update_ledger(app.dispatcher.storage, app.uow_factory)
    # The Dispatcher's shutdown (updates being handled finish, the outbox stops) runs before
    # the request handler closes the bot's session: aiohttp runs them in this order, and a
    # call after the close would open a new session nobody closes.
    setup_application(web_app, app.dispatcher, bot=app.bot)
    OnceRequestHandler(app.dispatcher, app.bot, ledger=ledger, secret_token=secret).register(
        web_app, path=path
    )
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        async with serving(app, web_app):
            await set_command_menu(app)
            await app.bot.set_webhook(
                settings.webhook_url,
                secret_token=secret,
                allowed_updates=app.dispatcher.resolve_used_update_types(),
            )
            log.info("webhook at %s", path)
            await stop.wait()
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)
