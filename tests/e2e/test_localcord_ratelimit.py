"""localcord's rate limits as Discord's: per-route buckets with Discord's headers, 5
messages per 5 s per channel, the global 50 per second (interaction callbacks exempt),
429s with ``Retry-After`` and the scope."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator

import aiohttp
import pytest

from localcord.ratelimit import GLOBAL_LIMIT, RateLimits
from localcord.server import LocalDiscord

AUTH = {"Authorization": "Bot localcord-test-token"}


@pytest.fixture
async def server() -> AsyncIterator[LocalDiscord]:
    server = LocalDiscord(rate_scale=1.0)  # Discord's own windows, whatever the suite runs
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


async def test_five_messages_per_five_seconds_per_channel(server: LocalDiscord) -> None:
    world = server.world
    first, second = world.add_channel("one"), world.add_channel("two")
    async with aiohttp.ClientSession(server.base_url, headers=AUTH) as http:
        remaining = []
        for n in range(5):
            async with http.post(
                f"/api/v10/channels/{first.id}/messages", json={"content": str(n)}
            ) as response:
                assert response.status == 200
                remaining.append(int(response.headers["X-RateLimit-Remaining"]))
                assert response.headers["X-RateLimit-Limit"] == "5"
                assert 0 < float(response.headers["X-RateLimit-Reset-After"]) <= 5
                assert response.headers["X-RateLimit-Bucket"]
        assert remaining == [4, 3, 2, 1, 0]
        async with http.post(
            f"/api/v10/channels/{first.id}/messages", json={"content": "sixth"}
        ) as response:
            assert response.status == 429
            assert response.headers["X-RateLimit-Scope"] == "user"
            assert 1 <= int(response.headers["Retry-After"]) <= 5
            body = await response.json()
            assert body["global"] is False and 0 < body["retry_after"] <= 5
        # another channel has its own bucket
        async with http.post(
            f"/api/v10/channels/{second.id}/messages", json={"content": "elsewhere"}
        ) as response:
            assert response.status == 200
    assert [m.content for m in world.history(first)] == ["0", "1", "2", "3", "4"]
    assert server.limits.refused["user"] == 1


async def test_the_global_limit_spares_interaction_callbacks(server: LocalDiscord) -> None:
    world = server.world
    channel, user = world.add_channel("c"), world.add_user("pilot")
    async with aiohttp.ClientSession(server.base_url, headers=AUTH) as http:
        async with http.get(f"/api/v10/channels/{channel.id}") as response:
            assert response.status == 200
        # 49 more calls within the same second (as if made now): the 51st is refused
        server.limits.counted.extend([time.monotonic()] * 49)
        async with http.get(f"/api/v10/channels/{channel.id}") as response:
            assert response.status == 429
            assert response.headers["X-RateLimit-Scope"] == "global"
            assert response.headers["X-RateLimit-Global"] == "true"
            assert (await response.json())["global"] is True
        interaction = world.new_interaction(2, user, channel, {"name": "crosshairs"})
        async with http.post(
            f"/api/v10/interactions/{interaction.id}/{interaction.token}/callback",
            json={"type": 4, "data": {"content": "answered"}},
        ) as response:
            assert response.status == 204
    assert [m.content for m in world.history(channel)] == ["answered"]
    assert server.limits.refused["global"] == 1


def test_the_global_limit_holds_for_every_second_not_fixed_windows() -> None:
    limits = RateLimits()
    # 30 calls late in one second and 30 early in the next: 60 within 0.2 s
    taken = [limits._global(0.9) is None for _ in range(30)]
    taken += [limits._global(1.1) is None for _ in range(30)]
    assert taken.count(True) == GLOBAL_LIMIT
    assert limits.peak == GLOBAL_LIMIT
    wait = limits._global(1.2)
    assert wait is not None and wait == pytest.approx(0.7)  # until the 0.9 calls are old
    assert limits._global(1.95) is None  # those 30 left the second: room again
