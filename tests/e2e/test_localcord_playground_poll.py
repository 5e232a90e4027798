"""The playground page's long poll: answered once what the page shows differs from what
it last showed (its digest), not at every change elsewhere, which every open page would
otherwise draw again; but at every edit of a message it shows, as Discord's client draws
each edit again. And what its log says of each press."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import aiohttp
import pytest

from bot.services.workers import default_size
from localcord.playground import Playground, log_level, settings
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


async def test_with_log_level_info_each_press_is_logged_with_what_became_of_it(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A press that seems lost in a browser test is told apart in the playground's log:
    the page's press arrived, and the bot answered it (or the local Discord refused it)."""
    caplog.set_level(logging.INFO, logger="localcord.playground")
    go = {"type": 2, "style": 1, "label": "Go", "custom_id": "go"}
    off = {"type": 2, "style": 2, "label": "Off", "custom_id": "off", "disabled": True}
    async with page_open() as page:
        world = page.world
        shown = world.post(
            page.playground.channel,
            world.bot,
            content="press",
            components=[{"type": 1, "components": [go, off]}],
        )
        press = {**page._query(), "message": str(shown.id)}

        async def answer() -> None:  # as the bot does: at the interaction's callback
            while not world.interactions:
                await asyncio.sleep(0.01)
            [(token, interaction)] = world.interactions.items()
            route = f"/api/v10/interactions/{interaction.id}/{token}/callback"
            async with page.http.post(route, json={"type": 4, "data": {"content": "ok"}}) as r:
                assert r.status == 204

        answering = asyncio.ensure_future(answer())
        async with page.http.post("/play/click", json=press | {"custom_id": "go"}) as r:
            assert r.status == 200
        await answering
        async with page.http.post("/play/click", json=press | {"custom_id": "off"}) as r:
            assert r.status == 400
    logged = [r.getMessage() for r in caplog.records if r.name == "localcord.playground"]
    assert logged == [
        "playground: Amy presses go",
        "playground: Amy's press of go answered",
        "playground: Amy presses off",
        "playground: Amy's press of off failed: button 'off' is disabled",
    ]


def test_the_playground_logs_warnings_unless_log_level_asks_for_more() -> None:
    assert log_level({}) == "WARNING"
    assert log_level({"LOG_LEVEL": " info "}) == "INFO"
    assert log_level({"LOG_LEVEL": "loud"}) == "WARNING"  # the bot's configuration says why


def test_the_playground_takes_its_workers_from_the_environment() -> None:
    assert settings({"WORKERS": "1"}).workers == 1  # as the browser tests ask
    assert settings({}).workers == default_size()  # one per core, as the bot's default
