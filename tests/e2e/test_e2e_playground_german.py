"""The playground in German (``python -m launcher --language de``), in headless Chromium:
a duel challenged, accepted and flown by pressing for a few turns; what the channel and
the thread show has no English word in it (:mod:`e2e.english`), and the screenshot
``duel-de.png`` is saved where :func:`e2e.browser.shots_dir` says (the docs show it)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, sync_playwright

from e2e.browser import (
    CHROMIUM,
    FLAGS,
    PLAY,
    WAIT_MS,
    act_as,
    board_id,
    cockpit_done,
    needs_chromium,
    open_cockpit,
    press_once,
    run_playground,
    shots_dir,
    wait_for_next_board,
)
from e2e.english import english_in

pytestmark = needs_chromium


@pytest.fixture
def german_playground(tmp_path: Path) -> Iterator[str]:
    yield from run_playground(tmp_path, "--language", "de")


def pilot_to_move(page: Page) -> str:
    """The pilot the newest board names as the one to fly, in German."""
    text = page.locator(PLAY).last.locator("xpath=ancestor::div[contains(@class,'message')]")
    found = re.search(r"(\w+) \(P\d\) fliegt", text.inner_text())
    assert found, text.inner_text()
    return found[1]


def test_a_duel_in_the_german_playground_reads_german(
    german_playground: str, tmp_path: Path
) -> None:
    rng = random.Random(5)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = browser.new_page(viewport={"width": 1280, "height": 1000})
        page.set_default_timeout(WAIT_MS)
        page.goto(german_playground)
        page.wait_for_selector("#viewer option", state="attached")
        try:
            act_as(page, "Amy")
            page.fill("#command", "/crosshairs challenge")
            page.dispatch_event("#command", "input")
            page.select_option("select[name=opponent]", label="Ben")
            page.fill("input[name=planes]", "3")
            page.click("#send")
            accept = "button[data-custom-id$=':accept']"
            page.wait_for_selector(accept)
            assert page.locator(accept).inner_text() == "Annehmen"
            challenged = page.inner_text("#messages")
            act_as(page, "Ben")
            page.click(accept)
            page.click("a.channel-link")
            page.wait_for_selector(PLAY)
            read = [challenged]
            for _turn in range(4):
                board = board_id(page)
                act_as(page, pilot_to_move(page))
                open_cockpit(page)
                for _press in range(30):
                    if cockpit_done(page):
                        break
                    press_once(page, rng)
                wait_for_next_board(page, board)
                read.append(page.inner_text("#messages"))
            act_as(page, pilot_to_move(page))
            open_cockpit(page)
            read.append(page.inner_text("#messages"))
            page.screenshot(path=str(shots_dir(tmp_path) / "duel-de.png"))
        finally:
            browser.close()
    assert "Annehmen" in read[0] and "fordert" in read[0]
    assert "du bist am Zug" in read[-1]
    # the local Discord's own note on an ephemeral message (Discord's client says it in
    # its reader's language; the playground's page speaks English) is not the bot's
    bot_said = [text.replace("Only you can see this", "") for text in read]
    assert {w for text in bot_said for w in english_in(text)} == set()
