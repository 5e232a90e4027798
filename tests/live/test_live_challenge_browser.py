"""The App Launcher's first look, in two browsers: no match is played in the channel
yet; alice challenges bob from her page, bob accepts on his phone, and both pages show
the new match, whose thread the bot opened."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from e2e.browser import CHROMIUM, FLAGS, WAIT_MS, needs_chromium, shots_dir
from playwright.async_api import async_playwright
from support.flying import match_in
from support.live import Discord, live_server, until
from support.live_pages import open_page, shows
from support.tables import Table

from bot.discord_app import CrosshairsBot
from bot.live.discord_api import Instance

DESKTOP = (1280, 800)
PHONE = (400, 860)
LOBBY = "#new-challenge:not([hidden])"


@needs_chromium
async def test_a_challenge_made_and_accepted_on_two_pages(
    simcord_env: Any, simcord_bot: CrosshairsBot, tmp_path: Path
) -> None:
    table = Table(simcord_env)
    discord = Discord()
    people = frozenset({table.alice.id, table.bob.id})
    discord.instances["launcher"] = Instance("launcher", table.guild.id, table.channel.id, people)
    shots = shots_dir(tmp_path)
    async with live_server(simcord_bot, discord) as address, async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        alice_token = discord.token_for(table.alice.id, "alice")
        _, bob = await open_page(
            browser, address, discord.token_for(table.bob.id, "bob"), "launcher", PHONE, "#lobby"
        )
        _, alice = await open_page(browser, address, alice_token, "launcher", DESKTOP, LOBBY)
        offered = await alice.locator("#opponent option").all_inner_texts()
        assert offered[0] == "bob" and "🤖 Computer (medium)" in offered
        await alice.select_option("#ruleset", "classic")
        await alice.select_option("#planes", "4")
        await alice.screenshot(path=str(shots / "live-challenge-desktop.png"))
        await alice.click("#send-challenge")

        accept = bob.locator("#challenges button.success")
        await accept.wait_for(timeout=WAIT_MS)
        assert "alice challenges you" in await bob.inner_text("#challenges")
        await bob.screenshot(path=str(shots / "live-challenge-phone.png"), full_page=True)
        await alice.locator("#challenges p.challenge").wait_for(timeout=WAIT_MS)
        assert "waiting for their answer" in await alice.inner_text("#challenges")
        await accept.click()

        for page in (alice, bob):
            await shows(page, 0)
        await until(lambda: table.channel.threads, "the match's thread")
        live = await match_in(simcord_bot, table.channel.threads[-1])
        assert [e.user_id for e in live.seats] == [table.alice.id, table.bob.id]
        assert live.game.settings.ruleset == "classic" and live.game.settings.planes == 4
        assert await alice.locator("#board .plane").count() == 0  # placements come first
        # settled: nothing left to answer (told after the match's first state)
        await bob.wait_for_function(
            "() => !document.querySelector('#challenges p')", timeout=WAIT_MS
        )
        await browser.close()
