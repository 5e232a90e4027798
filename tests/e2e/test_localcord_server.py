"""The local Discord's gateway shards as Discord's does; its REST side can be slow and
refuses messages over Discord's limits.

These talk to the server with a bare websocket, as a shard of any bot would, so that the
routing rule ``(guild_id >> 22) % shard_count`` is checked without the bot in the way.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import aiohttp
import pytest

from localcord.gateway import DISPATCH, HELLO, IDENTIFY, INVALID_SESSION, INVALID_SHARD
from localcord.server import LocalDiscord
from localcord.state import Json

AUTH = {"Authorization": "Bot localcord-test-token"}


class Shard:
    """One gateway connection that identifies as ``shard`` of ``count``."""

    def __init__(self, socket: aiohttp.ClientWebSocketResponse) -> None:
        self.socket = socket

    @classmethod
    async def connect(
        cls, session: aiohttp.ClientSession, server: LocalDiscord, shard: int, count: int
    ) -> Shard:
        socket = await session.ws_connect(server.gateway.url)
        hello = await socket.receive_json()
        assert hello["op"] == HELLO
        await socket.send_json({"op": IDENTIFY, "d": {"token": "t", "shard": [shard, count]}})
        return cls(socket)

    async def take(self, count: int, timeout: float = 5.0) -> list[Json]:
        """The next ``count`` dispatches."""
        seen: list[Json] = []
        async with asyncio.timeout(timeout):
            while len(seen) < count:
                frame = await self.socket.receive_json()
                if frame["op"] == DISPATCH:
                    seen.append(frame)
        return seen


@pytest.fixture
async def sharded() -> AsyncIterator[LocalDiscord]:
    server = LocalDiscord(shard_count=2)
    # these shards identify at once: the routing is checked here, the spacing below
    server.gateway.identify_spacing = 0.0
    for n in range(7):
        server.world.add_guild(f"guild {n}")
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


async def test_each_shard_hears_only_about_its_own_guilds(sharded: LocalDiscord) -> None:
    world, gateway = sharded.world, sharded.gateway
    by_shard = {s: [g for g in world.guilds if (g >> 22) % 2 == s] for s in (0, 1)}
    assert all(by_shard.values()), "the eight guilds spread over both shards"
    async with aiohttp.ClientSession(headers=AUTH) as http:
        shards = [await Shard.connect(http, sharded, s, 2) for s in (0, 1)]
        for s, shard in enumerate(shards):
            ready, *creates = await shard.take(1 + len(by_shard[s]))
            assert ready["t"] == "READY" and ready["d"]["shard"] == [s, 2]
            assert {int(g["id"]) for g in ready["d"]["guilds"]} == set(by_shard[s])
            assert {int(c["d"]["id"]) for c in creates} == set(by_shard[s])
        await gateway.wait_for_shards([0, 1], timeout=5)

        # a channel in each guild: its CHANNEL_CREATE reaches the owning shard only
        for guild in world.guilds:
            world.add_channel("general", guild)
        for s, shard in enumerate(shards):
            heard = await shard.take(len(by_shard[s]))
            assert {e["t"] for e in heard} == {"CHANNEL_CREATE"}
            assert sorted(int(e["d"]["guild_id"]) for e in heard) == sorted(by_shard[s])
            with pytest.raises(TimeoutError):  # and nothing of the other shard's follows
                await shard.take(1, timeout=0.2)
        for shard in shards:
            await shard.socket.close()


async def test_a_shard_count_the_server_does_not_use_is_refused(sharded: LocalDiscord) -> None:
    async with aiohttp.ClientSession(headers=AUTH) as http:
        shard = await Shard.connect(http, sharded, 0, 3)
        message = await shard.socket.receive()
        assert message.type == aiohttp.WSMsgType.CLOSE and message.data == INVALID_SHARD


async def test_an_identify_sooner_than_discord_allows_is_refused_and_a_later_one_taken() -> None:
    server = LocalDiscord(shard_count=2, rate_scale=0.1)
    await server.start()
    try:
        async with aiohttp.ClientSession(headers=AUTH) as http:
            first = await Shard.connect(http, server, 0, 2)
            assert (await first.take(1))[0]["t"] == "READY"
            # the other shard at once: the same bucket (max_concurrency 1), too soon
            early = await Shard.connect(http, server, 1, 2)
            refused = await early.socket.receive_json()
            assert refused == {"op": INVALID_SESSION, "d": False}
            assert server.gateway.early_identifies == 1
            await asyncio.sleep(server.gateway.identify_spacing)
            later = await Shard.connect(http, server, 1, 2)
            assert (await later.take(1))[0]["t"] == "READY"
            for shard in (first, early, later):
                await shard.socket.close()
        assert [shard for _, shard in server.gateway.identify_log] == [0, 1]
    finally:
        await server.stop()


async def test_gateway_bot_tells_the_shard_count(sharded: LocalDiscord) -> None:
    async with (
        aiohttp.ClientSession(headers=AUTH) as http,
        http.get(f"{sharded.api_base}/gateway/bot") as response,
    ):
        assert (await response.json())["shards"] == 2


async def test_latency_delays_every_rest_answer() -> None:
    server = LocalDiscord()
    server.faults.latency = 0.25
    await server.start()
    try:
        async with aiohttp.ClientSession(headers=AUTH) as http:
            started = time.monotonic()
            async with http.get(f"{server.api_base}/users/@me") as response:
                assert response.status == 200
            assert time.monotonic() - started >= 0.25
    finally:
        await server.stop()


def _button(n: int) -> dict[str, object]:
    return {"type": 2, "style": 2, "label": f"b{n}", "custom_id": f"id{n}"}


@pytest.mark.refusals
async def test_a_message_over_discords_limits_is_refused_and_not_posted() -> None:
    server = LocalDiscord(rate_limits=False)  # seven messages to one channel at once
    channel = server.world.add_channel("dogfights")
    await server.start()
    url = f"{server.api_base}/channels/{channel.id}/messages"
    too_much: list[dict[str, object]] = [
        {"content": "x" * 2001},
        {"components": [{"type": 1, "components": [_button(0)]}] * 6},
        {"components": [{"type": 1, "components": [_button(n) for n in range(6)]}]},
        {
            "components": [
                {
                    "type": 1,
                    "components": [
                        {
                            "type": 3,
                            "custom_id": "s",
                            "options": [{"label": str(n), "value": str(n)} for n in range(26)],
                        }
                    ],
                }
            ]
        },
        {"attachments": [{"id": 0, "filename": "a.png", "description": "d" * 1025}]},
    ]
    try:
        async with aiohttp.ClientSession(headers=AUTH) as http:
            for body in too_much:
                async with http.post(url, json=body) as response:
                    assert response.status == 400, body
                    assert (await response.json())["code"] == 50035
            async with http.post(url, json={"content": "x" * 2000}) as response:
                assert response.status == 200
        assert [m.content for m in server.world.history(channel)] == ["x" * 2000]
    finally:
        await server.stop()
