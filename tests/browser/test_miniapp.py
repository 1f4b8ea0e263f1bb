"""The judge's live game in a real headless Chromium at a phone's size, against the real bot
and the fake Telegram: a whole game by taps, a reload in the middle, a forged launch refused;
the protocol, standings and channel post equal what the inline screen gives."""

from __future__ import annotations

from decimal import Decimal

from bot.i18n import format_points
from domain.game_log import (
    Action,
    CastVotes,
    Check,
    DealRoles,
    Extra,
    Finish,
    Foul,
    NameBestMove,
    Nominate,
    Phase,
    Proceed,
    Shoot,
)
from harness.simulation.live_game import live_actions
from harness.simulation.roles import Pace, called, open_protocol
from tests.browser.conftest import BrowserPage, HeadlessBrowser
from tests.e2e.conftest import fake_telegram
from tests.e2e.test_miniapp_api import CUP, PLAN, Tables, assert_same_as_inline, tables

__all__ = ["fake_telegram", "tables"]
WAIT_MS = 120_000


class Judge:
    """Taps the Mini App the way a judge does, and waits for the server's answer each time."""

    def __init__(self, shown: BrowserPage) -> None:
        self.shown = shown
        self.page = shown.page
        # Every tap on the screen, counted (the judge's work for a game).
        self.taps = 0

    async def version(self) -> int:
        return int(await self.page.get_attribute("body", "data-version") or -1)

    async def phase(self) -> str:
        return await self.page.get_attribute("body", "data-phase") or ""

    async def tap(self, selector: str, *, saved: bool = True) -> None:
        """Tap; with `saved`, wait until the game's version moved on (the tap is stored)."""
        before = await self.version()
        await self.page.locator(selector).first.click()
        self.taps += 1
        if saved:
            # Each stored tap moves the game one version on (the page's CSP forbids eval).
            await self.page.wait_for_selector(f'body[data-version="{before + 1}"]', timeout=WAIT_MS)

    async def seat(self, seat: int, *, saved: bool = True) -> None:
        await self.tap(f'#seats button[data-seat="{seat}"]', saved=saved)

    async def play(self, action: Action) -> None:
        """The taps of one action."""
        phase = Phase(await self.phase())
        if isinstance(action, DealRoles):
            await self.tap("#mode-roles", saved=False)
            # The role tool moves on by itself: don, sheriff, then both mafia; the fourth of
            # them deals the roles (the others are civilians).
            placed = [
                seat
                for role in ("don", "sheriff", "mafia")
                for seat, dealt in enumerate(action.roles, start=1)
                if dealt is not None and dealt.value == role
            ]
            for index, seat in enumerate(placed):
                await self.seat(seat, saved=index == len(placed) - 1)
        elif isinstance(action, Foul):
            # One tap on the seat's foul button, from the play screen.
            await self.tap(f"#foul-{action.seat}")
        elif isinstance(action, Proceed):
            button = {
                Phase.DON_CHECK: "#check-skip",
                Phase.SHERIFF_CHECK: "#check-skip",
                Phase.BEST_MOVE: "#best-move-none",
            }.get(phase, "#next")
            await self.tap(button)
        elif isinstance(action, Nominate | Shoot) and getattr(action, "target", 0) is None:
            await self.tap("#miss")
        elif isinstance(action, Nominate | Shoot):
            assert action.target is not None
            await self.seat(action.target)
        elif isinstance(action, Check):
            await self.seat(action.seat)
        elif isinstance(action, CastVotes):
            # One tap per candidate but the last (the rest of the votes are his); the tap on
            # the last row ends the vote.
            candidates = [
                int(c)
                for c in (await self.page.get_attribute("body", "data-candidates") or "").split(",")
                if c
            ]
            if len(candidates) == 1:
                await self.tap("#votes-submit")
            for index, (seat, count) in enumerate(
                zip(candidates[:-1], action.counts[:-1], strict=True)
            ):
                await self.tap(f"#vote-{seat}-{count}", saved=index == len(candidates) - 2)
        elif isinstance(action, NameBestMove):
            # The third seat named ends the best move.
            for index, seat in enumerate(action.seats):
                await self.seat(seat, saved=index == 2)
            if len(action.seats) < 3:
                await self.tap("#best-move-done")
        elif isinstance(action, Finish):
            await self.tap("#end-confirm")
        elif isinstance(action, Extra):
            await self.seat(action.seat, saved=False)
            await self.tap(f'[id="extra-{format_points(Decimal(action.points))}"]')
        else:
            raise AssertionError(f"no taps for {action}")


async def test_a_judge_plays_a_whole_game_by_taps_on_a_phone(
    tables: Tables, browser: HeadlessBrowser
) -> None:
    judge_account = tables.judges[0]
    screen = await open_protocol(judge_account, await called(judge_account), Pace(speed=1000))
    address = judge_account.open_web_app(screen.message, "🎲 Вести игру")
    shown = await browser.new_page(width=375, height=667, locale="ru-RU")
    await shown.goto(address)
    judge = Judge(shown)
    await shown.page.wait_for_selector('body[data-version="0"]', timeout=WAIT_MS)
    assert "Ночь знакомства" in await shown.page.inner_text("#phase")
    # Large targets for a noisy table: every seat is at least 48 px high at 375 px wide, its
    # foul button beside it at least 44 px wide.
    box = await shown.page.locator('#seats button[data-seat="1"]').bounding_box()
    assert box is not None and box["height"] >= 48 and box["width"] >= 110
    foul = await shown.page.locator("#foul-1").bounding_box()
    assert foul is not None and foul["height"] >= 48 and foul["width"] >= 44
    actions = live_actions(PLAN, CUP)
    middle = len(actions) // 2
    for index, action in enumerate(actions):
        if index == middle:
            # A reload in the middle of the game resumes where it was.
            version, phase = await judge.version(), await judge.phase()
            await shown.page.reload()
            await shown.page.wait_for_selector(f'body[data-version="{version}"]', timeout=WAIT_MS)
            assert await judge.phase() == phase
        await judge.play(action)
    assert await judge.phase() == "finished"
    scores = await shown.page.inner_text("#scores")
    assert "2,3" in scores
    await judge.tap("#confirm", saved=False)
    await shown.page.wait_for_selector("text=Протокол подтверждён", timeout=WAIT_MS)
    shown.assert_no_console_errors()
    await assert_same_as_inline(tables)


async def test_a_forged_launch_is_refused_and_shows_why(
    tables: Tables, browser: HeadlessBrowser
) -> None:
    judge_account = tables.judges[0]
    screen = await open_protocol(judge_account, await called(judge_account), Pace(speed=1000))
    address = judge_account.open_web_app(screen.message, "🎲 Вести игру")
    forged = address.replace("hash%3D", "hash%3D0")
    assert forged != address
    shown = await browser.new_page(width=375, height=667)
    await shown.goto(forged)
    await shown.page.wait_for_selector("#message:not([hidden])", timeout=WAIT_MS)
    assert "подпись не подтверждена" in await shown.page.inner_text("#message")
