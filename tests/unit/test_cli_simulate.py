"""`mafiatour simulate` (and `make run` without a token) ends a Ctrl+C in one line."""

from __future__ import annotations

import pytest

import harness.simulation
from bot.commands import simulate


def test_ctrl_c_ends_the_demonstration_without_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    async def interrupted(*_args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(harness.simulation, "simulate", interrupted)
    assert simulate.run(simulate.default_arguments()) == 130
    assert capsys.readouterr().err == "mafiatour: the simulation was interrupted\n"
