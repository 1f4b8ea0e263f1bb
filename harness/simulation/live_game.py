"""A table judge running a game live in the Mini App: the taps for a planned game, and the
Mini App's API as the page calls it (with the launch data Telegram signed).

`live_actions` turns a `GamePlan` (what the judge would enter in the inline protocol) into the
game as it happens at the table: roles dealt, the fouls, the days' speeches, nominations and
votes, the nights' shots and checks, the first victim's best move, the end and the extra
points; the protocol it makes is the plan's (the first kill on the plan's night, the plan's
winner). The simulation plays some of its games this way, through `LiveGameClient`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import parse_qs, urlsplit

import aiohttp

from domain.cards import Side
from domain.game_log import (
    Action,
    AllOrNobody,
    CastVotes,
    DealRoles,
    Disqualify,
    Extra,
    Finish,
    Foul,
    LiveGame,
    NameBestMove,
    Nominate,
    Phase,
    Proceed,
    Shoot,
    action_to_dict,
    apply,
)
from domain.regulation import Regulation
from harness.simulation.games import GamePlan

# A live game never needs more taps than this; more means the plan cannot be played.
MAX_TAPS = 1_000
WAIT_S = 120.0


class LiveGameError(RuntimeError):
    """The Mini App refused an action the plan needed, or the plan cannot be played live."""


def playable(plan: GamePlan) -> bool:
    """Whether the plan can be played at a table as planned (a game with no kill at all and a
    black win cannot: black missing nights loses)."""
    return plan.first_kill is not None or plan.winner is Side.RED


def live_actions(plan: GamePlan, regulation: Regulation) -> list[Action]:
    """The judge's taps for `plan`, checked against the rules as they are made."""
    game = LiveGame()
    actions: list[Action] = []

    def tap(action: Action) -> None:
        nonlocal game
        game = apply(game, action, regulation)
        actions.append(action)

    tap(DealRoles(tuple(plan.role(seat) for seat in range(1, 11))))
    for seat, count in plan.fouls:
        for _ in range(count):
            tap(Foul(seat))
    for seat in plan.disqualified:
        tap(Disqualify(seat))
    tap(Proceed())
    while game.phase not in (Phase.END_DETECTED, Phase.FINISHED):
        if len(actions) > MAX_TAPS:
            raise LiveGameError(f"the plan does not end: {plan}")
        tap(_next_tap(game, plan))
    if game.phase is Phase.END_DETECTED:
        detected = game.detected
        assert detected is not None
        tap(Finish(detected.winner or plan.winner, detected, ""))
    step = regulation.extra_points.step
    for seat, steps in plan.extra_steps:
        tap(Extra(seat, steps * step))
    return actions


def _voting_starts(game: LiveGame, plan: GamePlan) -> bool:
    # Before the first kill the days pass without nominations (nobody leaves).
    return game.first_killed is not None or plan.first_kill is None


def _target(game: LiveGame, plan: GamePlan) -> int | None:
    """Whom the town votes out: black for a red win, red for a black win."""
    wanted = Side.BLACK if plan.winner is Side.RED else Side.RED
    seats = [s for s in game.in_play if plan.role(s).side is wanted]
    return seats[0] if seats else None


def _next_tap(game: LiveGame, plan: GamePlan) -> Action:
    phase = game.phase
    if phase is Phase.SPEECHES:
        return _speech_tap(game, plan)
    if phase in (Phase.VOTING, Phase.REVOTE):
        # The target gets every vote but one per other candidate.
        others = len(game.candidates) - 1
        return CastVotes((len(game.in_play) - others, *(1,) * others))
    if phase is Phase.ALL_OR_NOBODY:
        return AllOrNobody(0)
    if phase is Phase.SHOT:
        return Shoot(_shot(game, plan))
    if phase is Phase.BEST_MOVE and plan.best_move:
        return NameBestMove(plan.best_move)
    # Introduction, speeches' ends, last words, checks skipped, no best move: go on.
    return Proceed()


