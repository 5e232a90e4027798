"""An Activity in the playground, in headless Chromium, for two people in two browser
contexts: Amy opens it from the App Launcher, Ben joins it from the channel; in each
iframe a page using Discord's real Embedded App SDK shakes hands, authorizes, trades the
code at its own server (which asks the local Discord's token endpoint and reads the
instance with the bot token), authenticates as its own person and sees both participants,
and Amy's page hears Ben leave. A phone-width page shows it over the channel, with a way
back (docs/activity.md)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import FrameLocator, Page, sync_playwright

from e2e.activity_stub import SDK, StubActivity, stub_activity
from e2e.browser import (
    CHROMIUM,
    FLAGS,
    WAIT_MS,
    act_as,
    needs_chromium,
    run_playground,
    shots_dir,
)

pytestmark = needs_chromium


@pytest.fixture
def hosted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, StubActivity]]:
    """The playground showing the stand-in Activity: its address and the Activity."""
    assert (SDK / "index.mjs").exists(), "no SDK in activity/sdk/: run bash scripts/setup"
    with stub_activity() as (stub, url):
        monkeypatch.setenv("ACTIVITY_URL", url)
        for address in run_playground(tmp_path):
            stub.discord = address.rstrip("/")
            yield address, stub


def activity(page: Page) -> FrameLocator:
    """The Activity's page, inside the frame that plays Discord's client."""
    return page.frame_locator("#activity iframe").frame_locator("#activity")


def wait_text(frame: FrameLocator, selector: str, text: str) -> None:
    frame.locator(selector).filter(has_text=text).wait_for(timeout=WAIT_MS)


def test_two_people_in_one_instance_through_the_real_sdk(
    hosted: tuple[str, StubActivity], tmp_path: Path
) -> None:
    address, stub = hosted
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        amy = browser.new_context().new_page()
        ben = browser.new_context().new_page()
        for page, name in ((amy, "Amy"), (ben, "Ben")):
            page.set_default_timeout(WAIT_MS)
            page.goto(address)
            act_as(page, name)

        amy.click("#launcher")
        mine = activity(amy)
        wait_text(mine, "#me", "Amy")
        wait_text(mine, "#participants", "Amy")
        assert "ready i-" in mine.locator("#log").inner_text()
        wait_text(mine, "#log", "authenticated identify rpc.activities.write en-GB")
        wait_text(mine, "#log", "activity set")
        wait_text(mine, "#socket", "pong: ping")  # a WebSocket through the proxy

        ben.locator("#activity-here button").click()  # Join, offered in the channel
        his = activity(ben)
        wait_text(his, "#me", "Ben")
        wait_text(his, "#participants", "Amy, Ben")
        wait_text(mine, "#participants", "Amy, Ben")  # dispatched to Amy's page
        assert len(stub.traded) == 2 and stub.traded[0] != stub.traded[1]
        amy.screenshot(path=str(shots_dir(tmp_path) / "playground-activity.png"))

        ben.click("#activity-leave")
        ben.wait_for_selector("#activity", state="hidden")
        wait_text(mine, "#participants", "Amy")
        assert mine.locator("#participants").inner_text() == "Amy"
        browser.close()


def test_a_phone_shows_the_activity_over_the_channel(
    hosted: tuple[str, StubActivity], tmp_path: Path
) -> None:
    address, _ = hosted
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = browser.new_page(viewport={"width": 400, "height": 800})
        page.set_default_timeout(WAIT_MS)
        page.goto(address)
        page.click("#menu-toggle")  # the person switch is in the folded sidebar
        act_as(page, "Cleo")
        page.click("#launcher")
        wait_text(activity(page), "#me", "Cleo")
        assert "ready" in activity(page).locator("#log").inner_text()
        assert "mobile" in activity(page).locator("#log").inner_text()
        box = page.locator("#activity").bounding_box()
        assert box is not None and box["width"] == 400 and box["x"] == 0
        page.screenshot(path=str(shots_dir(tmp_path) / "playground-activity-phone.png"))
        page.click("#activity-back")  # back to the channel, the Activity still open
        page.wait_for_selector("#activity", state="hidden")
        assert page.locator("#messages").is_visible()
        page.click("#activity-return")
        page.wait_for_selector("#activity", state="visible")
        wait_text(activity(page), "#me", "Cleo")
        browser.close()
