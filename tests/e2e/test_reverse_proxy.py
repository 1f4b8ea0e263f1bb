"""deploy/nginx-mafiatour.conf run by Debian's nginx in front of a stand-in of the bot's web
server (its routes: the webhook, a tournament's page, its event stream, the metrics): what an
operator installs passes the webhook, the pages and the stream (each event as it is written,
not when a buffer fills), and answers 404 for /metrics, which only the server itself scrapes.

nginx is Debian's package, which `scripts/ensure-services` installs (on CI too): its absence
fails this test rather than skipping it, as the sample would then be unchecked."""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
from aiohttp import web

from harness.simulation.replicas import free_port

NGINX = Path("/usr/sbin/nginx")
SAMPLE = Path(__file__).parents[2] / "deploy" / "nginx-mafiatour.conf"
WAIT_S = 60.0
PAGE = "<h1>Кубок Чёрного ворона</h1>"
METRICS = "mafiatour_ready 1\n"


# The tournament's, a live game's and a stream overlay's event streams.
EVENT_STREAMS = ("/t/7/events", "/t/7/games/3/live/events", "/t/7/games/3/stream/to_k-en/events")


class StandIn:
    """The bot's routes as the proxy sees them; the event stream writes its first event and
    holds the second until the test has read the first through the proxy."""

    def __init__(self) -> None:
        self.first_read = asyncio.Event()
        self.updates: list[dict[str, object]] = []

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_post("/webhook", self.webhook)
        app.router.add_get("/t/7", self.page)
        for path in EVENT_STREAMS:
            app.router.add_get(path, self.events)
        app.router.add_get("/metrics", self.metrics)
        return app

    async def webhook(self, request: web.Request) -> web.Response:
        self.updates.append(await request.json())
        return web.json_response({})

    async def page(self, _: web.Request) -> web.Response:
        return web.Response(text=PAGE, content_type="text/html")

    async def metrics(self, _: web.Request) -> web.Response:
        return web.Response(text=METRICS)

    async def events(self, request: web.Request) -> web.StreamResponse:
        stream = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await stream.prepare(request)
        await stream.write(b"event: change\ndata: 1\n\n")
        await asyncio.wait_for(self.first_read.wait(), WAIT_S)
        await stream.write(b"event: change\ndata: 2\n\n")
        return stream


def _site(folder: Path, upstream: int, https: int, http: int) -> str:
    """The sample as shipped, on this machine's free ports and a self-signed certificate."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    openssl = (
        "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
        "-subj", "/CN=bot.example.org", "-keyout", str(key), "-out", str(cert),
    )  # fmt: skip
    subprocess.run(
        openssl,
        check=True,
        capture_output=True,
        timeout=WAIT_S,
    )
    site = SAMPLE.read_text()
    for shipped, here in (
        ("server 127.0.0.1:8080;", f"server 127.0.0.1:{upstream};"),
        ("listen 443 ssl http2;", f"listen 127.0.0.1:{https} ssl http2;"),
        ("listen [::]:443 ssl http2;", ""),
        ("listen 80;", f"listen 127.0.0.1:{http};"),
        ("listen [::]:80;", ""),
        ("/etc/letsencrypt/live/bot.example.org/fullchain.pem", str(cert)),
        ("/etc/letsencrypt/live/bot.example.org/privkey.pem", str(key)),
    ):
        assert shipped in site, f"the sample no longer says {shipped!r}: adapt this test"
        site = site.replace(shipped, here)
    return site


@contextlib.asynccontextmanager
async def _nginx(folder: Path, site: str) -> AsyncIterator[None]:
    """Debian's nginx in the foreground, everything it writes under `folder`."""
    assert NGINX.exists(), "nginx is not installed: scripts/ensure-services installs it"
    (folder / "site.conf").write_text(site)
    temp = "\n".join(
        f"  {kind}_temp_path {folder}/{kind};" for kind in ("client_body", "proxy", "fastcgi")
    )
    (folder / "nginx.conf").write_text(
        f"pid {folder}/nginx.pid;\nerror_log {folder}/error.log;\ndaemon off;\n"
        f"events {{}}\nhttp {{\n  access_log off;\n{temp}\n"
        f"  uwsgi_temp_path {folder}/uwsgi;\n  scgi_temp_path {folder}/scgi;\n"
        f"  include {folder}/site.conf;\n}}\n"
    )
    process = await asyncio.create_subprocess_exec(
        str(NGINX), "-p", str(folder), "-e", str(folder / "error.log"), "-c",
        str(folder / "nginx.conf"),
    )  # fmt: skip
    try:
        yield
    finally:
        process.terminate()
        await asyncio.wait_for(process.wait(), WAIT_S)


async def _until_up(http: aiohttp.ClientSession, url: str) -> None:
    async with asyncio.timeout(WAIT_S):
        while True:
            with contextlib.suppress(aiohttp.ClientError):
                async with http.get(url) as answer:
                    if answer.status == 200:
                        return
            await asyncio.sleep(0.1)


async def test_nginx_sample_passes_the_bot_s_routes_and_keeps_metrics_private(
    tmp_path: Path,
) -> None:
    stand_in = StandIn()
    runner = web.AppRunner(stand_in.app())
    await runner.setup()
    upstream, https, http_port = free_port(), free_port(), free_port()
    await web.TCPSite(runner, "127.0.0.1", upstream).start()
    base = f"https://127.0.0.1:{https}"
    try:
        async with (
            _nginx(tmp_path, _site(tmp_path, upstream, https, http_port)),
            aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(ssl=False),
                timeout=aiohttp.ClientTimeout(total=WAIT_S),
            ) as http,
        ):
            await _until_up(http, f"{base}/t/7")
            async with http.post(f"{base}/webhook", json={"update_id": 1}) as answer:
                assert answer.status == 200
            assert stand_in.updates == [{"update_id": 1}]
            async with http.get(f"{base}/t/7") as answer:
                assert answer.status == 200 and PAGE in await answer.text()
            # The first event arrives while the stream is still open: were the proxy
            # buffering, it would wait for the second, which waits for this reading.
            for path in EVENT_STREAMS:
                stand_in.first_read.clear()
                async with http.get(f"{base}{path}") as stream:
                    assert stream.status == 200
                    first = await stream.content.readuntil(b"\n\n")
                    assert first == b"event: change\ndata: 1\n\n", path
                    stand_in.first_read.set()
                    second = await stream.content.readuntil(b"\n\n")
                    assert second == b"event: change\ndata: 2\n\n"
            async with http.get(f"{base}/metrics") as answer:
                assert answer.status == 404 and METRICS not in await answer.text()
            # Plain HTTP only redirects to HTTPS.
            async with http.get(
                f"http://127.0.0.1:{http_port}/metrics", allow_redirects=False
            ) as answer:
                assert answer.status == 301
    finally:
        await runner.cleanup()
