"""A whole duel in the playground, flown in headless Chromium as two people would: each
turn the pilot to move presses the board's Play once, then chooses in the private
cockpit — a plane and where it ends up, a placement, a shot — until their turn is done.
The presses each plane action took after Play are counted and printed."""

from __future__ import annotations

import random
import statistics

import pytest
from playwright.sync_api import sync_playwright

from e2e.browser import (
    CHROMIUM,
    PLAY,
    WAIT_MS,
    WITHOUT_PICTURES,
    act_as,
    board_id,
    cockpit_done,
    needs_chromium,
    open_cockpit,
    pilot_to_move,
    press_once,
    wait_for_next_board,
)

# a whole game, press by press: on a machine busy with other work it takes minutes
pytestmark = [needs_chromium, pytest.mark.timeout(600)]

FINISHED = "() => !document.querySelector(\"button[data-custom-id^='xh:play:']\")"


def test_a_whole_duel_flown_by_pressing_as_a_person_does(playground: str) -> None:
    rng = random.Random(4)
    per_action: list[int] = []
    per_turn: list[int] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=WITHOUT_PICTURES)
        page = browser.new_page()
        page.set_default_timeout(WAIT_MS)
        page.goto(playground)
        page.wait_for_selector("#viewer option", state="attached")

        act_as(page, "Amy")
        page.fill("#command", "/crosshairs challenge")
        page.select_option("select[name=opponent]", label="Ben")
        page.fill("input[name=planes]", "3")
        page.select_option("select[name=clouds]", value="none")
        page.click("#send")
        accept = "button[data-custom-id$=':accept']"
        page.wait_for_selector(accept)
        act_as(page, "Ben")
        page.click(accept)
        page.click("a.channel-link")
        page.wait_for_selector(PLAY)

        try:
            while not page.evaluate(FINISHED) and len(per_turn) < 80:
                board = board_id(page)
                act_as(page, pilot_to_move(page))
                open_cockpit(page)
                presses, since = 1, 0
                while not cockpit_done(page):
                    pressed, plays = press_once(page, rng)
                    presses += 1
                    since += 1
                    if plays and not pressed.startswith(("🎯", "Hold fire", "End dive")):
                        per_action.append(since)
                    if plays:
                        since = 0
                    assert presses < 60, "a turn that never ends"
                per_turn.append(presses)
                wait_for_next_board(page, board)
        except Exception:
            print(page.inner_text("body"))  # what the page showed, for the failure report
            raise

        text = page.inner_text("#messages")
        assert "wins" in text or "drawn" in text, text[-2000:]
        assert "Turn 1, Amy (P1)" in text  # each turn told in words in the thread
        browser.close()

    print(
        f"{len(per_action)} plane actions in {len(per_turn)} turns; presses per plane "
        f"action after Play: median {statistics.median(per_action):g}, max {max(per_action)}; "
        f"per turn: median {statistics.median(per_turn):g}, max {max(per_turn)}"
    )
    assert statistics.median(per_action) <= 2 and max(per_action) <= 4  # automatic fire
