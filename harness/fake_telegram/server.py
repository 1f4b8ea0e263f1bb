"""The fake Bot API over HTTP: the real bot reaches it through `TELEGRAM_API_BASE`."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from bot.telegram.replies import updates_in_flight
from harness.fake_telegram.limits import FloodControl, RateLimits
from harness.fake_telegram.methods import CHAT_ACTIONS, BotApi
from harness.fake_telegram.params import ApiError, Params
from harness.fake_telegram.people import FakeChannel, FakeChat, FakeGroup, FakeUser, Predicate
from harness.fake_telegram.state import WAIT_LIMIT, ChatMessage, ChatState, UserState, World
from harness.fake_telegram.stats import FakeStats, RequestRecord
from harness.fake_telegram.webhooks import WebhookDelivery


@dataclass
class _Fault:
    error: ApiError
    times: int


# What a reverse proxy answers when Telegram behind it did not: no JSON for aiogram to read.
BAD_GATEWAY_PAGE = "<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>"


@dataclass
class _LostAnswer:
    delivered: bool  # the request was carried out before its answer was lost
    status: int
    body: str
    times: int


class FakeTelegram:
    """A local Telegram Bot API server with scripted people, run in the caller's event loop."""

    def __init__(
        self,
        token: str = "123456:TEST-TOKEN",
        bot_username: str = "mafiatour_bot",
        enforce_limits: bool | RateLimits = False,
        bot_name: str = "Mafiatour",
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.token = token
        bot = UserState(int(token.split(":")[0]), bot_name, bot_username, None, is_bot=True)
        self.world = World(bot=bot, token=token)
        limits = RateLimits() if enforce_limits is True else enforce_limits or None
        self.api = BotApi(self.world, FloodControl(limits) if limits else None, clock)
        self.stats = FakeStats()
        self._clock = clock
        self._faults: dict[int, deque[_Fault]] = {}
        self._lost_answers: dict[int, deque[_LostAnswer]] = {}
        self._in_flight = 0
        self._runner: web.AppRunner | None = None
        self.webhooks: WebhookDelivery | None = None
        self.base_url = ""
        # Called with each call acting on a chat before it is carried out: (method, chat,
        # its text, the caller's prefix `via`); a test may kill the caller there.
        self.before_call: Callable[[str, int | str | None, str | None, str | None], None] | None
        self.before_call = None

    # --- lifecycle --------------------------------------------------------------------------

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> str:
        """Serve on `host:port` (0 picks a free port); returns the base URL for aiogram."""
        # Telegram takes uploads of up to 50 MB from bots; aiohttp would stop at 1 MB.
        app = web.Application(client_max_size=50 * 1024 * 1024)
        app.router.add_route("*", "/bot{token}/{method}", self._handle_method)
        app.router.add_get("/file/bot{token}/{path:.+}", self._handle_file)
        # The same API under a caller's own prefix (`via`): several bot processes, each given
        # `{base_url}/{name}` as its TELEGRAM_API_BASE, are told apart in the record.
        app.router.add_route("*", "/{via}/bot{token}/{method}", self._handle_method)
        app.router.add_get("/{via}/file/bot{token}/{path:.+}", self._handle_file)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        await web.TCPSite(self._runner, host, port).start()
        bound_port = self._runner.addresses[0][1]
        self.base_url = f"http://{host}:{bound_port}"
        return self.base_url

    def deliver_webhooks(
        self, addresses: list[str] | None = None, duplicate_every: int = 0
    ) -> WebhookDelivery:
        """Call the bot's webhook with every update, as Telegram does after `setWebhook`: at the
        registered URL, or round-robin at `addresses` (replicas behind a load balancer) once a
        webhook is registered; every `duplicate_every`-th update is delivered twice."""

        def targets() -> list[str]:
            if not self.api.webhook_url:
                return []
            return list(addresses) if addresses else [self.api.webhook_url]

        def busy(change: int) -> None:
            self._in_flight += change

        self.webhooks = WebhookDelivery(
            self.world,
            targets,
            lambda: self.api.webhook_secret,
            self._clock,
            duplicate_every,
            on_handed=lambda update, at: self.stats.fetched([update], at),
            busy=busy,
        )
        self.webhooks.start()
        return self.webhooks

    def revoke_token(self, token: str) -> None:
        """@BotFather's /revoke: `token` replaces the bot's; a request with the old one is
        refused (401 Unauthorized), and the long polls waiting now are answered at once (empty,
        as Telegram may answer one before its timeout), so the bot's next one meets the
        refusal instead of after its polling timeout."""
        self.token = token
        self.api.early_answers += 1
        self.world.update_queued.fire()

    async def stop(self) -> None:
        if self.webhooks is not None:
            await self.webhooks.stop()
        self.api.closing = True
        self.world.update_queued.fire()  # release long polls so the server can shut down
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # --- HTTP -------------------------------------------------------------------------------

    async def _handle_method(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != self.token:
            # Counted too: a test tells a refused token asked once from one retried.
            refused = RequestRecord(request.match_info["method"], None, self._clock(), 401)
            self.stats.record(refused)
            return web.json_response(ApiError(401, "Unauthorized").as_api(), status=401)
        name = request.match_info["method"].lower()
        via = request.match_info.get("via")
        handler = self.api.methods.get(name)
        if handler is None:
            return web.json_response(ApiError(404, "Not Found").as_api(), status=404)
        # A waiting long poll is the bot being idle, not busy.
        busy = name != "getupdates"
        self._in_flight += busy
        self.world.activity.fire()
        chat_id: int | str | None = None
        result: Any = None
        params: Params | None = None
        lost: _LostAnswer | None = None
        try:
            params = await Params.read(request)
            chat_id = self._chat_id(params)
            if name in CHAT_ACTIONS:
                if self.before_call is not None:
                    self.before_call(name, chat_id, params.string("text"), via)
                self._raise_injected(chat_id)
                lost = self._lost_answer(chat_id)
            if lost is None or lost.delivered:
                result = await handler(params)
            status, body = 200, {"ok": True, "result": result}
        except ApiError as error:
            status, body = error.error_code, error.as_api()
        finally:
            self._in_flight -= busy
            self.world.activity.fire()
        if lost is not None and status == 200:
            self.stats.record(
                RequestRecord(
                    request.match_info["method"], chat_id, self._clock(), lost.status, via=via
                )
            )
            return web.Response(status=lost.status, text=lost.body, content_type="text/html")
        self._note_handling(name, params if status == 200 else None, chat_id, result)
        # An album (sendMediaGroup) answers a list: its first message stands for it.
        first = result[0] if isinstance(result, list) and result else result
        message = first if status == 200 and isinstance(first, dict) else {}
        self.stats.record(
            RequestRecord(
                method=request.match_info["method"],
                chat_id=chat_id,
                at=self._clock(),
                status=status,
                message_id=message.get("message_id"),
                text=message.get("text", message.get("caption")),
                description=None if status == 200 else body.get("description"),
                via=via,
                query_id=params.string("callback_query_id") if params is not None else None,
            )
        )
        return web.json_response(body, status=status)

    async def _handle_file(self, request: web.Request) -> web.Response:
        stored = self.world.file_by_path(request.match_info["path"])
        if request.match_info["token"] != self.token or stored is None or stored.content is None:
            raise web.HTTPNotFound()
        return web.Response(body=stored.content, content_type="application/octet-stream")

    def _note_handling(
        self, name: str, params: Params | None, chat_id: int | str | None, result: Any
    ) -> None:
        """Feed the handling latencies: when updates leave, and the bot's first answers."""
        if params is None:
            return
        now = self._clock()
        if name == "getupdates":
            self.stats.fetched(result, now)
        elif name == "answercallbackquery":
            self.stats.answered_query(params.string("callback_query_id") or "", now)
        elif name in CHAT_ACTIONS and isinstance(chat_id, int):
            self.stats.acted_in_chat(chat_id, now)

    def _chat_id(self, params: Params) -> int | str | None:
        if not params.has("chat_id"):
            return None
        reference = params.chat_ref()
        chat = self.api.find_chat(reference)
        return chat.id if chat else reference

    def _raise_injected(self, chat_id: int | str | None) -> None:
        faults = self._faults.get(chat_id) if isinstance(chat_id, int) else None
        if not faults:
            return
        fault = faults[0]
        fault.times -= 1
        if fault.times <= 0:
            faults.popleft()
        raise ApiError(fault.error.error_code, fault.error.description, fault.error.retry_after)

    def _lost_answer(self, chat_id: int | str | None) -> _LostAnswer | None:
        answers = self._lost_answers.get(chat_id) if isinstance(chat_id, int) else None
        if not answers:
            return None
        answer = answers[0]
        answer.times -= 1
        if answer.times <= 0:
            answers.popleft()
        return answer

    # --- faults -----------------------------------------------------------------------------

    def lose_answer(
        self,
        chat_id: int,
        *,
        delivered: bool,
        status: int = 502,
        body: str = BAD_GATEWAY_PAGE,
        times: int = 1,
    ) -> None:
        """Answer the next `times` calls acting on `chat_id` with a page that is not the Bot
        API's JSON (a proxy's 502); `delivered`: the call was carried out all the same (its
        message is in the chat), as when only the answer is lost on its way back."""
        answer = _LostAnswer(delivered, status, body, times)
        self._lost_answers.setdefault(chat_id, deque()).append(answer)

    def inject(
        self,
        chat_id: int,
        error_code: int = 429,
        retry_after: int = 3,
        times: int = 1,
        description: str | None = None,
    ) -> None:
        """Answer the next `times` calls acting on `chat_id` with an error instead."""
        if error_code == 429:
            error = ApiError(
                429, description or f"Too Many Requests: retry after {retry_after}", retry_after
            )
        elif error_code == 403:
            error = ApiError(403, description or "Forbidden: bot was blocked by the user")
        elif description is not None:
            error = ApiError(error_code, description)
        else:
            raise ValueError(f"say what Telegram answers with {error_code}: pass description")
        self._faults.setdefault(chat_id, deque()).append(_Fault(error, times))

    # --- people and chats -------------------------------------------------------------------

    def user(
        self,
        user_id: int,
        first_name: str,
        username: str | None = None,
        language_code: str | None = "ru",
    ) -> FakeUser:
        """A person who can write to the bot; the same id gives the same person back."""
        state = self.world.users.get(user_id)
        if state is None:
            state = UserState(user_id, first_name, username, language_code)
            self.world.users[user_id] = state
            self.world.chats[user_id] = ChatState(user_id, "private", user=state)
        return FakeUser(self.world, state, self.world.chats[user_id])

    def group(
        self,
        chat_id: int,
        title: str,
        members: tuple[FakeUser, ...] = (),
        supergroup: bool = True,
        bot_is_member: bool = True,
    ) -> FakeGroup:
        chat = ChatState(
            chat_id,
            "supergroup" if supergroup else "group",
            title=title,
            bot_status="member" if bot_is_member else "left",
            members={member.id for member in members},
        )
        self.world.chats[chat_id] = chat
        return FakeGroup(self.world, chat)

    def channel(
        self,
        chat_id: int,
        title: str,
        username: str | None = None,
        bot_is_admin: bool = True,
        can_post: bool = True,
    ) -> FakeChannel:
        # Bots join channels only as administrators, so "not an admin" means "not in it".
        chat = ChatState(
            chat_id,
            "channel",
            title=title,
            username=username,
            bot_status="administrator" if bot_is_admin else "left",
            can_post=can_post,
        )
        self.world.chats[chat_id] = chat
        return FakeChannel(self.world, chat)

    def messages(self, chat_id: int) -> list[ChatMessage]:
        """The chat as it looks now: edits applied, deleted messages gone, pins flagged."""
        return self.world.chats[chat_id].visible()

    async def wait_for(
        self, chat_id: int, predicate: Predicate | None = None, timeout: float = WAIT_LIMIT
    ) -> ChatMessage:
        return await FakeChat(self.world, self.world.chats[chat_id]).wait_for(predicate, timeout)

    def commands(self, language_code: str = "", scope: dict[str, Any] | None = None) -> list[str]:
        """The command names the bot set for `scope` (default scope) and language."""
        key = BotApi.command_key(scope, language_code)
        return [command["command"] for command in self.api.commands.get(key, [])]

    # --- idleness ---------------------------------------------------------------------------

    async def wait_idle(self, quiet: float = 0.05, timeout: float = WAIT_LIMIT) -> None:
        """Return once every update was fetched, a bot running in this process handles none
        (however long a handler thinks between two calls, on however busy a machine), and the
        bot made no call for `quiet` seconds (what the outbox sends after a handler ended)."""
        async with asyncio.timeout(timeout):
            while True:
                while not self._idle():
                    # A handler may end without calling Telegram: look again now and then.
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self.world.activity.wait(), quiet)
                try:
                    await asyncio.wait_for(self.world.activity.wait(), quiet)
                except TimeoutError:
                    if self._idle():
                        return

    def _idle(self) -> bool:
        return (
            self._in_flight == 0 and not self.world.pending_updates() and updates_in_flight() == 0
        )
