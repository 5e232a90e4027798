"""The Activity's origin in the playground (localcord/activity_host.py): the frame's calls
give a code only to a participant and authenticate only a token of the frame's own
person; participants are long-polled; every other path, and a socket, reaches the
Activity's server as through Discord's proxy."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass

import aiohttp
import pytest
from aiohttp import web

from localcord import presets, roles
from localcord.activities import Instance
from localcord.activity_host import ActivityHost
from localcord.playground import Playground
from localcord.records import Json, User
from localcord.server import LocalDiscord


@dataclass
class Hosted:
    host: ActivityHost
    instance: Instance
    amy: User
    ben: User
    http: aiohttp.ClientSession
    discord: str  # the local Discord's address

    async def call(self, path: str, **body: object) -> tuple[int, Json]:
        async with self.http.post(f"/.localcord/{path}", json=body) as answer:
            return answer.status, await answer.json()


async def activity_server(request: web.Request) -> web.StreamResponse:
    """The Activity's own server: echoes the path it was asked and a socket's words."""
    if request.headers.get("Upgrade", "").lower() == "websocket":
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        async for message in ws:
            await ws.send_str("echo " + message.data)
        return ws
    return web.json_response({"path": request.path_qs, "origin": request.headers.get("Origin")})


@pytest.fixture
async def hosted() -> AsyncIterator[Hosted]:
    server = LocalDiscord()
    channel = server.world.add_channel("dogfights")
    amy, ben = server.world.add_user("amy"), server.world.add_user("ben")
    activity = web.Application()
    activity.router.add_route("*", "/{tail:.*}", activity_server)
    runner = web.AppRunner(activity, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    url = f"http://127.0.0.1:{runner.addresses[0][1]}"
    host = ActivityHost(server.world, server.activities, url)
    await server.start()
    await host.start()
    instance = server.activities.launch(amy, channel)
    try:
        async with aiohttp.ClientSession(base_url=host.base_url) as http:
            yield Hosted(host, instance, amy, ben, http, server.base_url)
    finally:
        await host.stop()
        await server.stop()
        await runner.cleanup()


async def test_only_a_participant_gets_a_code_and_only_for_this_app(hosted: Hosted) -> None:
    app = str(hosted.host.world.bot.id)
    place = {"instance_id": hosted.instance.id}
    status, said = await hosted.call("authorize", user=str(hosted.ben.id), client_id=app, **place)
    assert (status, said["code"]) == (403, 4010)  # Ben has not joined
    status, said = await hosted.call("authorize", user=str(hosted.amy.id), client_id="1", **place)
    assert (status, said["code"]) == (400, 4007)
    status, said = await hosted.call(
        "authorize", user=str(hosted.amy.id), client_id=app, scope=["identify"], **place
    )
    assert status == 200 and said["code"] in hosted.host.activities.codes


async def test_authenticate_takes_only_the_frame_person_token(hosted: Hosted) -> None:
    activities = hosted.host.activities
    activities.join(hosted.instance, hosted.ben)
    form = {
        "client_id": str(hosted.host.world.bot.id),
        "client_secret": activities.client_secret,
        "grant_type": "authorization_code",
        "code": activities.authorize(hosted.ben, ["identify"]),
    }
    async with hosted.http.post(hosted.discord + "/api/oauth2/token", data=form) as answer:
        token = (await answer.json())["access_token"]
    status, said = await hosted.call("authenticate", user=str(hosted.amy.id), access_token=token)
    assert (status, said["code"]) == (401, 4009)  # Ben's token in Amy's frame
    status, said = await hosted.call("authenticate", user=str(hosted.ben.id), access_token="x")
    assert (status, said["code"]) == (401, 4009)
    status, said = await hosted.call("authenticate", user=str(hosted.ben.id), access_token=token)
    assert status == 200
    assert said["user"]["username"] == "ben" and said["scopes"] == ["identify"]
    assert said["application"]["id"] == str(hosted.host.world.bot.id) and said["expires"]


async def test_participants_are_long_polled(hosted: Hosted) -> None:
    query = {"instance_id": hosted.instance.id, "since": "-1"}
    async with hosted.http.get("/.localcord/participants", params=query) as answer:
        first = await answer.json()
    assert [p["username"] for p in first["participants"]] == ["amy"]
    query["since"] = str(first["version"])

    async def poll() -> Json:
        async with hosted.http.get("/.localcord/participants", params=query) as answer:
            found: Json = await answer.json()
            return found

    waiting = asyncio.ensure_future(poll())
    hosted.host.activities.join(hosted.instance, hosted.ben)
    later = await asyncio.wait_for(waiting, 10)
    assert [p["username"] for p in later["participants"]] == ["amy", "ben"]
    status, _ = await hosted.call("leave", user=str(hosted.amy.id), instance_id=hosted.instance.id)
    assert status == 200 and hosted.instance.users == [hosted.ben]


async def test_other_paths_and_sockets_reach_the_activity(hosted: Hosted) -> None:
    headers = {"Origin": hosted.host.base_url}
    async with hosted.http.get("/api/state?x=1", headers=headers) as answer:
        assert await answer.json() == {"path": "/api/state?x=1", "origin": hosted.host.base_url}
    async with hosted.http.get("/.proxy/api/state") as answer:
        assert (await answer.json())["path"] == "/api/state"
    async with hosted.http.ws_connect("/socket") as socket:
        await socket.send_str("ping")
        assert (await socket.receive_str()) == "echo ping"


@pytest.fixture
async def playground() -> AsyncIterator[tuple[Playground, aiohttp.ClientSession]]:
    server = LocalDiscord()
    shown = Playground(server, activity_url="http://127.0.0.1:9")
    await server.start(0)
    await shown.host.start()
    try:
        async with aiohttp.ClientSession(base_url=server.base_url) as http:
            yield shown, http
    finally:
        await shown.host.stop()
        await server.stop()


async def test_the_page_launches_refuses_joins_and_leaves(
    playground: tuple[Playground, aiohttp.ClientSession],
) -> None:
    shown, http = playground
    amy, ben = shown.pilots[0], shown.pilots[1]

    async def act(what: str, who: User, channel: int) -> tuple[int, Json]:
        body = {"viewer": str(who.id), "channel": str(channel)}
        async with http.post(f"/play/activity/{what}", json=body) as answer:
            return answer.status, await answer.json()

    async def state(who: User) -> Json:
        query = {"viewer": str(who.id), "channel": str(shown.channel.id), "platform": "mobile"}
        async with http.get("/play/state", params=query) as answer:
            found: Json = (await answer.json())["activity"]
            return found

    thread = shown.world.add_thread(shown.channel, "match", amy)
    status, said = await act("launch", amy, thread.id)
    assert (status, said["error"]) == (400, "Activities cannot be started in a thread.")
    assert await act("launch", amy, shown.channel.id) == (200, {"ok": True})
    mine = (await state(amy))["open"]
    assert mine["channel"] == "dogfights" and "platform=mobile" in mine["frame"]
    assert mine["frame"].startswith(shown.host.base_url + "/.localcord/frame?")
    assert (await state(ben)) == {
        "launcher": True,
        "open": None,
        "here": {"instance": mine["instance"], "people": ["Amy"]},
    }
    assert await act("join", ben, shown.channel.id) == (200, {"ok": True})
    assert (await state(ben))["open"]["instance"] == mine["instance"]
    await act("leave", amy, shown.channel.id)
    await act("leave", ben, shown.channel.id)
    assert not shown.server.activities.instances
    presets.take_from_everyone(shown.world, roles.USE_EMBEDDED_ACTIVITIES)
    status, said = await act("launch", amy, shown.channel.id)
    assert (status, said["error"]) == (400, "You may not start Activities in this channel.")
    shown.host.activity_url = ""  # an app without an Activity: the App Launcher lists none
    assert (await state(amy))["launcher"] is False
