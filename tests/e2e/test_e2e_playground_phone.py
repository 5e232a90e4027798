"""The playground on a phone: Chromium at 400 px wide.

The first test runs the playground as a newcomer starts it, plays the opening of a duel
at that width and checks what a phone must show: the sidebar folded behind ☰, the
channel using the width, the board, the cockpit's menus and Send on screen. It saves
the screenshot playground-phone.png (where :func:`e2e.browser.shots_dir` says). The
second serves the page in-process,
so that it can hold files and a long thread: a non-image file is a link to download and
"Load older messages" reaches past the newest 80.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import async_playwright
from playwright.sync_api import Page, ViewportSize, sync_playwright

from e2e.browser import CHROMIUM, FLAGS, WAIT_MS, needs_chromium, shots_dir
from localcord.playground import MESSAGES_SHOWN, Playground
from localcord.server import LocalDiscord
from localcord.state import Attachment

pytestmark = needs_chromium

PHONE = ViewportSize(width=400, height=820)


def on_screen(page: Page, selector: str) -> None:
    """The element is laid out inside the 400 px width, not cut off or folded away."""
    box = page.locator(selector).last.bounding_box()
    assert box is not None, f"{selector} is not shown"
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 0.5, (selector, box)


def be(page: Page, pilot: str) -> None:
    """Open ☰ and pick the person; the sidebar folds away by itself."""
    page.click("#menu-toggle")
    chosen = page.select_option("#viewer", label=pilot)[0]
    page.wait_for_selector(f"#messages[data-viewer='{chosen}']", state="attached")
    assert not page.locator("#sidebar").is_visible()


def test_a_duel_on_a_400_px_phone(playground: str, tmp_path: Path) -> None:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = browser.new_page(viewport=PHONE)
        page.set_default_timeout(WAIT_MS)
        page.goto(playground)
        page.wait_for_selector("#viewer option", state="attached")
        assert not page.locator("#sidebar").is_visible()  # folded away on a phone
        assert page.locator("main").bounding_box()["width"] == PHONE["width"]  # type: ignore[index]
        # open, the sidebar lists Amy's DM from the start and leaves ☰ to fold it again
        page.click("#menu-toggle")
        page.locator("#channels li", has_text="@ Amy-Ben").wait_for()
        toggle = page.locator("#menu-toggle").bounding_box()
        assert toggle is not None
        on_top = "([x, y]) => document.elementFromPoint(x, y).id"
        middle = [toggle["x"] + toggle["width"] / 2, toggle["y"] + toggle["height"] / 2]
        assert page.evaluate(on_top, middle) == "menu-toggle"
        page.click("#menu-toggle")
        assert not page.locator("#sidebar").is_visible()

        be(page, "Amy")
        page.fill("#command", "/crosshairs challenge")
        page.select_option("select[name=opponent]", label="Ben")
        page.fill("input[name=planes]", "3")
        on_screen(page, "#send")
        page.click("#send")
        accept = "button[data-custom-id$=':accept']"
        page.wait_for_selector(accept)
        be(page, "Ben")
        page.click(accept)
        page.click("a.channel-link")  # into the match thread
        play = "button[data-custom-id^='xh:play:']"
        page.wait_for_selector(play)
        be(page, "Amy")
        page.click(play)
        menu = ".message.ephemeral select.menu"
        page.wait_for_selector(menu)
        board = page.locator(
            "xpath=//button[starts-with(@data-custom-id,'xh:play:')]"
            "/ancestor::div[contains(@class,'message')]//img"
        ).last
        box = board.bounding_box()
        assert box is not None and box["width"] >= 360  # the board uses the width
        for selector in (play, menu, "#send", "#command"):
            on_screen(page, selector)
        page.locator(menu).first.scroll_into_view_if_needed()
        page.screenshot(path=str(shots_dir(tmp_path) / "playground-phone.png"))
        # as in Discord, an open menu shows each option's description under its label
        page.locator(menu).first.click()
        described = page.locator(f"{menu} option .option-description").first
        described.wait_for()
        label = page.locator(f"{menu} option .option-label").first.bounding_box()
        under = described.bounding_box()
        assert label is not None and under is not None and under["y"] >= label["y"] + 10
        page.screenshot(path=str(shots_dir(tmp_path) / "playground-phone-menu.png"))
        browser.close()


@pytest.fixture
async def served() -> AsyncIterator[tuple[LocalDiscord, Playground]]:
    server = LocalDiscord()
    playground = Playground(server)
    await server.start(0)
    try:
        yield server, playground
    finally:
        await server.stop()


async def test_files_are_links_and_older_messages_load(served: Any) -> None:
    server, playground = served
    world = server.world
    channel = playground.channel
    for n in range(MESSAGES_SHOWN + 5):
        world.post(channel, world.bot, content=f"message {n}")
    record = Attachment(world.ids.next(), "match-1.txt", b"Turn 1, Amy (P1) ...", "text/plain")
    server.rest.attachments[record.id] = record  # what an upload through REST would do
    world.post(channel, world.bot, content="the record", attachments=[record])

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = await browser.new_page(viewport=PHONE)
        page.set_default_timeout(WAIT_MS)
        await page.goto(server.base_url + "/")
        link = page.locator("a.file")
        await link.wait_for()
        assert await link.inner_text() == "📄 match-1.txt"
        assert await link.get_attribute("download") == "match-1.txt"
        reply = await page.request.get(await link.get_attribute("href") or "")
        assert await reply.body() == b"Turn 1, Amy (P1) ..."

        assert await page.locator(".message", has_text="message 0").count() == 0
        older = page.locator("#older")
        assert await older.inner_text() == "Load older messages (6 more)"
        await older.click()
        await page.locator(".message", has_text="message 0").first.wait_for()
        assert await page.locator("#older").count() == 0  # the whole channel is shown
        await browser.close()
