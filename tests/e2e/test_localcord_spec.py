"""localcord refuses what Discord refuses, in Discord's shape: each case below is a
request Discord's spec or its documentation refuses, sent straight to the server."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

import aiohttp
import pytest

from localcord.records import TOKEN_LIFETIME, Channel, Interaction, Json
from localcord.server import LocalDiscord
from localcord.state import World

pytestmark = pytest.mark.refusals
AUTH = {"Authorization": "Bot localcord-test-token"}
COMMAND, COMPONENT, AUTOCOMPLETE = 2, 3, 4


@dataclass
class Place:
    server: LocalDiscord
    channel: Channel
    http: aiohttp.ClientSession

    @property
    def world(self) -> World:
        return self.server.world

    def interaction(self, kind: int) -> Interaction:
        user = self.world.add_user("pilot")
        return self.world.new_interaction(kind, user, self.channel, {"name": "crosshairs"})


@pytest.fixture
async def place() -> AsyncIterator[Place]:
    server = LocalDiscord()
    channel = server.world.add_channel("dogfights")
    await server.start()
    try:
        async with aiohttp.ClientSession(base_url=server.base_url) as http:
            yield Place(server, channel, http)
    finally:
        await server.stop()


def button(custom_id: str | None = "b", style: int = 2) -> Json:
    found: Json = {"type": 2, "style": style, "label": "Go"}
    return found if custom_id is None else found | {"custom_id": custom_id}


def row(*items: Json) -> Json:
    return {"type": 1, "components": list(items)}


def select(options: list[Json], **extra: Any) -> Json:
    return {"type": 3, "custom_id": "s", "options": options} | extra


def option(label: str, value: str) -> Json:
    return {"label": label, "value": value}


def command(**fields: Any) -> list[Json]:
    return [{"name": "crosshairs", "description": "Play", "type": 1} | fields]


def choices(*names: str) -> Json:
    return {"type": 8, "data": {"choices": [{"name": n, "value": "v"} for n in names]}}


# (what, route, body, status, code, where the error is reported)
Route = Callable[[Place], str]
messages: Route = lambda p: f"/channels/{p.channel.id}/messages"  # noqa: E731
threads: Route = lambda p: f"/channels/{p.channel.id}/threads"  # noqa: E731
commands: Route = lambda p: f"/applications/{p.world.bot.id}/commands"  # noqa: E731


def callback(kind: int) -> Route:
    def route(p: Place) -> str:
        i = p.interaction(kind)
        return f"/interactions/{i.id}/{i.token}/callback"

    return route


CASES: list[tuple[str, str, Route, Any, int, int, tuple[str, ...] | None]] = [
    ("empty message", "POST", messages, {"content": ""}, 400, 50006, None),
    ("empty answer", "POST", callback(COMMAND), {"type": 4, "data": {}}, 400, 50006, None),
    (
        "empty action row",
        "POST",
        messages,
        {"components": [row()]},
        400,
        50035,
        ("components", "0", "components"),
    ),
    (
        "button outside a row",
        "POST",
        messages,
        {"components": [button()]},
        400,
        50035,
        ("components", "0", "type"),
    ),
    (
        "one custom id twice",
        "POST",
        messages,
        {"components": [row(button("x"), button("x"))]},
        400,
        50035,
        ("components", "0", "components", "1", "custom_id"),
    ),
    (
        "button without custom id",
        "POST",
        messages,
        {"components": [row(button(None))]},
        400,
        50035,
        ("components", "0", "components", "0", "custom_id"),
    ),
    (
        "empty custom id",
        "POST",
        messages,
        {"components": [row(button(""))]},
        400,
        50035,
        ("components", "0", "components", "0", "custom_id"),
    ),
    (
        "option with empty label",
        "POST",
        messages,
        {"components": [row(select([option("", "a")]))]},
        400,
        50035,
        ("components", "0", "components", "0", "options", "0", "label"),
    ),
    (
        "option value twice",
        "POST",
        messages,
        {"components": [row(select([option("a", "v"), option("b", "v")]))]},
        400,
        50035,
        ("components", "0", "components", "0", "options", "1", "value"),
    ),
    (
        "min_values over max_values",
        "POST",
        messages,
        {
            "components": [
                row(select([option("a", "a"), option("b", "b")], min_values=2, max_values=1))
            ]
        },
        400,
        50035,
        ("components", "0", "components", "0", "min_values"),
    ),
    ("thread name empty", "POST", threads, {"name": "", "type": 11}, 400, 50035, ("name",)),
    ("thread name 101", "POST", threads, {"name": "n" * 101, "type": 11}, 400, 50035, ("name",)),
    (
        "command named Bad Name",
        "PUT",
        commands,
        command(name="Bad Name"),
        400,
        50035,
        ("0", "name"),
    ),
    (
        "description of 101",
        "PUT",
        commands,
        command(description="d" * 101),
        400,
        50035,
        ("0", "description"),
    ),
    (
        "26 choices",
        "POST",
        callback(AUTOCOMPLETE),
        choices(*"abcdefghijklmnopqrstuvwxyz"),
        400,
        50035,
        ("data", "choices"),
    ),
    (
        "choice name of 101",
        "POST",
        callback(AUTOCOMPLETE),
        choices("n" * 101),
        400,
        50035,
        ("data", "choices", "0", "name"),
    ),
    (
        "empty choice name",
        "POST",
        callback(AUTOCOMPLETE),
        choices(""),
        400,
        50035,
        ("data", "choices", "0", "name"),
    ),
    ("type 6 to a command", "POST", callback(COMMAND), {"type": 6}, 400, 50035, ("type",)),
    (
        "type 7 to a command",
        "POST",
        callback(COMMAND),
        {"type": 7, "data": {"content": "x"}},
        400,
        50035,
        ("type",),
    ),
    ("type 8 to a command", "POST", callback(COMMAND), choices("a"), 400, 50035, ("type",)),
    (
        "type 4 to autocomplete",
        "POST",
        callback(AUTOCOMPLETE),
        {"type": 4, "data": {"content": "x"}},
        400,
        50035,
        ("type",),
    ),
    ("unknown type 42", "POST", callback(COMPONENT), {"type": 42}, 400, 50035, ("type",)),
]


@pytest.mark.parametrize(
    ("method", "route", "body", "status", "code", "where"),
    [pytest.param(*case[1:], id=case[0]) for case in CASES],
)
async def test_discord_refuses_it_and_so_does_localcord(
    place: Place,
    method: str,
    route: Route,
    body: Any,
    status: int,
    code: int,
    where: tuple[str, ...] | None,
) -> None:
    before = len(place.world.history(place.channel)), len(place.world.channels)
    async with place.http.request(
        method, f"/api/v10{route(place)}", json=body, headers=AUTH
    ) as response:
        answer = await response.json()
    assert (response.status, answer["code"]) == (status, code), answer
    if where is not None:
        node = answer["errors"]
        for key in where:
            node = node[key]
        (error,) = node["_errors"]
        assert error["code"] and error["message"]
    assert (len(place.world.history(place.channel)), len(place.world.channels)) == before
    assert place.server.checks.failures, "a strict run would fail on it"


async def test_a_follow_up_after_the_tokens_fifteen_minutes(place: Place) -> None:
    interaction = place.interaction(COMMAND)
    interaction.created = time.monotonic() - TOKEN_LIFETIME - 1
    path = f"/api/v10/webhooks/{place.world.bot.id}/{interaction.token}"
    async with place.http.post(path, json={"content": "late"}) as response:
        assert response.status == 401
        assert (await response.json())["code"] == 50027
    assert place.world.history(place.channel) == []


async def test_a_request_without_the_bot_token(place: Place) -> None:
    path = f"/api/v10/channels/{place.channel.id}/messages"
    async with place.http.post(path, json={"content": "hi"}) as response:
        assert response.status == 401
        assert await response.json() == {"message": "401: Unauthorized", "code": 0}
    async with place.http.post(path, json={"content": "hi"}, headers=AUTH) as response:
        assert response.status == 200
    assert [m.content for m in place.world.history(place.channel)] == ["hi"]
