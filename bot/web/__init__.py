"""The bot's web application on WEB_HOST:WEB_PORT: health and metrics, Telegram's webhook
in webhook mode, and the tournaments' public pages (bot/web/pages), all on one aiohttp
application.

`build_web_app` makes it, `serving` runs it for the life of a block (`mafiatour run` in
polling mode; `bot.app.run_webhook` adds the webhook route first).
"""

from bot.web.server import WebServerError, build_web_app, serving

__all__ = ["WebServerError", "build_web_app", "serving"]
