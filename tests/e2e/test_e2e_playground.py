"""The playground in a real browser: Debian's Chromium, driven by Playwright.

``python -m launcher`` (what ``bash scripts/run`` starts) with no token starts the
playground, here in a fresh interpreter as on a newcomer's machine (the other browser
tests fork it from the suite's zygote); the test opens its page, has Amy challenge Ben,
accepts as Ben, and flies moves by clicking the board's Play button and choosing in the
cockpit, checking that a new board image appears after every move.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, sync_playwright

from e2e.browser import (
    CHROMIUM,
    POLL_MS,
    WAIT_MS,
    WITHOUT_PICTURES,
    act_as,
    needs_chromium,
    open_cockpit,
    pilot_to_move,
    press_once,
    run_playground,
)

pytestmark = needs_chromium


@pytest.fixture
def playground(tmp_path: Path) -> Iterator[str]:
    yield from run_playground(tmp_path, fresh=True)


BOARD_IMAGE = """() => {
  const play = document.querySelector("button[data-custom-id^='xh:play:']");
  const img = play && play.closest('.message').querySelector('img');
  return img ? img.src : null;
}"""


def fly_one_step(page: Page) -> None:
    """Play, then choices in the cockpit until something is played."""
    open_cockpit(page)
    rng = random.Random(1)
    for _ in range(8):
        if press_once(page, rng)[1]:
            return
    pytest.fail("the cockpit never offered a step")


def test_a_challenge_and_moves_played_by_clicking_in_chromium(playground: str) -> None:
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
        page.click("#send")
        accept = "button[data-custom-id$=':accept']"
        page.wait_for_selector(accept)

        act_as(page, "Ben")
        page.click(accept)
        page.click("a.channel-link")
        page.wait_for_selector("button[data-custom-id^='xh:play:']")
        boards = [page.evaluate(BOARD_IMAGE)]
        assert boards[0]

        for _ in range(4):
            act_as(page, pilot_to_move(page))
            try:
                fly_one_step(page)
                page.wait_for_function(
                    f"(old) => ({BOARD_IMAGE})() !== old", arg=boards[-1], polling=POLL_MS
                )
            except Exception:
                print(page.inner_text("body"))  # what the page showed, for the failure report
                raise
            boards.append(page.evaluate(BOARD_IMAGE))
        assert len(set(boards)) == len(boards)  # a new image after every move

        # the spectator sees the board but none of the pilots' cockpits
        act_as(page, "Spectator")
        page.wait_for_function(
            "() => !document.querySelector('.message.ephemeral')", polling=POLL_MS
        )
        assert page.evaluate(BOARD_IMAGE) == boards[-1]
        browser.close()
