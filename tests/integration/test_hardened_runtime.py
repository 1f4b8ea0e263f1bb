"""The bot's runtime under the hardened unit's `MemoryDenyWriteExecute=yes`.

systemd enforces it through the kernel's prctl(PR_SET_MDWE) where there is one (Linux 6.3+),
else through a seccomp filter: no mapping may be writable and executable, and children inherit
it. The test sets the same restriction on a fresh interpreter, then loads the bot's libraries
and draws a standings picture in the painter's own process (numpy and matplotlib), as the
service does; should any of them need W+X memory, it would die here rather than in production.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[2]
UNIT = ROOT / "deploy" / "mafiatour.service"

SCRIPT = """
import asyncio, ctypes, mmap, sys
PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN = 65, 1
libc = ctypes.CDLL(None, use_errno=True)
if libc.prctl(PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN, 0, 0, 0) != 0:
    sys.exit("prctl(PR_SET_MDWE) refused: errno %d" % ctypes.get_errno())
try:
    mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
    sys.exit("a writable and executable mapping was allowed")
except PermissionError:
    pass
import aiosqlite, asyncpg, redis.asyncio, bot.app, bot.web
from bot.rendering.pictures import StandingsPainter
from tests.unit.test_standings_render import cup_board

async def main():
    painter = StandingsPainter()
    try:
        pictures = await painter.draw_all(cup_board(10), "ru")
    finally:
        await painter.close()
    print("picture", pictures[0][:4])

if __name__ == "__main__":
    asyncio.run(main())
"""


def test_the_bot_draws_pictures_with_memory_deny_write_execute() -> None:
    assert "MemoryDenyWriteExecute=yes" in UNIT.read_text().splitlines()
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "picture b'\\x89PNG'" in done.stdout
