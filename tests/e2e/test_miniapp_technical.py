"""The Mini App's API for technical fouls and who voted for whom: a technical foul counted on
its own, in the view and the protocol draft; ballots where the regulation does not record
them, or junk, refused with a 4xx and nothing changed; the regulation's rules the page's own
copy of the rules reads."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from domain.game_log import Proceed, TechnicalFoul, action_to_dict
from harness.simulation.live_game import LiveGameClient
from tests.e2e.conftest import fake_telegram
from tests.e2e.test_miniapp_api import Tables, tables
from tests.unit.test_game_log_ballots import CLASSIC

__all__ = ["fake_telegram", "tables"]
pytestmark = pytest.mark.e2e


async def test_a_technical_foul_is_counted_apart_and_junk_is_refused(tables: Tables) -> None:
    client = LiveGameClient(tables.base_url, tables.games[0], tables.judges[0].web_app_data())
    try:
        status, view = await client.get()
        assert status == 200 and view["rules"]["record_ballots"] is False
        assert view["rules"]["fouls_for_removal"] == 4
        assert "game-log-not-now" in view["texts"]
        for action in (CLASSIC, Proceed(), TechnicalFoul(3), TechnicalFoul(3)):
            status, view = await client.act(action)
            assert status == 200, view
        seat = view["seats"][2]
        assert (seat["technical"], seat["fouls"], seat["out"]) == (2, 0, None)
        assert view["log"][-1]["kind"] == "technical_foul"
        version = view["version"]
        junk = [
            {"kind": "technical_foul", "seat": "3"},
            {"kind": "technical_foul"},
            {"kind": "votes", "counts": [10], "ballots": "all"},
            {"kind": "votes", "counts": [10], "ballots": [{"voter": 1}]},
        ]
        for action in junk:
            status, body = await client._call(
                "POST", "/actions", {"version": version, "action": action}
            )
            assert status == 400, (action, body)
        # Ballots in a regulation that records none, and a seat off the table: refused.
        ballots = {"kind": "votes", "counts": [10], "ballots": []}
        for action in (ballots, action_to_dict(TechnicalFoul(11))):
            status, body = await client._call(
                "POST", "/actions", {"version": version, "action": action}
            )
            assert status in (400, 422), (action, body)
        status, view = await client.get()
        assert view["version"] == version
    finally:
        await client.close()


async def test_a_tap_kept_offline_is_logged_at_its_moment(tables: Tables) -> None:
    client = LiveGameClient(tables.base_url, tables.games[0], tables.judges[0].web_app_data())
    try:
        _, view = await client.get()
        tapped = datetime.now(UTC) - timedelta(minutes=7)
        body = {"version": 0, "action": action_to_dict(CLASSIC), "at": tapped.isoformat()}
        status, view = await client._call("POST", "/actions", body)
        assert status == 200
        assert datetime.fromisoformat(view["log"][-1]["at"]) == tapped
        # A phone's clock ahead of the server's: the moment of the request.
        ahead = datetime.now(UTC) + timedelta(hours=1)
        body = {"version": 1, "action": {"kind": "next"}, "at": ahead.isoformat()}
        status, view = await client._call("POST", "/actions", body)
        assert status == 200 and datetime.fromisoformat(view["log"][-1]["at"]) < ahead
        for junk in ("yesterday", "2026-12-01T10:00:00", 5):
            body = {"version": 2, "action": {"kind": "next"}, "at": junk}
            status, _ = await client._call("POST", "/actions", body)
            assert status == 400, junk
    finally:
        await client.close()
