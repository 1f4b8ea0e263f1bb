"""Which lease holders are processes of this host that no longer run (taken over at once)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys

from bot.db.repositories.leases import _HOLDERS_HERE, holder_gone

HOST = socket.gethostname()[:40]


def test_a_process_of_this_host_that_ended_is_gone() -> None:
    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], check=True,
                           capture_output=True, text=True)  # fmt: skip
    pid = int(ended.stdout)
    assert holder_gone(f"{HOST}:{pid}:0badf00d")


def test_a_running_process_another_host_or_this_process_s_own_holder_is_not() -> None:
    assert not holder_gone(f"{HOST}:{os.getppid()}:0badf00d")
    assert not holder_gone(f"elsewhere:{os.getppid() + 10**6}:0badf00d")
    mine = f"{HOST}:{os.getpid()}:c0ffee00"
    _HOLDERS_HERE.add(mine)
    assert not holder_gone(mine)


def test_an_earlier_process_with_this_process_s_pid_is_gone() -> None:
    # A container restarted: the bot is pid 1 again, its killed predecessor was pid 1 too.
    assert holder_gone(f"{HOST}:{os.getpid()}:deadbeef")
