"""The live board speaks its viewer's Discord language: the page's own words, the
match's words and every refusal come from the bot's catalogues in the language Discord
gives for the person (``GET /users/@me``), whatever the server speaks."""

from __future__ import annotations

from typing import Any

from support.live import duel_on_the_live_board, live_server, opened

from bot.discord_app import CrosshairsBot


async def test_each_viewer_reads_their_own_language(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    table, _, live, discord = await duel_on_the_live_board(simcord_env, simcord_bot, "here")
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