def _speech_tap(game: LiveGame, plan: GamePlan) -> Action:
    speaker = game.speaker
    assert speaker is not None
    nominated = game.nominees
    if game.no_vote or not _voting_starts(game, plan) or len(nominated) >= 2:
        return Proceed()
    if any(n.by == speaker for n in game.nominations):
        return Proceed()
    target = _target(game, plan)
    if target is None:
        return Proceed()
    if not nominated:
        return Nominate(speaker, target)
    # A second candidate, so that day 1 votes too (a single candidate there is not voted on).
    decoy = next((s for s in game.in_play if s not in (target, *nominated)), None)
    return Nominate(speaker, decoy) if decoy is not None else Proceed()


def _shot(game: LiveGame, plan: GamePlan) -> int | None:
    if game.first_killed is None:
        if plan.first_kill is not None and game.night >= plan.night:
            return plan.first_kill
        return None
    if plan.winner is Side.RED:
        return None  # black misses: red wins by the votes or the missed nights
    red = [s for s in game.in_play if plan.role(s).side is Side.RED]
    return red[0] if red else None


class LiveGameClient:
    """The Mini App's API for one game, called with a person's signed launch data."""

    def __init__(self, base_url: str, game_id: int, init_data: str) -> None:
        self.base_url = base_url.rstrip("/")
        self.game_id = game_id
        self.init_data = init_data
        self.view: dict[str, Any] = {}
        self._http: aiohttp.ClientSession | None = None

    async def close(self) -> None:
        """Close the client's connection."""
        if self._http is not None:
            await self._http.close()

    async def _call(
        self, method: str, path: str, body: dict[str, Any] | None = None
    ) -> tuple[int, dict[str, Any]]:
        url = f"{self.base_url}/app/api/games/{self.game_id}{path}"
        headers = {"Authorization": f"tma {self.init_data}"}
        if self._http is None or self._http.closed:
            # One connection for the whole game, as the page keeps one.
            self._http = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(WAIT_S))
        async with self._http.request(method, url, json=body, headers=headers) as response:
            data = await response.json()
        if response.status in (200, 409, 422):
            self.view = data
        return response.status, data

    @classmethod
    def launched(cls, address: str) -> LiveGameClient:
        """The client of the page a `web_app` button opened (its address with the launch
        fragment, as `FakeUser.open_web_app` gives it)."""
        page, fragment = address.split("#", 1)
        parts = urlsplit(page)
        game_id = int(parts.path.rstrip("/").rsplit("/", 1)[1])
        data = parse_qs(fragment)["tgWebAppData"][0]
        return cls(f"{parts.scheme}://{parts.netloc}", game_id, data)

    async def get(self) -> tuple[int, dict[str, Any]]:
        return await self._call("GET", "")

    async def act(self, action: Action) -> tuple[int, dict[str, Any]]:
        body = {"version": self.view.get("version", 0), "action": action_to_dict(action)}
        return await self._call("POST", "/actions", body)

    async def undo(self) -> tuple[int, dict[str, Any]]:
        return await self._call("POST", "/undo", {"version": self.view.get("version", 0)})

    async def confirm(self) -> tuple[int, dict[str, Any]]:
        return await self._call("POST", "/confirm", {})

    async def play(
        self, actions: list[Action], pause: Callable[[], Awaitable[None]] | None = None
    ) -> dict[str, Any]:
        """Tap every action in order (after `pause`, a person's), then confirm;
        LiveGameError at the first refusal."""
        try:
            status, _ = await self.get()
            if status != 200:
                raise LiveGameError(f"game {self.game_id}: the Mini App answered {status}")
            for action in actions:
                if pause is not None:
                    await pause()
                status, view = await self.act(action)
                if status != 200:
                    said = view.get("refused") or view.get("message") or status
                    raise LiveGameError(f"game {self.game_id}: {action} refused: {said}")
            status, view = await self.confirm()
            if status != 200 or not view.get("confirmed"):
                said = view.get("refused") or view.get("message") or status
                raise LiveGameError(f"game {self.game_id}: not confirmed: {said}")
            return view
        finally:
            await self.close()


__all__ = ["LiveGameClient", "LiveGameError", "live_actions", "playable"]
