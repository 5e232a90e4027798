"""The user-installed app in the playground, in headless Chromium as two people would:
Amy and Ben's DM (which the bot is not in) is listed only to them; a challenge there
becomes the board, flown with the board's own menus and buttons, then resigned; the
final board carries the ratings line, Rematch and Record, and Ben's Accept turns the
rematch offer into the new board (docs/anywhere.md)."""

from __future__ import annotations

import random
import re

from playwright.sync_api import Locator, Page, sync_playwright

from e2e.browser import CHROMIUM, POLL_MS, WAIT_MS, WITHOUT_PICTURES, act_as, needs_chromium, send

pytestmark = needs_chromium

SHARED = "#messages .message:not(.ephemeral)"
MENU = "select.menu[data-custom-id^='xh:cm:']:not([disabled])"
STEP = "button[data-custom-id^='xh:ck:']:not([disabled])"


def board(page: Page) -> Locator:
    return page.locator(SHARED).last


def to_fly(page: Page) -> str:
    found = re.search(r"@(\w+), your turn", board(page).inner_text())
    assert found, board(page).inner_text()
    return found[1]


def fly_once(page: Page, rng: random.Random) -> None:
    """One choice on the board, by whoever is to fly: a whole plane action from a menu
    (away from the edge), else a step; then wait for the board to change."""
    act_as(page, to_fly(page))
    shown = board(page)
    before = shown.inner_html()
    menus = shown.locator(MENU).all()
    options = [
        (menu, o["value"], o["title"])
        for menu in menus
        for o in menu.evaluate(
            "s => [...s.options].filter(o => o.value)"
            ".map(o => ({value: o.value, title: o.dataset.description || ''}))"
        )
    ]
    safe = [o for o in options if "edge" not in o[2] and "crash" not in o[2]]
    if options:
        menu, value, _ = rng.choice(safe or options)
        menu.select_option(value)
    else:
        steps = shown.locator(STEP).all()
        shots = [b for b in steps if b.inner_text().startswith("🎯")]
        (shots or steps)[0].click()
    page.wait_for_function(
        "([sel, old]) => { const all = document.querySelectorAll(sel);"
        " return all.length && all[all.length - 1].innerHTML !== old; }",
        arg=[SHARED, before],
        polling=POLL_MS,
    )


def test_a_duel_and_its_rematch_in_a_dm_of_the_playground(playground: str) -> None:
    rng = random.Random(2)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=WITHOUT_PICTURES)
        page = browser.new_page()
        page.set_default_timeout(WAIT_MS)
        page.goto(playground)
        page.wait_for_selector("#viewer option", state="attached")
        try:
            act_as(page, "Cleo")
            assert "Amy-Ben" not in page.inner_text("#channels")  # not her DM
            act_as(page, "Amy")
            page.click("#channels li:has-text('@ Amy-Ben')")
            page.wait_for_selector("#channel-name:has-text('Amy-Ben')")
            send(page, "/crosshairs challenge", opponent="Ben", planes="3", clouds="none")
            page.wait_for_selector(f"{SHARED} button[data-custom-id$=':accept']")
            act_as(page, "Ben")
            board(page).locator("button[data-custom-id$=':accept']").click()
            page.wait_for_selector(f"{SHARED} {MENU}")
            assert page.locator(SHARED).count() == 1  # the challenge became the board

            first = to_fly(page)
            for turn in (0, 1):  # each side flies a whole turn
                while (to_fly(page) == first) == (turn == 0):
                    fly_once(page, rng)
            act_as(page, "Amy")
            board(page).locator("button[data-custom-id^='xh:resign:']").click()
            page.click(".message.ephemeral button[data-custom-id^='xh:sure:']")
            page.wait_for_selector(f"{SHARED} button[data-custom-id^='xh:rm:']")
            final = board(page).inner_text()
            assert "📊 Ratings (Duels)" in final and "Record" in final, final
            assert page.locator(SHARED).count() == 1

            board(page).locator("button[data-custom-id^='xh:rm:']").click()
            page.wait_for_selector(f"{SHARED} button[data-custom-id^='xh:ra:']")
            act_as(page, "Ben")
            board(page).locator("button[data-custom-id$=':accept']").click()
            page.wait_for_selector(f"{SHARED}:last-of-type {MENU}")
            assert "your turn" in board(page).inner_text()
            assert page.locator(SHARED).count() == 2  # the final board, then the rematch
        except Exception:
            print(page.inner_text("body"))  # what the page showed, for the failure report
            raise
        browser.close()
