"""`mafiatour run`: the bot itself, by long polling or by webhook."""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import TYPE_CHECKING

from bot.commands import cli_settings, simulate

if TYPE_CHECKING:
    from bot.app import Application
    from bot.config import Settings

NO_TOKEN_HELP = """\
mafiatour: BOT_TOKEN is not set, so the bot cannot connect to Telegram.

To run it for real:
  1. In Telegram, open @BotFather, send /newbot and follow the steps; it gives you a token
     like 123456789:AAE...
  2. Put BOT_TOKEN=<that token> into the .env file (copy .env.example) or the environment.
  3. Put your own Telegram id into ADMIN_IDS (comma-separated) in the same file: admins create
     tournaments and send /organizer for a link that makes someone an organizer. Anyone can
     see his id: he sends /help (or /new) to the bot.
  4. Create the tournament's channel and make the bot an administrator of it with the right
     to post messages: seatings, results and standings are published there.
  5. Run the same command again.

To see the product work without Telegram, run the offline demonstration:
  mafiatour simulate
"""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("run", help="run the bot (polling, or webhook if configured)")
    parser.add_argument(
        "--offline-without-token",
        action="store_true",
        help="with no BOT_TOKEN, show the offline demonstration instead of stopping",
    )
    parser.set_defaults(handler=run)


async def serve(settings: Settings) -> None:
    """Check the services, build the application and serve until SIGINT/SIGTERM."""
    from bot.app import build_application
    from bot.app.startup import check_services

    await check_services(settings)
    await serve_application(await build_application(settings))


async def serve_application(app: Application) -> None:
    """Serve a built application (by webhook if configured, otherwise by long polling) until
    SIGINT/SIGTERM, then release it."""
    from bot.app import run_polling, run_webhook
    from bot.app.heap import settle_start_up
    from bot.app.polling_lease import polling_lease
    from bot.web import serving

    settle_start_up()
    try:
        if app.settings.webhook_url:
            await run_webhook(app)
        else:
            # One poller per bot; health and metrics on WEB_PORT.
            async with polling_lease(app), serving(app):
                await run_polling(app)
    finally:
        await app.close()


def start_logging(settings: Settings) -> None:
    """Log as LOG_LEVEL and LOG_FORMAT say, the token and the webhook secret masked."""
    from bot.app.logs import setup_logging

    assert settings.bot_token is not None
    secrets = [settings.bot_token.get_secret_value()]
    if settings.webhook_secret:
        secrets.append(settings.webhook_secret.get_secret_value())
    setup_logging(settings.log_level, *secrets, log_format=settings.log_format)


def run(args: argparse.Namespace) -> int:
    settings = cli_settings()
    if settings.bot_token is None:
        print(NO_TOKEN_HELP, file=sys.stderr)
        if args.offline_without_token:
            return simulate.run(simulate.default_arguments())
        return 1
    from bot.app.polling_lease import PollingTaken
    from bot.errors import StartupError, TokenRefused
    from bot.telegram.polling import PollingConflict
    from bot.web import WebServerError

    start_logging(settings)
    try:
        asyncio.run(serve(settings))
    except (WebServerError, TokenRefused) as error:
        # A bad setting: the unit's RestartPreventExitStatus=2 keeps it from restarting.
        print(f"mafiatour: {error}", file=sys.stderr)
        return 2
    except (StartupError, PollingTaken, PollingConflict) as error:
        print(f"mafiatour: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # Ctrl+C while start-up was still waiting for a service
        return 130
    return 0
