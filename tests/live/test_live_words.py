"""The live board speaks its viewer's Discord language: the page's own words, the
match's words and every refusal come from the bot's catalogues in the language Discord
gives for the person (``GET /users/@me``), whatever the server speaks."""

from __future__ import annotations

from typing import Any

from support.flying import match_in
from support.live import Discord, live_server, opened
from support.tables import Table

from bot.discord_app import CrosshairsBot
from bot.live.discord_api import Instance


async def test_each_viewer_reads_their_own_language(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    table = Table(simcord_env)
    thread = await table.start(clouds="none")
    live = await match_in(simcord_bot, thread)
    discord = Discord()
    people = frozenset({table.alice.id, table.bob.id, table.eve.id})
    discord.instances["here"] = Instance("here", table.guild.id, thread.id, people)
    german = discord.token_for(table.eve.id, "eve", "de")
    french = discord.token_for(table.alice.id, "alice", "fr")
    async with live_server(simcord_bot, discord) as address:
        async with opened(address, german, "here") as (page, welcome):
            assert welcome["texts"]["resign"] == "Aufgeben"
            state = await page.next("state")
            assert "Zug 1" in state["status"] or "Runde 1" in state["status"], state["status"]
            await page.tap(state, [live.game.legal_steps()[0].token])
            refused = await page.next("refused")
            assert "du spielst" in refused["text"].lower(), refused["text"]
        async with opened(address, french, "here") as (page, welcome):
            assert welcome["texts"]["resign"] == "Abandonner"
            state = await page.next("state")
            assert state["status"] != live.status_line()  # not the English
            assert "tour" in state["status"].lower(), state["status"]
