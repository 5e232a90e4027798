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
    POLL_MS,
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
            commands = page.eval_on_selector_all(
                "#command-list option", "all => all.map(o => [o.value, o.textContent])"
            )
            page.fill("#command", "/crosshairs fordern")
            page.dispatch_event("#command", "input")
            page.select_option("select[name=gegner]", label="Ben")
            page.fill("input[name=flieger]", "3")
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
            # the first plane flown by typing the notation the bot suggests in German
            act_as(page, pilot_to_move(page))
            typed = type_a_move(page)
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
    # the command list as a German Discord shows it: German names and descriptions
    names = [name for name, _description in commands]
    assert {"/crosshairs fordern", "/crosshairs zug", "/crosshairs brett"} <= set(names)
    assert not {"/crosshairs challenge", "/crosshairs move"} & set(names)
    assert ["/crosshairs zug", "Per Notation fliegen: c3C< oder e6SS>P *d4"] in commands
    assert typed.startswith("✅"), typed
    assert "Annehmen" in read[0] and "fordert" in read[0]
    assert "du bist am Zug" in read[-1]
    # the page's own words are German too ("Nur du kannst das sehen")
    assert {w for text in read for w in english_in(text)} == set()


def type_a_move(page: Page) -> str:
    """Type ``/crosshairs zug``, take a notation its autocomplete suggests, send
    it and return what the bot answered, once the next board is up."""
    answers, before = page.locator(".message.ephemeral").count(), board_id(page)
    page.fill("#command", "/crosshairs zug")
    page.dispatch_event("#command", "input")
    page.focus("input[name=zeichen]")
    page.wait_for_selector("#choices-zeichen[data-filled] option", state="attached")
    offered = page.eval_on_selector_all("#choices-zeichen option", "all => all.map(o => o.value)")
    # a plane brought on facing up the board, not into a crash at the edge
    page.fill("input[name=zeichen]", next((t for t in offered if t.endswith("NE")), offered[0]))
    page.click("#send")
    # answered: a new private message, no longer "thinking"
    page.wait_for_function(
        """n => { const all = document.querySelectorAll('.message.ephemeral .text');
          return all.length > n && !all[all.length - 1].querySelector('i'); }""",
        arg=answers,
        polling=POLL_MS,
    )
    said = page.locator(".message.ephemeral .text").last.inner_text()
    wait_for_next_board(page, before)
    return said
