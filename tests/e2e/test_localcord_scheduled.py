"""localcord's scheduled events, held to Discord's docs where its spec cannot say:
an external event's place and end, no start in the past, the order of its statuses,
Create Events to make one and Manage Events (or having made it) to change it, and the
gateway telling of them only a session that asked for the Guild Scheduled Events
intent (localcord/scheduled.py)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import aiohttp
import pytest

from localcord import presets, roles
from localcord.playground import Playground
from localcord.records import ACTIVE, CANCELED, COMPLETED, SCHEDULED, Json
from localcord.server import LocalDiscord

pytestmark = pytest.mark.refusals
AUTH = {"Authorization": "Bot localcord-test-token"}


def at(minutes: float) -> str:
    return datetime.fromtimestamp(time.time() + minutes * 60, UTC).isoformat()


def external(**extra: Any) -> Json:
    return {
        "name": "Spring Cup",
        "privacy_level": 2,
        "entity_type": 3,
        "entity_metadata": {"location": "https://discord.com/channels/1/2"},
        "scheduled_start_time": at(60),
        "scheduled_end_time": at(180),
    } | extra


@pytest.fixture
async def local() -> AsyncIterator[tuple[LocalDiscord, aiohttp.ClientSession]]:
    server = LocalDiscord()
    await server.start()
    try:
        async with aiohttp.ClientSession(base_url=server.base_url, headers=AUTH) as http:
            yield server, http
    finally:
        await server.stop()


async def call(http: aiohttp.ClientSession, method: str, path: str, body: Any = None) -> Any:
    async with http.request(method, "/api/v10" + path, json=body) as r:
        return r.status, (await r.json() if r.status != 204 else None)


async def test_an_external_event_from_creation_to_completion(
    local: tuple[LocalDiscord, aiohttp.ClientSession],
) -> None:
    server, http = local
    events = f"/guilds/{server.world.guild_id}/scheduled-events"
    status, made = await call(http, "POST", events, external())
    assert status == 200 and made["status"] == SCHEDULED and made["channel_id"] is None
    one = f"{events}/{made['id']}"
    status, _ = await call(http, "PATCH", one, {"status": COMPLETED})
    assert status == 400  # a scheduled event starts (or is cancelled) before it completes
    assert (await call(http, "PATCH", one, {"status": ACTIVE}))[1]["status"] == ACTIVE
    status, body = await call(http, "PATCH", one, {"scheduled_start_time": at(30)})
    assert status == 400 and "scheduled_start_time" in body["errors"]  # it has started
    assert (await call(http, "PATCH", one, {"status": COMPLETED}))[1]["status"] == COMPLETED
    assert await call(http, "PATCH", one, {"name": "again"}) == (
        400,
        {"message": "Cannot update a finished event", "code": 180000},
    )
    status, listed = await call(http, "GET", events + "?with_user_count=true")
    assert status == 200 and listed[0]["user_count"] == 0


async def test_discord_refuses_what_an_external_event_cannot_be(
    local: tuple[LocalDiscord, aiohttp.ClientSession],
) -> None:
    server, http = local
    events = f"/guilds/{server.world.guild_id}/scheduled-events"
    status, body = await call(http, "POST", events, external(scheduled_start_time=at(-5)))
    assert status == 400 and body["code"] == 50035
    assert body["errors"]["scheduled_start_time"]["_errors"][0]["code"] == (
        "GUILD_SCHEDULED_EVENT_SCHEDULE_PAST"
    )
    status, body = await call(http, "POST", events, external(scheduled_end_time=None))
    assert status == 400 and "scheduled_end_time" in body["errors"]
    status, body = await call(http, "POST", events, external(scheduled_end_time=at(30)))
    assert status == 400 and "scheduled_end_time" in body["errors"]  # ends before it starts
    assert server.world.scheduled_events == {}


async def test_create_events_and_manage_events(
    local: tuple[LocalDiscord, aiohttp.ClientSession],
) -> None:
    server, http = local
    world = server.world
    events = f"/guilds/{world.guild_id}/scheduled-events"
    status, made = await call(http, "POST", events, external())
    assert status == 200
    presets.take_from_bot(world, roles.CREATE_EVENTS)
    refused = (403, {"message": "Missing Permissions", "code": 50013})
    assert await call(http, "POST", events, external()) == refused
    assert await call(http, "PATCH", f"{events}/{made['id']}", {"status": CANCELED}) == refused
    world.servers[world.guild_id].everyone.permissions |= roles.MANAGE_EVENTS
    status, body = await call(http, "PATCH", f"{events}/{made['id']}", {"status": CANCELED})
    assert status == 200 and body["status"] == CANCELED
    assert (await call(http, "DELETE", f"{events}/{made['id']}"))[0] == 204
    assert world.scheduled_events == {}


async def test_interest_is_told_only_to_a_session_with_the_intent(
    local: tuple[LocalDiscord, aiohttp.ClientSession],
) -> None:
    server, http = local
    world = server.world
    _, made = await call(http, "POST", f"/guilds/{world.guild_id}/scheduled-events", external())
    event = world.scheduled_events[int(made["id"])]
    dora = world.add_user("dora")
    server.gateway.identify_spacing = 0  # two identifies in a row, both accepted
    heard: list[str] = []
    for intents in (0, 1 << 16):
        async with asyncio.timeout(30), http.ws_connect("/gateway") as ws:
            await ws.receive_json()  # HELLO
            await ws.send_json({"op": 2, "d": {"token": "t", "intents": intents}})
            await ws.receive_json()  # READY
            await ws.receive_json()  # GUILD_CREATE
            server.calendar.interested(dora, event)
            server.calendar.interested(dora, event, interested=False)
            world.add_channel("after")  # a CHANNEL_CREATE closes what each heard
            while (frame := await ws.receive_json())["t"] != "CHANNEL_CREATE":
                heard.append(frame["t"])
            await server.gateway.drop()  # the server closes: the next connection identifies
    assert heard == ["GUILD_SCHEDULED_EVENT_USER_ADD", "GUILD_SCHEDULED_EVENT_USER_REMOVE"]
    assert event.interested == []


async def test_the_playground_lists_a_servers_events_with_interested() -> None:
    server = LocalDiscord()
    playground = Playground(server)  # adds its page's routes before the server listens
    await server.start()
    try:
        async with aiohttp.ClientSession(base_url=server.base_url, headers=AUTH) as http:
            world, amy = server.world, playground.pilots[0]
            await call(http, "POST", f"/guilds/{world.guild_id}/scheduled-events", external())
            state = f"/play/state?viewer={amy.id}&channel={playground.channel.id}"
            async with http.get(state) as r:
                (listed,) = (await r.json())["events"]
            assert listed["name"] == "Spring Cup" and listed["interested"] is False
            async with http.post(
                "/play/interested", json={"viewer": str(amy.id), "event": listed["id"]}
            ):
                pass
            async with http.get(state) as r:
                (listed,) = (await r.json())["events"]
            assert listed["interested"] is True and listed["count"] == 1
            assert world.scheduled_events[int(listed["id"])].interested == [amy.id]
    finally:
        await server.stop()
