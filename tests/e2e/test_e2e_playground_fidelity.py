"""The playground draws what Discord draws and blocks what Discord blocks.

In headless Chromium, as a person would: the rules page's embed with its text and
diagram, a command sent without its required option (the page refuses, nothing reaches
the bot), autocomplete in an empty box (suggestions, never an error), and a lobby of
three pilots who sit and start a game.
"""

from __future__ import annotations

from playwright.sync_api import sync_playwright

from e2e.browser import CHROMIUM, FLAGS, POLL_MS, WAIT_MS, act_as, needs_chromium, send

pytestmark = needs_chromium

LAST_MESSAGE = "() => { const m = document.querySelectorAll('.message'); return m.length; }"


def test_embeds_required_options_autocomplete_and_a_lobby_of_three(playground: str) -> None:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = browser.new_page(viewport={"width": 1000, "height": 700})
        page.set_default_timeout(WAIT_MS)
        page.goto(playground)
        page.wait_for_selector("#viewer option", state="attached")
        act_as(page, "Amy")

        # the rules page is an embed: title, text, footer, and the diagram inside it
        send(page, "/crosshairs rules")
        embed = page.locator(".embed").last
        embed.locator(".embed-image").wait_for()
        assert embed.locator(".embed-title").inner_text().strip()
        assert len(embed.locator(".embed-description").inner_text()) > 40
        assert "Page 1 of" in embed.locator(".embed-footer").inner_text()
        # the picture is drawn once, inside the embed, as Discord does
        message = embed.locator("xpath=ancestor::div[contains(@class,'message')]")
        assert message.locator("img.attachment").count() == 0

        # a required option left empty: the page says so and sends nothing
        before = page.evaluate(LAST_MESSAGE)
        send(page, "/crosshairs challenge")
        assert "required option: opponent" in page.inner_text("#error")
        page.wait_for_timeout(300)
        assert page.evaluate(LAST_MESSAGE) == before

        # autocomplete in an empty box answers without an error
        page.fill("#command", "/crosshairs move")
        page.dispatch_event("#command", "input")
        page.click("#options input[name=tokens]")
        page.wait_for_selector("datalist[data-filled]", state="attached")
        assert page.inner_text("#error") == ""

        # a lobby of three: Amy hosts, Ben and Cleo sit, the host starts
        send(page, "/crosshairs lobby", mode="Free-for-all, 3 players")
        page.wait_for_selector("button:has-text('Start')")
        for pilot in ("Amy", "Ben", "Cleo"):
            act_as(page, pilot)
            page.locator("button:has-text('Sit'):not([disabled])").first.click()
            page.wait_for_function(
                "(name) => [...document.querySelectorAll('.message')].some("
                "m => m.innerText.includes('Lobby') && m.innerText.includes(name))",
                arg=pilot,
                polling=POLL_MS,
            )
        act_as(page, "Amy")
        page.locator("button:has-text('Start'):not([disabled])").click()
        page.click("a.channel-link")
        page.wait_for_selector("button[data-custom-id^='xh:play:']")
        thread = page.inner_text("#channel-name")
        assert all(p in thread for p in ("Amy", "Ben", "Cleo")), thread

        # the newest message stays in view once its picture has loaded
        page.wait_for_function(
            "() => { const b = document.querySelector('#messages');"
            " return b.scrollTop + b.clientHeight >= b.scrollHeight - 2; }",
            polling=POLL_MS,
        )
        browser.close()
