"""One bot process of a run: `mafiatour run` (or the metered bot) started, killed, stopped,
its log read for errors, its CPU and memory read from /proc."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import sys
from dataclasses import dataclass
from pathlib import Path

import aiohttp

START_SECONDS = 120.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Replica:
    """One `mafiatour run` process in webhook mode; its log (one JSON object a line) is kept."""

    number: int
    env: dict[str, str]
    folder: Path
    # The bot's command line after the interpreter: `mafiatour run`, or the metered bot.
    command: tuple[str, ...] = ("-m", "bot", "run")
    process: asyncio.subprocess.Process | None = None
    starts: int = 0

    @property
    def port(self) -> int:
        return int(self.env["WEB_PORT"])

    @property
    def webhook(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    @property
    def log(self) -> Path:
        return self.folder / f"replica-{self.number}.log"

    @property
    def records(self) -> Path:
        """Where the metered bot (`harness.simulation.metered`) writes what it measured."""
        return self.folder / f"replica-{self.number}.records"

    async def start(self) -> None:
        self.starts += 1
        with self.log.open("ab") as log:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable,
                *self.command,
                env=self.env,
                cwd=str(self.folder),  # no developer's .env is read there
                stdout=log,
                stderr=log,
            )
        async with asyncio.timeout(START_SECONDS), aiohttp.ClientSession() as http:
            while True:
                if self.process.returncode is not None:
                    raise RuntimeError(f"replica {self.number} stopped: see {self.log}")
                with contextlib.suppress(aiohttp.ClientError):
                    async with http.get(f"http://127.0.0.1:{self.port}/healthz") as answer:
                        if answer.status == 200:
                            return
                await asyncio.sleep(0.2)

    def kill(self) -> None:
        """SIGKILL: no clean stop, no lease given up, requests cut in the middle."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)

    async def stop(self) -> None:
        if self.process is None or self.process.returncode is not None:
            return
        try:
            self.process.send_signal(signal.SIGTERM)
        except ProcessLookupError:  # killed, and not yet waited for
            await self.process.wait()
            return
        try:
            await asyncio.wait_for(self.process.wait(), 60)
        except TimeoutError:
            self.process.kill()
            await self.process.wait()

    def errors(self) -> list[str]:
        """The records this replica logged at ERROR or above."""
        found = []
        for line in self.log.read_text(encoding="utf-8", errors="replace").splitlines():
            with contextlib.suppress(ValueError):
                entry = json.loads(line)
                if isinstance(entry, dict) and entry.get("level") in ("ERROR", "CRITICAL"):
                    # The exception's own line (the traceback's last) says why.
                    why = (entry.get("traceback") or "").strip().splitlines()[-1:]
                    found.append(
                        f"replica {self.number}: {entry['logger']}: {entry['message']}"
                        + "".join(f" ({line})" for line in why)
                    )
        return found


def cpu_seconds(pid: int, thread: int | None = None) -> float | None:
    """A process's user and system CPU seconds so far (/proc/<pid>/stat), or one of its
    threads' (/proc/<pid>/task/<thread>/stat: the main thread's id is the process's); None when
    gone."""
    path = f"/proc/{pid}/stat" if thread is None else f"/proc/{pid}/task/{thread}/stat"
    try:
        stat = Path(path).read_text()
    except OSError:
        return None
    # After the command's name in parentheses: state is field 3, utime 14, stime 15.
    fields = stat[stat.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def memory(replica: Replica, field_name: str) -> float:
    """A replica's memory figure from /proc (VmRSS now, VmHWM its peak), in MB; 0 when gone."""
    if replica.process is None:
        return 0.0
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{replica.process.pid}/status").read_text().splitlines():
            if line.startswith(f"{field_name}:"):
                return int(line.split()[1]) / 1024
    return 0.0
