"""A tap on its way while the match changes without a move (the other player offers a
draw): the page keeps the element under the pointer, and the tap lands."""

from __future__ import annotations

from typing import Any

from e2e.browser import CHROMIUM, FLAGS, needs_chromium
from playwright.async_api import async_playwright
from support.live import duel_on_the_live_board, live_server, until
from support.live_pages import open_page, shows
from support.tables import board_message

from bot.discord_app import CrosshairsBot


@needs_chromium
async def test_a_tap_held_while_the_other_player_offers_a_draw_still_plays(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    table, thread, live, discord = await duel_on_the_live_board(simcord_env, simcord_bot)
    mover, other = live.user_to_move(), table.bob.id
    if mover == other:
        other = table.alice.id
    assert mover is not None
    async with live_server(simcord_bot, discord) as address, async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = (
            await open_page(browser, address, discord.token_for(mover, "pilot"), "duel", (800, 800))
        )[1]
        await shows(page, live.ply)
        await page.wait_for_selector("body[data-mine='true']")
        pose = page.locator("#board .pose:not(.crash)").first
        held = await pose.element_handle()
        assert held is not None
        box = await pose.bounding_box()
        assert box is not None
        await page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        await page.mouse.down()
        ply = live.ply
        # the other player offers a draw with the thread's button: the page gets a state
        # of the same ply
        await table.member(other).click(board_message(thread), label="Offer draw")
        await page.wait_for_selector("#actions button.success")  # it shows Accept
        assert await held.evaluate("(node) => node.isConnected")  # the pose was not drawn anew
        await page.mouse.up()
        await until(lambda: live.ply > ply, "the held tap played")
        await browser.close()
