"""The aiohttp application and its server."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Protocol

from aiogram import Bot, Dispatcher
from aiohttp import web
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.config import Settings
from bot.db.uow import SqlUnitOfWorkFactory
from bot.web import health, miniapp, pages
from bot.web.pages import season
from domain.services.catalog import Services

log = logging.getLogger(__name__)


class WebServerError(Exception):
    """The web server could not start; the message is one line naming the setting."""


class ServedBot(Protocol):
    """What the web application serves: the parts of a running bot it reads (the composition
    root's `bot.app.Application` is one; the web side never imports it)."""

    settings: Settings
    engine: AsyncEngine
    uow_factory: SqlUnitOfWorkFactory
    services: Services
    bot: Bot
    dispatcher: Dispatcher


def build_web_app(app: ServedBot) -> web.Application:
    """The web application of a running bot: /healthz, /readyz, /metrics, the Mini App and
    the tournaments' public pages (bot/web/pages)."""
    web_app = web.Application()
    dispatcher = app.dispatcher
    health.install(web_app, app.engine, app.bot, dispatcher["clock"], app.settings.backup_dir)
    miniapp.install(
        web_app, app.bot.token, app.services, dispatcher["clock"], app.settings.admin_ids
    )
    pages.install(
        web_app,
        app.services,
        dispatcher["clock"],
        app.settings,
        app.uow_factory.add_change_listener,
        add_game_listener=app.uow_factory.add_game_listener,
    )
    season.install(web_app, app.services, app.bot)
    return web_app


@contextlib.asynccontextmanager
async def serving(
    app: ServedBot, web_app: web.Application | None = None
) -> AsyncIterator[web.Application]:
    """Serve `web_app` (by default `build_web_app(app)`) on WEB_HOST:WEB_PORT for the block."""
    web_app = web_app if web_app is not None else build_web_app(app)
    host, port = app.settings.web_host, app.settings.web_port
    runner = web.AppRunner(web_app, access_log=None)
    await runner.setup()
    try:
        try:
            await web.TCPSite(runner, host, port).start()
        except OSError as error:
            raise WebServerError(
                f"the web server cannot listen on {host}:{port} ({error.strerror}); "
                "set WEB_PORT to a free port"
            ) from None
        log.info(
            "web server on http://%s:%s (/healthz, /readyz, /metrics, /app, /t/ID)", host, port
        )
        yield web_app
    finally:
        await runner.cleanup()
