"""A press Discord refuses, in the playground, as a person sees it: no bot answers the
menu in time, so the page says "This interaction failed" and offers the menu again,
unchosen, as Discord's client does; choosing the same entry again sends a second press."""

from __future__ import annotations

from typing import Any

from e2e.browser import POLL_MS, needs_chromium, opened_page

pytestmark = needs_chromium

MENU = {
    "type": 1,
    "components": [
        {
            "type": 3,
            "custom_id": "xh:cm:1:0:0",
            "placeholder": "Where does it end up?",
            "options": [{"label": "a3 → h0", "value": "+a3NE"}],
        }
    ],
}


async def test_a_refused_choice_says_so_and_is_offered_again(no_bot: Any) -> None:
    server, playground = no_bot
    world = server.world
    world.post(playground.channel, world.bot, content="Pick where it ends up.", components=[MENU])
    async with opened_page(server.base_url + "/") as page:
        menu = page.locator("select.menu")
        await menu.wait_for()
        for pressed in (1, 2):
            await menu.select_option("+a3NE")
            await page.wait_for_function(
                "() => document.querySelector('#error').textContent", polling=POLL_MS
            )
            assert (await page.inner_text("#error")).startswith("This interaction failed")
            assert await menu.input_value() == ""  # unchosen: the same entry can be chosen
            chosen = [i for i in world.interactions.values() if i.data.get("values")]
            assert len(chosen) == pressed  # each choice reached Discord as a press
            await page.evaluate("() => { document.querySelector('#error').textContent = ''; }")
