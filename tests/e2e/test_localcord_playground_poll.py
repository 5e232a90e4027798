"""The playground page's long poll: answered once what the page shows differs from what
it last showed (its digest), not at every change elsewhere, which every open page would
otherwise draw again; but at every edit of a message it shows, as Discord's client draws
each edit again."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import aiohttp

from localcord.playground import Playground
from localcord.server import LocalDiscord
from localcord.state import World


@dataclass
class Page:
    """Amy's page of the playground's channel, with what it showed first."""

    world: World
    playground: Playground
    http: aiohttp.ClientSession
    first: dict[str, Any]

    async def look(self) -> None:
        """What the page shows now, as it is first opened."""
        async with self.http.get("/play/state", params=self._query() | {"since": "-1"}) as r:
            self.first = await r.json()

    def next_state(self) -> asyncio.Future[aiohttp.ClientResponse]:
        """The page's next poll, answered once it would show something else."""
        seen = {"since": str(self.first["version"]), "digest": self.first["digest"]}
        return asyncio.ensure_future(self.http.get("/play/state", params=self._query() | seen))

    def _query(self) -> dict[str, str]:
        amy = self.playground.pilots[0]
        return {"viewer": str(amy.id), "channel": str(self.playground.channel.id)}


@asynccontextmanager
async def page_open() -> AsyncIterator[Page]:
    server = LocalDiscord()
    playground = Playground(server)  # adds its page's routes before the server listens
    await server.start()
    try:
        async with aiohttp.ClientSession(base_url=server.base_url) as http:
            yield Page(server.world, playground, http, {})
    finally:
        await server.stop()


async def test_a_poll_waits_through_changes_elsewhere_and_answers_one_here() -> None:
    async with page_open() as page:
        world = page.world
        elsewhere = world.add_channel("elsewhere")
        await page.look()
        polled = page.next_state()
        world.post(elsewhere, world.bot, content="in another channel")
        await asyncio.sleep(0.5)
        assert not polled.done()  # the page would show nothing new
        world.post(page.playground.channel, world.bot, content="here")
        async with await asyncio.wait_for(polled, 5) as r:
            after = await r.json()
    assert after["digest"] != page.first["digest"]
    assert [m["html"] for m in after["messages"]][-1] == "here"
    assert after["version"] > page.first["version"] + 1  # both changes were counted


async def test_an_edit_that_changes_nothing_is_drawn_again_as_discord_does() -> None:
    """Discord's client redraws a message at every edit, which resets a menu chosen in
    it; the playground's page must too, though what it shows is the same."""
    async with page_open() as page:
        world = page.world
        shown = world.post(page.playground.channel, world.bot, content="pick a plane")
        async with page.http.get("/play/state", params=page._query() | {"since": "-1"}) as r:
            page.first = await r.json()
        polled = page.next_state()
        world.edit(shown, content="pick a plane")
        async with await asyncio.wait_for(polled, 5) as r:
            after = await r.json()
    assert after["digest"] != page.first["digest"]
    assert [m["html"] for m in after["messages"]] == [m["html"] for m in page.first["messages"]]
