"""A load balancer in front of the replicas' webhooks, as an operator puts one (nginx's
`upstream` with its defaults): each webhook request goes to the next replica in turn; one that
refuses the connection is skipped for `DOWN_SECONDS` and the request passed to the next (it was
never sent); one that dies after the request was sent is answered 502, as nginx does for a
POST, and Telegram delivers the update again later, which lands on a live replica.

It records which replica answered each delivery, and knows the updates each replica is
handling right now (a test kills one in the middle of an update with them)."""

from __future__ import annotations

import itertools
import json
import time
from collections import Counter
from dataclasses import dataclass, field

import aiohttp
from aiohttp import web

from harness.fake_telegram.webhooks import SECRET_HEADER

# How long a replica that refused a connection is left out of the turn (nginx: fail_timeout).
DOWN_SECONDS = 10.0
REQUEST_SECONDS = 120.0
HOOK_PATH = "/hook"


@dataclass(frozen=True)
class Delivery:
    update_id: int
    replica: int  # its index among the upstreams; -1 when none could be reached
    status: int  # what the front answered Telegram


@dataclass
class RoundRobinFront:
    """Round-robin over `upstreams` (the replicas' webhook URLs)."""

    upstreams: list[str]
    deliveries: list[Delivery] = field(default_factory=list)
    handling: dict[int, set[int]] = field(default_factory=dict)  # replica -> update ids
    url: str = ""
    _down_until: dict[int, float] = field(default_factory=dict)
    _turn: itertools.count[int] = field(default_factory=itertools.count)
    _runner: web.AppRunner | None = None
    _http: aiohttp.ClientSession | None = None

    async def start(self) -> str:
        app = web.Application()
        app.router.add_post(HOOK_PATH, self._pass)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", 0).start()
        port = self._runner.addresses[0][1]
        self._http = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=REQUEST_SECONDS))
        self.url = f"http://127.0.0.1:{port}{HOOK_PATH}"
        return self.url

    async def stop(self) -> None:
        if self._http is not None:
            await self._http.close()
        if self._runner is not None:
            await self._runner.cleanup()

    def answered_by(self) -> Counter[int]:
        """How many deliveries each replica answered 2xx."""
        return Counter(d.replica for d in self.deliveries if 200 <= d.status < 300)

    async def _pass(self, request: web.Request) -> web.Response:
        body = await request.read()
        update_id = int(json.loads(body).get("update_id", 0))
        headers = {SECRET_HEADER: request.headers.get(SECRET_HEADER, "")}
        for replica in self._order():
            status, text = await self._forward(replica, update_id, body, headers)
            if status is None:
                continue  # refused the connection: the request never reached it
            self.deliveries.append(Delivery(update_id, replica, status))
            return web.Response(status=status, text=text)
        self.deliveries.append(Delivery(update_id, -1, 502))
        return web.Response(status=502, text="no replica answers")

    def _order(self) -> list[int]:
        """The replicas to try, the next in turn first, those left out last."""
        count = len(self.upstreams)
        first = next(self._turn) % count
        order = [(first + step) % count for step in range(count)]
        now = time.monotonic()
        up = [r for r in order if self._down_until.get(r, 0.0) <= now]
        return up + [r for r in order if r not in up]

    async def _forward(
        self, replica: int, update_id: int, body: bytes, headers: dict[str, str]
    ) -> tuple[int | None, str]:
        """The replica's answer; (None, "") when it refused the connection; 502 when it died
        with the request."""
        assert self._http is not None
        handling = self.handling.setdefault(replica, set())
        handling.add(update_id)
        try:
            async with self._http.post(
                self.upstreams[replica],
                data=body,
                headers={**headers, "Content-Type": "application/json"},
            ) as answer:
                return answer.status, await answer.text()
        except aiohttp.ClientConnectorError:
            self._down_until[replica] = time.monotonic() + DOWN_SECONDS
            return None, ""
        except (aiohttp.ClientError, TimeoutError):
            self._down_until[replica] = time.monotonic() + DOWN_SECONDS
            return 502, "the replica closed the connection"
        finally:
            handling.discard(update_id)
