"""localcord's own answers in Discord's shapes, held to the spec as the requests are: a
429's body is the spec's RatelimitedResponse (with its ``code``), a 400 over a message
limit nests its errors as Discord does, and an embed comes back with its ``type``."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import make_mocked_request

from localcord import checks
from localcord.server import LocalDiscord
from localcord.spec import spec
from localcord.state import Channel, Json

AUTH = {"Authorization": "Bot localcord-test-token"}
RATELIMITED = {"message", "code", "retry_after", "global"}


@pytest.fixture
async def started() -> AsyncIterator[tuple[LocalDiscord, Channel, aiohttp.ClientSession]]:
    server = LocalDiscord()
    channel = server.world.add_channel("dogfights")
    await server.start()
    try:
        async with aiohttp.ClientSession(base_url=server.base_url, headers=AUTH) as http:
            yield server, channel, http
    finally:
        await server.stop()


def failures(server: LocalDiscord) -> list[str]:
    return server.checks.failures


async def test_a_429_over_a_channels_bucket_carries_a_code(
    started: tuple[LocalDiscord, Channel, aiohttp.ClientSession],
) -> None:
    server, channel, http = started
    bodies = []
    for n in range(7):
        async with http.post(
            f"/api/v10/channels/{channel.id}/messages", json={"content": f"m{n}"}
        ) as response:
            if response.status == 429:
                bodies.append(await response.json())
    assert bodies, "the sixth message in five seconds is refused"
    assert set(bodies[0]) == RATELIMITED
    assert bodies[0]["code"] == 0 and bodies[0]["message"] == "You are being rate limited."
    assert bodies[0]["global"] is False
    assert failures(server) == []  # each 429 was held to the spec's shape


async def test_an_injected_429_carries_a_code(
    started: tuple[LocalDiscord, Channel, aiohttp.ClientSession],
) -> None:
    server, channel, http = started
    server.faults.rate_limit(r"/messages$", times=1, retry_after=0.2)
    url = f"/api/v10/channels/{channel.id}/messages"
    async with http.post(url, json={"content": "hi"}) as response:
        assert response.status == 429
        body = await response.json()
    assert set(body) == RATELIMITED and body["code"] == 0
    assert failures(server) == []


async def test_a_message_over_a_limit_is_refused_with_discords_nested_errors(
    started: tuple[LocalDiscord, Channel, aiohttp.ClientSession],
) -> None:
    server, channel, http = started
    menu = {"type": 3, "custom_id": "s", "options": [{"label": "a", "value": "a"}]}
    go = {"type": 2, "style": 2, "label": "Go", "custom_id": "b"}
    body = {"content": "crowded", "components": [{"type": 1, "components": [menu, go]}]}
    async with http.post(f"/api/v10/channels/{channel.id}/messages", json=body) as response:
        assert response.status == 400
        said = await response.json()
    assert said["code"] == 50035 and said["message"] == "Invalid Form Body"
    errors = said["errors"]["components"]["0"]["components"]["_errors"]
    assert [e["code"] for e in errors] == ["COMPONENT_LAYOUT_WIDTH_EXCEEDED"]
    assert all(set(e) == {"code", "message"} for e in errors)
    assert server.world.history(channel) == []
    assert failures(server) == []  # the refusal itself is the spec's ErrorResponse


async def test_an_embed_comes_back_rich(
    started: tuple[LocalDiscord, Channel, aiohttp.ClientSession],
) -> None:
    server, channel, http = started
    body = {"embeds": [{"title": "Leaderboard", "description": "1. alice"}]}
    url = f"/api/v10/channels/{channel.id}/messages"
    async with http.post(url, json=body) as response:
        posted = await response.json()
    assert posted["embeds"] == [{"type": "rich", "title": "Leaderboard", "description": "1. alice"}]
    async with http.get(f"{url}/{posted['id']}") as response:
        assert (await response.json())["embeds"][0]["type"] == "rich"
    assert failures(server) == []


@pytest.mark.refusals
def test_an_answer_unlike_the_spec_is_a_failure() -> None:
    """The checker holds refusals too: a 429 without ``code``, an error tree of plain
    strings and an embed without ``type`` are each noted."""
    made = checks.Checks(strict=True)
    post = spec().operation("POST", "/channels/1/messages")
    assert post is not None

    def answer(status: int, body: Json) -> None:
        request = make_mocked_request("POST", "/api/v10/channels/1/messages")
        response = web.Response(
            body=json.dumps(body).encode(), status=status, content_type="application/json"
        )
        made.answer(request, post, response)

    answer(429, {"message": "You are being rate limited.", "retry_after": 1.0, "global": False})
    errors = {"x": {"_errors": [{"code": 50035, "message": "Too long"}]}}  # not a string
    answer(400, {"message": "Invalid Form Body", "code": 50035, "errors": errors})
    answer(200, {"id": "1", "embeds": [{"title": "t"}]})
    assert len(made.failures) == 3
    assert "code: This field is required" in made.failures[0]
    assert "errors.x._errors" in made.failures[1]
    assert "embeds.0.type: This field is required" in made.failures[2]
