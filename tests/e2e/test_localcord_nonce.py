"""localcord keeps Discord's promise for ``enforce_nonce``: a message created again by the
same author in the same channel with the same nonce, within a few minutes, is the first
one returned, and nothing new is created (no second message, no MESSAGE_CREATE)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass

import aiohttp
import pytest

from localcord.records import NONCE_WINDOW, Channel, Json
from localcord.server import LocalDiscord
from localcord.state import World

AUTH = {"Authorization": "Bot localcord-test-token"}


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Place:
    server: LocalDiscord
    channel: Channel
    http: aiohttp.ClientSession
    clock: Clock
    created: list[str]  # the ids of the MESSAGE_CREATE events the gateway sends

    @property
    def world(self) -> World:
        return self.server.world

    async def send(self, body: Json, channel: Channel | None = None) -> Json:
        url = f"{self.server.api_base}/channels/{(channel or self.channel).id}/messages"
        async with self.http.post(url, json=body) as response:
            assert response.status == 200, await response.text()
            answer: Json = await response.json()
            return answer


@pytest.fixture
async def place() -> AsyncIterator[Place]:
    server = LocalDiscord()
    channel = server.world.add_channel("dogfights")
    clock = Clock()
    server.world.clock = clock
    await server.start()
    created: list[str] = []
    dispatch = server.world.dispatch

    def heard(event: str, data: Json) -> None:
        if event == "MESSAGE_CREATE":
            created.append(data["id"])
        dispatch(event, data)

    server.world.dispatch = heard
    try:
        async with aiohttp.ClientSession(headers=AUTH) as http:
            yield Place(server, channel, http, clock, created)
    finally:
        await server.stop()


async def test_the_same_nonce_enforced_returns_the_first_message_and_creates_nothing(
    place: Place,
) -> None:
    first = await place.send(
        {"content": "📊 ratings", "nonce": "m1-ratings", "enforce_nonce": True}
    )
    assert first["nonce"] == "m1-ratings"
    place.clock.now += NONCE_WINDOW - 1
    again = await place.send({"content": "📊 other", "nonce": "m1-ratings", "enforce_nonce": True})
    assert again == first
    assert [m.content for m in place.world.channel_log[place.channel.id]] == ["📊 ratings"]
    assert place.created == [first["id"]]


async def test_without_enforce_nonce_the_nonce_is_only_echoed(place: Place) -> None:
    first = await place.send({"content": "a", "nonce": "same"})
    second = await place.send({"content": "b", "nonce": "same"})
    assert first["id"] != second["id"] and second["nonce"] == "same"
    third = await place.send({"content": "c"})
    assert "nonce" not in third
    assert [m.content for m in place.world.history(place.channel)] == ["a", "b", "c"]


async def test_a_nonce_counts_per_channel_per_author_and_for_a_few_minutes(
    place: Place,
) -> None:
    world = place.world
    enforced: Json = {"content": "x", "nonce": "n", "enforce_nonce": True}
    first = await place.send(enforced)
    elsewhere = world.add_channel("hangar")
    other_channel = await place.send(enforced, elsewhere)
    assert other_channel["id"] != first["id"]
    # someone else's message with that nonce is not the bot's
    pilot = world.add_user("pilot")
    theirs = world.post(place.channel, pilot, content="x", nonce="n", enforce_nonce=True)
    assert str(theirs.id) != first["id"]
    assert (await place.send(enforced))["id"] == first["id"]

    place.clock.now += NONCE_WINDOW
    later = await place.send(enforced)
    assert later["id"] != first["id"]
    assert [m.id for m in world.history(place.channel)] == [
        int(first["id"]),
        theirs.id,
        int(later["id"]),
    ]


async def test_a_deleted_message_does_not_answer_for_its_nonce(place: Place) -> None:
    enforced: Json = {"content": "x", "nonce": "n", "enforce_nonce": True}
    first = await place.send(enforced)
    place.world.delete(place.world.messages[int(first["id"])])
    again = await place.send(enforced)
    assert again["id"] != first["id"]
    assert [m.id for m in place.world.history(place.channel)] == [int(again["id"])]


async def test_a_message_with_a_file_is_kept_once_too(place: Place) -> None:
    """As the scoreboard goes up: its fields in ``payload_json`` beside the picture."""
    url = f"{place.server.api_base}/channels/{place.channel.id}/messages"
    payload: Json = {
        "content": "📋 Series #1 after game 1.",
        "attachments": [{"id": 0, "filename": "scoreboard.png"}],
        "nonce": "m1-scoreboard",
        "enforce_nonce": True,
    }
    answers: list[Json] = []
    for _ in range(2):
        form = aiohttp.FormData()
        form.add_field("payload_json", json.dumps(payload), content_type="application/json")
        form.add_field("files[0]", b"\x89PNG", filename="scoreboard.png")
        async with place.http.post(url, data=form) as response:
            assert response.status == 200, await response.text()
            answers.append(await response.json())
    assert answers[0] == answers[1] and answers[0]["nonce"] == "m1-scoreboard"
    assert len(place.world.history(place.channel)) == 1
    assert place.created == [answers[0]["id"]]
