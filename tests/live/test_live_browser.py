"""Two players open the live board, each in their own browser, and play a whole duel by
tapping, while the thread's board follows every tap; a turn flown in the middle with
the thread's own buttons appears live on both pages."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from e2e.browser import CHROMIUM, FLAGS, needs_chromium, shots_dir
from playwright.async_api import Page, async_playwright
from support.live import duel_on_the_live_board, live_server, until
from support.live_pages import open_page, shows, tap
from support.replies import answer, menu_with
from support.tables import Table, board_message

from bot.discord_app import CrosshairsBot
from bot.services.live import LiveMatch

DESKTOP = (1280, 800)
PHONE = (400, 860)
MOST_TAPS = 600  # a duel of random taps ends long before


async def fly_with_buttons(table: Table, thread: Any, live: LiveMatch) -> None:
    """One choice made with the thread's buttons: Play, then the cockpit's first menu's
    first option."""
    player = table.member(live.user_to_move())
    cockpit = answer(await player.click(board_message(thread), label="Play"))
    menus = [c for row in cockpit.components for c in row["components"] if "options" in c]
    value = menus[0]["options"][0]["value"]
    await player.select(cockpit.message, [value], custom_id=menu_with(cockpit, value))


@needs_chromium
async def test_a_duel_played_by_tapping_in_two_browsers(
    simcord_env: Any, simcord_bot: CrosshairsBot, tmp_path: Path
) -> None:
    table, thread, live, discord = await duel_on_the_live_board(simcord_env, simcord_bot)
    shots = shots_dir(tmp_path)
    rng = random.Random(7)
    async with live_server(simcord_bot, discord) as address, async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        pages: dict[int, Page] = {}
        for member, size in ((table.alice, DESKTOP), (table.bob, PHONE)):
            token = discord.token_for(member.id, member.name)
            pages[member.id] = (await open_page(browser, address, token, "duel", size))[1]
        button_flown = False
        shot: set[int] = set()
        for _ in range(MOST_TAPS):
            if live.over:
                break
            mover = live.user_to_move()
            assert mover is not None
            ply = live.ply
            if ply >= 8 and not button_flown:
                await fly_with_buttons(table, thread, live)
                button_flown = True
                assert live.ply == ply + 1
                for page in pages.values():  # the button's turn appears live
                    await shows(page, ply + 1)
                continue
            page = pages[mover]
            await shows(page, ply)
            await page.wait_for_selector("body[data-mine='true']")
            poses = await page.locator("#board .pose:not(.crash)").count()
            if ply >= 8 and poses >= 3 and mover not in shot:  # each one's screen, a choice on
                name = "activity-desktop.png" if mover == table.alice.id else "activity-phone.png"
                await page.screenshot(path=str(shots / name))
                shot.add(mover)
            tapped = await tap(page, rng)
            assert tapped, await page.content()
            await until(lambda ply=ply: live.ply > ply or live.over, "the tap played")
        assert live.over, "the duel did not end"
        assert button_flown
        for page in pages.values():
            await page.wait_for_selector("body[data-over='true']")
            status = await page.inner_text("#status")
            assert status and status in live.status_line()
        await browser.close()
    # the thread followed: its final board tells the same result
    await until(
        lambda: live.status_line() in board_message(thread).content, "the thread's final board"
    )
    assert await simcord_bot.games.boards.shown(live.id) == live.ply
