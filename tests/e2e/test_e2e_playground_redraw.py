"""The playground draws again only the messages that changed, as Discord's client does: a
press on a message that stayed as it was is never lost because another one (the
thread's board) changed between the pointer's down and up. A busy machine made exactly
that happen to a browser duel: the cockpit's button, drawn anew for the board's edit,
took the pointer's down but not its up, and the press never left the page."""

from __future__ import annotations

from typing import Any

from e2e.browser import POLL_MS, needs_chromium, opened_page

pytestmark = needs_chromium

FLY = {
    "type": 1,
    "components": [{"type": 2, "style": 1, "label": "✈ b2", "custom_id": "xh:ck:1:20:n:b2"}],
}
PRESSED = "button[data-custom-id='xh:ck:1:20:n:b2']"


async def test_a_press_held_while_another_message_changes_still_lands(no_bot: Any) -> None:
    server, playground = no_bot
    world = server.world
    channel = playground.channel
    board = world.post(channel, world.bot, content="Turn 7, Amy to fly")
    cockpit = world.post(channel, world.bot, content="Pick a plane to fly.", components=[FLY])
    async with opened_page(server.base_url + "/") as page:
        button = await page.wait_for_selector(PRESSED)
        assert button is not None
        box = await button.bounding_box()
        assert box is not None
        await page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        await page.mouse.down()
        world.edit(board, content="Turn 7, Amy (a6C<) so far")  # the thread's board
        await page.wait_for_function(
            "() => document.querySelector('#messages').innerText.includes('so far')",
            polling=POLL_MS,
        )
        assert await button.evaluate("b => b.isConnected")  # the very element pressed
        await page.mouse.up()
        await page.wait_for_function(
            "() => document.querySelector('#error').textContent", polling=POLL_MS
        )
        pressed = [i for i in world.interactions.values() if i.data.get("custom_id")]
        assert [i.data["custom_id"] for i in pressed] == ["xh:ck:1:20:n:b2"]

        # the message edited itself is drawn again, though it reads the same
        world.edit(cockpit, content="Pick a plane to fly.")
        await page.wait_for_function("(old) => !old.isConnected", arg=button, polling=POLL_MS)


async def test_a_change_the_page_cannot_draw_is_said_instead_of_waited_on(no_bot: Any) -> None:
    """A page that stopped changing would look like a press that was lost: what it could
    not draw is said where a failed press is, and it is drawn once it can be."""
    server, playground = no_bot
    world = server.world
    async with opened_page(server.base_url + "/") as page:
        await page.wait_for_selector("#viewer option", state="attached")
        # the drawing of the Activity's corner fails, as a bug in the page would
        await page.evaluate(
            "() => { window.drawn = renderActivity;"
            " renderActivity = () => { throw new Error('no room for it'); }; }"
        )
        world.post(playground.channel, world.bot, content="Turn 3, Ben to fly")
        error = page.locator("#error")
        await page.wait_for_function(
            "() => document.querySelector('#error').textContent", polling=POLL_MS
        )
        assert await error.inner_text() == ("This page could not show what changed: no room for it")
        await page.evaluate("() => { renderActivity = window.drawn; }")
        await page.wait_for_function(
            "() => !document.querySelector('#error').textContent", polling=POLL_MS
        )
        assert "Turn 3, Ben to fly" in await page.locator("#messages").inner_text()


async def test_a_press_that_cannot_reach_the_playground_is_said_to_have_failed(
    no_bot: Any,
) -> None:
    server, playground = no_bot
    world = server.world
    world.post(playground.channel, world.bot, content="Pick a plane to fly.", components=[FLY])
    async with opened_page(server.base_url + "/") as page:
        button = await page.wait_for_selector(PRESSED)
        assert button is not None
        await server.stop()  # the playground stopped (Ctrl-C) with the page still open
        await button.click()
        await page.wait_for_function(
            "() => document.querySelector('#error').textContent", polling=POLL_MS
        )
        assert (await page.locator("#error").inner_text()).startswith("This interaction failed: ")
