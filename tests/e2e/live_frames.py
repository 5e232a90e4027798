"""The live board's real page, with Discord's real Embedded App SDK, inside the parent
frame of localcord's playground page, in headless Chromium: opening it from the
channel's App Launcher, tapping, and a whole duel played so while the thread is watched."""

from __future__ import annotations

import random
from pathlib import Path

from playwright.sync_api import FrameLocator, Locator, Page, sync_playwright
from support.live_pages import CHOICE

from e2e.activity_stub import SDK
from e2e.browser import (
    CHROMIUM,
    PLAY,
    POLL_MS,
    WAIT_MS,
    WITHOUT_PICTURES,
    act_as,
    open_cockpit,
    press_once,
)

MOST_TAPS = 400  # a duel of random taps ends long before
# A person's tap in the frame's page, as tests/support/live_pages.py taps: whether
# there was anything to tap
TAP = f"(body, seed) => ({CHOICE})(seed) !== ''"


def live_board(page: Page) -> FrameLocator:
    """The bot's page, inside the frame that plays Discord's client."""
    return page.frame_locator("#activity iframe").frame_locator("#activity")


def body(page: Page) -> Locator:
    return live_board(page).locator("body")


def ply_of(page: Page) -> int:
    return int(body(page).get_attribute("data-ply") or -1)


def shows(page: Page, ply: int) -> None:
    """Wait until the live board shows the match at ``ply`` or later."""
    live_board(page).locator("body[data-ply]").wait_for(state="attached")
    body(page).evaluate(
        """(b, ply) => new Promise(done => {
          const check = () => Number(b.dataset.ply) >= ply || b.dataset.over === "true";
          if (check()) return done(true);
          new MutationObserver((_, o) => { if (check()) { o.disconnect(); done(true); } })
            .observe(b, { attributes: true });
        })""",
        ply,
    )


def open_live_board(page: Page, name: str) -> None:
    """As ``name``, in the match's channel: the App Launcher, or Join where it runs."""
    act_as(page, name)
    join = page.locator("#activity-here button")
    (join if join.is_visible() else page.locator("#launcher")).click()
    body(page).locator("#board polygon").first.wait_for(state="attached")


def fly_with_buttons(page: Page, mover: str) -> None:
    """One choice made with the thread's board: Play, then one choice in the cockpit."""
    act_as(page, mover)
    open_cockpit(page)
    press_once(page, random.Random(1))


SHOTS = {"Amy": "activity-desktop.png", "Ben": "activity-phone.png"}


def poses(page: Page) -> int:
    return live_board(page).locator("#board .pose:not(.crash)").count()


def shoot(page: Page, path: Path) -> None:
    """The Activity as the person sees it: beside the channel, or over it on a phone."""
    shown = page.locator("#activity")
    if page.viewport_size and page.viewport_size["width"] < 640:
        page.screenshot(path=str(path))
    else:
        shown.screenshot(path=str(path))


