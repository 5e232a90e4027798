"""An achievement series' game on the live board: the page lists the cards in play, each
with its rule and points, and shows who claimed one the moment the game does, as the
thread announces it."""

from __future__ import annotations

from typing import Any

from series.support import Club, current_match
from support.flying import fly_first_turns, resign
from support.live import Discord, live_server, opened

from bot.discord_app import CrosshairsBot
from bot.live.discord_api import Instance
from rules.achievements import CARDS


async def test_the_cards_in_play_and_a_claim_shown_on_the_page(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    club = Club(simcord_env)
    await club.start_series(club.alice, club.bob, games=2, planes=3)
    (thread,) = club.channel.threads
    live = await current_match(simcord_bot, thread)
    discord = Discord()
    discord.instances["series"] = Instance(
        "series", club.guild.id, thread.id, frozenset(p.id for p in club.people)
    )
    token = discord.token_for(club.carol.id, club.carol.name)  # watching, not playing
    async with (
        live_server(simcord_bot, discord) as address,
        opened(address, token, "series") as (
            page,
            _welcome,
        ),
    ):
        first = await page.next("state")
        pool = live.game.settings.cards
        assert pool and [c["card"] for c in first["cards"]] == list(pool)
        assert all(
            (c["name"], c["points"], c["rule"], c["by"])
            == (CARDS[c["card"]].name, CARDS[c["card"]].points, CARDS[c["card"]].rule, None)
            for c in first["cards"]
        )

        await fly_first_turns(club.member, thread, live)
        await resign(club.bob, thread)  # alice wins having lost no plane: Untouchable
        while not (end := await page.next("state"))["over"]:
            pass
        claimed = {c["card"]: c["by"] for c in end["cards"] if c["by"] is not None}
        assert claimed.get("untouchable", "").startswith("alice (")  # her seat, named
        assert any("Untouchable" in m.content for m in thread.history())  # the thread's too
