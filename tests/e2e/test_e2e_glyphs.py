"""Glyphs in text through what players see: the bot uploads the seats' insignia and the
manoeuvres as the application's emojis when it starts (only those missing), its cockpit
menus show them as options' emoji and a turn told in words starts with its seat's
insignia; where Discord refuses the uploads, the text is today's."""

from __future__ import annotations

import base64
import random
from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace

import aiohttp
import pytest

from e2e.conftest import Local, running
from localcord.autoplay import Flight, board_message, fly_turn_in_cockpit
from localcord.client import answer
from localcord.playground import Playground
from localcord.records import Json, Message
from localcord.server import LocalDiscord
from localcord.state import World
from render import glyphs

CLIMB_ID = 4242  # an emoji of that name the application already has


def _has_climb(world: World) -> None:
    world.emojis.found[CLIMB_ID] = {
        "id": str(CLIMB_ID),
        "name": "xh_climb",
        "roles": [],
        "require_colons": True,
        "managed": False,
        "animated": False,
        "available": True,
    }
    world.emojis.images[CLIMB_ID] = glyphs.glyphs()["xh_climb"]


def _refusing(world: World) -> None:
    world.emojis.refusing = True


@pytest.fixture
async def seeded(tmp_path: Path) -> AsyncIterator[Local]:
    async for started in running(tmp_path, before=_has_climb):
        yield started


@pytest.fixture
async def refused(tmp_path: Path) -> AsyncIterator[Local]:
    async for started in running(tmp_path, before=_refusing):
        yield started


async def first_turn(local: Local) -> tuple[list[Json], Message]:
    """The options of Alice's cockpit menu as it opens, and her first turn told in words
    once she flew it."""
    people = local.people
    alice, bob = people.join("alice"), people.join("bob")
    challenge = await people.slash(alice, local.channel, "crosshairs challenge", opponent=bob)
    assert challenge.original is not None
    await people.click(bob, challenge.original, "Accept")
    thread = await people.wait_thread(local.channel)
    cockpit = answer(await people.click(alice, board_message(people, thread), "Play"))
    assert cockpit is not None and cockpit.selects()
    options = [dict(o) for o in cockpit.selects()[0]["options"]]
    await fly_turn_in_cockpit(people, thread, alice, random.Random(5), Flight())
    told = await people.wait_for(thread, lambda m: "Turn 1, alice" in m.content)
    return options, told


async def test_the_glyphs_are_uploaded_once_and_shown_in_menus_and_turns_in_words(
    seeded: Local,
) -> None:
    world = seeded.server.world
    uploaded = {e["name"]: int(e["id"]) for e in world.emojis.found.values()}
    assert sorted(uploaded) == sorted(glyphs.names())
    assert uploaded["xh_climb"] == CLIMB_ID  # there already: not uploaded again
    posts = [r for r in world.requests if r.method == "POST" and r.path.endswith("/emojis")]
    assert len(posts) == len(glyphs.names()) - 1
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"{seeded.server.base_url}/emojis/{uploaded['xh_orange_circle']}.png") as got,
    ):
        image = await got.read()
    assert image.startswith(b"\x89PNG") and len(image) < 256 * 1024

    options, told = await first_turn(seeded)
    # the placements (P1's first turn) show P1's insignia, the orange circle
    circle = uploaded["xh_orange_circle"]
    assert options and all(int(o["emoji"]["id"]) == circle for o in options)
    assert f"\n<:xh_orange_circle:{circle}> Turn 1, alice" in told.content


async def test_refused_uploads_leave_todays_plain_text(refused: Local) -> None:
    world = refused.server.world
    assert not world.emojis.found
    options, told = await first_turn(refused)
    assert options and all("emoji" not in o for o in options)
    assert "\nTurn 1, alice" in told.content
    assert "<:" not in told.content


def test_the_playground_shows_an_emoji_in_text_as_its_image() -> None:
    page = SimpleNamespace(world=SimpleNamespace(users={}, channels={}))
    shown = Playground._html(page, "<:xh_orange_circle:77> Turn 1, alice")  # type: ignore[arg-type]
    assert shown == (
        '<img class="emoji" src="/emojis/77.png" alt=":xh_orange_circle:" '
        'title=":xh_orange_circle:"> Turn 1, alice'
    )


async def test_localcord_lists_creates_and_deletes_application_emojis_as_discord() -> None:
    server = LocalDiscord()
    await server.start()
    auth = {"Authorization": "Bot localcord-test-token"}
    emojis = f"{server.api_base}/applications/{server.world.bot.id}/emojis"
    png = "data:image/png;base64," + base64.b64encode(glyphs.glyphs()["xh_climb"]).decode()
    try:
        async with aiohttp.ClientSession(headers=auth) as http:
            async with http.post(emojis, json={"name": "xh_climb", "image": png}) as made:
                assert made.status == 201
                emoji = await made.json()
            async with http.post(emojis, json={"name": "xh_climb", "image": png}) as taken:
                assert taken.status == 400 and (await taken.json())["code"] == 50035
            huge = "data:image/png;base64," + base64.b64encode(b"\0" * (257 * 1024)).decode()
            async with http.post(emojis, json={"name": "xh_big", "image": huge}) as big:
                assert big.status == 400 and (await big.json())["code"] == 50035
            async with http.get(emojis) as listed:
                assert [e["name"] for e in (await listed.json())["items"]] == ["xh_climb"]
            async with http.delete(f"{emojis}/{emoji['id']}") as deleted:
                assert deleted.status == 204
            server.world.emojis.refusing = True
            async with http.post(emojis, json={"name": "xh_climb", "image": png}) as refused:
                assert refused.status == 400 and (await refused.json())["code"] == 30008
            async with http.get(emojis) as listed:
                assert (await listed.json())["items"] == []
    finally:
        await server.stop()
