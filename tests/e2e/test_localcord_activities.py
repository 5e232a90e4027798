"""Discord's side of an Activity in localcord: callback type 12 launching an instance (and
refused where Discord refuses), the OAuth2 token exchange, ``/users/@me`` with the access
token, the activity-instances route with the bot token, the entry point command."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import aiohttp
import pytest

from localcord import presets, roles
from localcord.activities import CLIENT_SECRET
from localcord.records import Channel, Interaction, Json, User
from localcord.server import LocalDiscord
from localcord.state import World

AUTH = {"Authorization": "Bot localcord-test-token"}
API = "/api/v10"
COMMAND, COMPONENT = 2, 3


@dataclass
class Place:
    server: LocalDiscord
    channel: Channel
    amy: User
    ben: User
    http: aiohttp.ClientSession

    @property
    def world(self) -> World:
        return self.server.world

    def pressed(self, user: User, channel: Channel | None = None) -> Interaction:
        return self.world.new_interaction(
            COMPONENT, user, channel or self.channel, {"custom_id": "xh:live", "component_type": 2}
        )

    async def launch(self, interaction: Interaction) -> tuple[int, Json]:
        route = f"{API}/interactions/{interaction.id}/{interaction.token}/callback"
        async with self.http.post(route, params={"with_response": "1"}, json={"type": 12}) as r:
            return r.status, await r.json()

    async def exchange(self, code: str, secret: str = CLIENT_SECRET) -> tuple[int, Json]:
        form = {
            "client_id": str(self.world.bot.id),
            "client_secret": secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        async with self.http.post("/api/oauth2/token", data=form) as r:
            return r.status, await r.json()

    async def get(self, route: str, headers: dict[str, str]) -> tuple[int, Json]:
        async with self.http.get(API + route, headers=headers) as r:
            return r.status, await r.json()


@pytest.fixture
async def place() -> AsyncIterator[Place]:
    server = LocalDiscord()
    channel = server.world.add_channel("dogfights")
    amy, ben = server.world.add_user("amy"), server.world.add_user("ben")
    await server.start()
    try:
        async with aiohttp.ClientSession(base_url=server.base_url) as http:
            yield Place(server, channel, amy, ben, http)
    finally:
        await server.stop()


async def test_launch_activity_opens_an_instance_the_bot_can_read(place: Place) -> None:
    pressed = place.pressed(place.amy)
    status, answer = await place.launch(pressed)
    assert status == 200, answer
    instance = answer["resource"]["activity_instance"]["id"]
    assert answer["resource"]["type"] == 12
    assert answer["interaction"]["activity_instance_id"] == instance
    assert pressed.response_type == 12 and pressed.settled.is_set()
    # a second launch in the channel joins the running instance
    status, again = await place.launch(place.pressed(place.ben))
    assert again["resource"]["activity_instance"]["id"] == instance

    route = f"/applications/{place.world.bot.id}/activity-instances/{instance}"
    status, found = await place.get(route, AUTH)
    assert status == 200, found
    assert found["instance_id"] == instance and found["application_id"] == str(place.world.bot.id)
    assert found["location"] == {
        "id": f"gc-{place.world.guild_id}-{place.channel.id}",
        "kind": "gc",
        "channel_id": str(place.channel.id),
        "guild_id": str(place.world.guild_id),
    }
    assert found["users"] == [str(place.amy.id), str(place.ben.id)]
    # an instance ends with its last participant
    running = place.server.activities.instances[instance]
    place.server.activities.leave(running, place.amy)
    place.server.activities.leave(running, place.ben)
    status, gone = await place.get(route, AUTH)
    assert status == 404 and gone["code"] == 10070


async def test_the_instance_route_wants_the_bot_token_and_a_known_instance(place: Place) -> None:
    route = f"/applications/{place.world.bot.id}/activity-instances/i-1-gc-2-3"
    assert (await place.get(route, AUTH))[0] == 404
    status, said = await place.get(route, {})
    assert status == 401 and said == {"message": "401: Unauthorized", "code": 0}


async def test_a_launch_in_a_thread_or_without_the_activities_permission_is_refused(
    place: Place,
) -> None:
    thread = place.world.add_thread(place.channel, "match", place.amy)
    in_thread = place.pressed(place.amy, thread)
    status, said = await place.launch(in_thread)
    assert (status, said["code"]) == (400, 50024)
    assert in_thread.response_type is None  # not answered: the bot may still answer
    presets.take_from_everyone(place.world, roles.USE_EMBEDDED_ACTIVITIES)
    denied = place.pressed(place.amy)
    status, said = await place.launch(denied)
    assert (status, said["code"]) == (403, 50013)
    assert denied.response_type is None and not place.server.activities.instances
    # a DM has no permissions to lack
    dm = place.world.private_channel(place.amy, place.ben)
    status, answer = await place.launch(place.pressed(place.amy, dm))
    assert status == 200
    instance = place.server.activities.instances[answer["resource"]["activity_instance"]["id"]]
    assert instance.location() == {"id": f"pc-{dm.id}", "kind": "pc", "channel_id": str(dm.id)}


@pytest.mark.refusals
async def test_an_autocomplete_cannot_launch(place: Place) -> None:
    asked = place.world.new_interaction(4, place.amy, place.channel, {"name": "crosshairs"})
    status, said = await place.launch(asked)
    assert status == 400 and said["code"] == 50035


async def test_a_code_becomes_a_token_once_and_the_token_reads_its_user(place: Place) -> None:
    code = place.server.activities.authorize(place.ben, ["identify"])
    status, wrong = await place.exchange(code, secret="guessed")
    assert (status, wrong["error"]) == (401, "invalid_client")
    status, token = await place.exchange(code)
    assert status == 200, token
    assert token["token_type"] == "Bearer" and token["scope"] == "identify"
    status, again = await place.exchange(code)
    assert (status, again["error"]) == (400, "invalid_grant")

    status, me = await place.get("/users/@me", {"Authorization": f"Bearer {token['access_token']}"})
    assert status == 200, me
    assert me["id"] == str(place.ben.id) and me["username"] == "ben"
    status, _ = await place.get("/users/@me", {"Authorization": "Bearer forged"})
    assert status == 401
    status, bot = await place.get("/users/@me", AUTH)
    assert bot["id"] == str(place.world.bot.id)


async def test_the_token_route_takes_http_basic_and_refuses_other_grants(place: Place) -> None:
    code = place.server.activities.authorize(place.amy, ["identify"])
    basic = {"Authorization": aiohttp.BasicAuth(str(place.world.bot.id), CLIENT_SECRET).encode()}
    form = {"grant_type": "client_credentials", "code": code}
    async with place.http.post(f"{API}/oauth2/token", data=form, headers=basic) as r:
        assert (r.status, (await r.json())["error"]) == (400, "unsupported_grant_type")
    form["grant_type"] = "authorization_code"
    async with place.http.post(f"{API}/oauth2/token", data=form, headers=basic) as r:
        assert r.status == 200


async def test_the_entry_point_command_is_accepted_in_a_sync(place: Place) -> None:
    commands = [
        {"name": "crosshairs", "description": "Play", "type": 1},
        {"name": "launch", "description": "Open the live board", "type": 4, "handler": 2},
    ]
    commands = [c | {"default_member_permissions": None} for c in commands]
    route = f"{API}/applications/{place.world.bot.id}/commands"
    async with place.http.put(route, json=commands, headers=AUTH) as r:
        assert r.status == 200, await r.text()
    assert [c["type"] for c in place.world.commands] == [1, 4]
    assert not place.server.checks.failures


async def test_discord_py_launches_and_reads_the_instance(
    place: Place, monkeypatch: pytest.MonkeyPatch
) -> None:
    """discord.py's own request (``InteractionResponse.launch_activity`` sends it) and
    its reading of the answer."""
    import discord
    from discord.interactions import (
        InteractionCallbackActivityInstance,
        InteractionCallbackResponse,
    )
    from discord.webhook.async_ import async_context, interaction_response_params

    monkeypatch.setattr(discord.http.Route, "BASE", place.server.api_base)
    pressed = place.pressed(place.amy)
    answer = await async_context.get().create_interaction_response(
        pressed.id, pressed.token, session=place.http, params=interaction_response_params(12)
    )
    # an activity's answer needs neither the interaction nor the connection to be read
    read: InteractionCallbackResponse[discord.Client] = InteractionCallbackResponse(
        data=answer,
        parent=None,  # type: ignore[arg-type]
        state=None,  # type: ignore[arg-type]
        type=discord.InteractionResponseType.launch_activity,
    )
    assert isinstance(read.resource, InteractionCallbackActivityInstance)
    assert read.resource.id == read.activity_id
    assert read.activity_id in place.server.activities.instances


@pytest.mark.refusals
async def test_entry_points_are_refused_where_discord_refuses_them(place: Place) -> None:
    """One global entry point command, none in a guild, and a handler only on one."""
    point = {"name": "launch", "description": "Open", "type": 4, "handler": 2}
    chat = {"name": "crosshairs", "description": "Play", "type": 1}
    app = f"{API}/applications/{place.world.bot.id}"
    cases = [
        (f"{app}/commands", [point, point | {"name": "again"}], ["1"], "type"),
        (f"{app}/guilds/{place.world.guild_id}/commands", [point], ["0"], "type"),
        (f"{app}/commands", [chat | {"handler": 1}], ["0"], "handler"),
    ]
    for route, commands, where, field in cases:
        async with place.http.put(route, json=commands, headers=AUTH) as r:
            said = await r.json()
            assert r.status == 400 and said["code"] == 50035, said
            assert field in said["errors"][where[0]], said
    assert place.world.commands == []
