"""The live board in the viewer's palette (``/crosshairs palette``, else their server's,
else the classic one): the page is sent the palette's colours (render/palette.py's
``palette_spec``, as any client drawing the board reads them) and the seats in it."""

from __future__ import annotations

from typing import Any

from support.flying import match_in
from support.live import Discord, live_server, opened
from support.tables import Table

from bot.discord_app import CrosshairsBot
from bot.live.discord_api import Instance
from render.palette import PALETTES, palette_spec, seat_colours


def hexed(colour: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour)


async def test_each_viewer_sees_their_own_palette(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    table = Table(simcord_env)
    thread = await table.start(clouds="none")
    live = await match_in(simcord_bot, thread)
    palettes = simcord_bot.env.stores.palettes
    await palettes.set(table.alice.id, "colourblind")
    await palettes.set_server(table.guild.id, "contrast")
    discord = Discord()
    people = frozenset({table.alice.id, table.bob.id})
    discord.instances["here"] = Instance("here", table.guild.id, thread.id, people)
    seen: dict[str, Any] = {}
    async with live_server(simcord_bot, discord) as address:
        for member, palette in ((table.alice, "colourblind"), (table.bob, "contrast")):
            token = discord.token_for(member.id, member.name)
            async with opened(address, token, "here") as (page, welcome):
                assert welcome["palette"] == palette_spec(palette)
                state = await page.next("state")
                wanted = seat_colours(live.game.mode, PALETTES[palette])
                assert [s["colour"] for s in state["seats"]] == [hexed(c) for c in wanted]
                seen[palette] = state["seats"][0]["colour"]
    assert seen["colourblind"] != seen["contrast"]  # the two palettes do differ
