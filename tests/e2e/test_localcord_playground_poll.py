"""The playground page's long poll: answered once what the page shows differs from what
it last showed (its digest), not at every change elsewhere, which every open page would
otherwise draw again."""

from __future__ import annotations

import asyncio

import aiohttp

from localcord.playground import Playground
from localcord.server import LocalDiscord


async def test_a_poll_waits_through_changes_elsewhere_and_answers_one_here() -> None:
    server = LocalDiscord()
    playground = Playground(server)  # adds its page's routes before the server listens
    await server.start()
    try:
        world, amy = server.world, playground.pilots[0]
        elsewhere = world.add_channel("elsewhere")
        query = {"viewer": str(amy.id), "channel": str(playground.channel.id)}
        async with aiohttp.ClientSession(base_url=server.base_url) as http:
            async with http.get("/play/state", params=query | {"since": "-1"}) as r:
                first = await r.json()
            seen = {"since": str(first["version"]), "digest": first["digest"]}
            polled = asyncio.ensure_future(http.get("/play/state", params=query | seen))
            world.post(elsewhere, world.bot, content="in another channel")
            await asyncio.sleep(0.5)
            assert not polled.done()  # the page would show nothing new
            world.post(playground.channel, world.bot, content="here")
            async with await asyncio.wait_for(polled, 5) as r:
                after = await r.json()
    finally:
        await server.stop()
    assert after["digest"] != first["digest"]
    assert [m["html"] for m in after["messages"]][-1] == "here"
    assert after["version"] > first["version"] + 1  # both changes were counted


async def test_an_edit_that_changes_nothing_is_drawn_again_as_discord_does() -> None:
    """Discord's client redraws a message at every edit, which resets a menu chosen in
    it; the playground's page must too, though what it shows is the same."""
    server = LocalDiscord()
    playground = Playground(server)
    await server.start()
    try:
        world, amy = server.world, playground.pilots[0]
        shown = world.post(playground.channel, world.bot, content="pick a plane")
        query = {"viewer": str(amy.id), "channel": str(playground.channel.id)}
        async with aiohttp.ClientSession(base_url=server.base_url) as http:
            async with http.get("/play/state", params=query | {"since": "-1"}) as r:
                first = await r.json()
            seen = {"since": str(first["version"]), "digest": first["digest"]}
            polled = asyncio.ensure_future(http.get("/play/state", params=query | seen))
            world.edit(shown, content="pick a plane")
            async with await asyncio.wait_for(polled, 5) as r:
                after = await r.json()
    finally:
        await server.stop()
    assert after["digest"] != first["digest"]
    assert [m["html"] for m in after["messages"]] == [m["html"] for m in first["messages"]]