def a_duel_by_tapping(address: str, shots: Path) -> None:
    """Amy and Ben play a whole duel by tapping, each in the live board in their own
    browser context, opened from the channel's App Launcher (Ben's before the challenge
    he accepts: it shows the match once it begins); Cleo watches the thread in
    a third, where one move is made with the board's buttons in the middle (her page
    switched to the player to move); the thread tells the duel as for buttons. Ben's
    page is a phone's (the Activity over the channel): ``shots`` gets a picture of
    each. At the end Amy asks for the rematch on her page, Ben accepts on his, and both
    go on to the new match."""
    assert (SDK / "index.mjs").exists(), "no SDK in activity/sdk/: run bash scripts/setup"
    rng = random.Random(5)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=WITHOUT_PICTURES)
        pages: dict[str, Page] = {}
        for name in ("Amy", "Ben", "Cleo"):
            page = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
            page.set_default_timeout(WAIT_MS)
            page.goto(address)
            page.wait_for_selector("#viewer option", state="attached")
            act_as(page, name)
            pages[name] = page
        amy, ben, cleo = pages["Amy"], pages["Ben"], pages["Cleo"]
        try:
            # Ben opens the live board before there is a match to show; his acceptance
            # begins one, and his open page shows it without being opened again
            ben.locator("#launcher").click()
            live_board(ben).locator("#hint").filter(has_text="No match").wait_for()
            amy.fill("#command", "/crosshairs challenge")
            amy.select_option("select[name=opponent]", label="Ben")
            amy.fill("input[name=planes]", "3")
            amy.select_option("select[name=clouds]", value="none")
            amy.click("#send")
            ben.locator("button[data-custom-id$=':accept']").last.click()
            cleo.locator("a.channel-link").last.click()  # Cleo watches the thread
            cleo.wait_for_selector(PLAY)

            # In the thread, Discord launches no Activity: the button says where it does
            act_as(cleo, "Amy")
            cleo.locator("button[data-custom-id^='xh:live:']").last.click()
            said = cleo.locator(".message.ephemeral").last
            said.filter(has_text="App Launcher").wait_for()
            act_as(cleo, "Cleo")

            open_live_board(amy, "Amy")
            live_board(ben).locator("body[data-ply]").wait_for(state="attached")
            ben.set_viewport_size({"width": 400, "height": 860})
            players = {"Amy": amy, "Ben": ben}
            button_flown = False
            shot: set[str] = set()
            for _ in range(MOST_TAPS):
                ply = max(ply_of(amy), ply_of(ben))
                for page in players.values():
                    shows(page, ply)
                if body(amy).get_attribute("data-over") == "true":
                    break
                mover = next(
                    (
                        n
                        for n, pg in players.items()
                        if body(pg).get_attribute("data-mine") == "true"
                    ),
                    None,
                )
                assert mover is not None, body(amy).inner_text()
                if ply >= 6 and not button_flown:
                    fly_with_buttons(cleo, mover)  # Cleo's page, switched to the mover
                    act_as(cleo, "Cleo")
                    button_flown = True
                    for page in players.values():  # the button's move appears live
                        shows(page, ply + 1)
                    continue
                if ply >= 8 and mover not in shot and poses(players[mover]) >= 3:
                    shoot(players[mover], shots / SHOTS[mover])  # each one's choice on
                    shot.add(mover)
                assert body(players[mover]).evaluate(TAP, rng.randrange(1 << 20))
                shows(players[mover], ply + 1)
            assert button_flown
            for page in players.values():
                live_board(page).locator("body[data-over='true']").wait_for(state="attached")
            status = live_board(amy).locator("#status").inner_text()
            assert status and status == live_board(ben).locator("#status").inner_text()

            # The thread, as Cleo sees it, tells the duel as for one played with buttons
            cleo.wait_for_function(
                "() => document.querySelector('#messages').innerText.includes('📊 Ratings')",
                polling=POLL_MS,
            )
            thread = cleo.inner_text("#messages")
            assert status in thread, thread[-2000:]
            assert "Turn 1, Amy (P1)" in thread or "Turn 1, Ben (P1)" in thread, thread[-3000:]
            assert "📊 Ratings (Duels)" in thread

            # Rematch from the pages: Amy asks on hers, Ben accepts on his, the thread
            # tells both, and each page goes on to the new match
            actions = {name: live_board(pg).locator("#actions") for name, pg in players.items()}
            actions["Amy"].get_by_role("button", name="🔁 Rematch").click()
            actions["Amy"].locator("#rematch").filter(has_text="waiting for Ben").wait_for()
            actions["Ben"].get_by_role("button", name="Accept").click()
            for name, page in players.items():
                actions[name].get_by_role("button", name="➡️ Go to the rematch").click()
                live_board(page).locator("body[data-over='false']").wait_for(state="attached")
                assert ply_of(page) == 0 and "#2" in body(page).inner_text()
            cleo.wait_for_function(
                "() => document.querySelector('#messages').innerText.includes('rematch is on')",
                polling=POLL_MS,
            )
            assert "**Rematch?**" not in cleo.inner_text("#messages")  # markdown, drawn
        except Exception:
            for name, page in pages.items():
                print(f"--- {name}:\n{page.inner_text('body')[-3000:]}")
            raise
        browser.close()
