"""The bot's permissions, as a server's moderators set them: localcord refuses what the
bot may not do with Discord's 403s, and the bot checks before a match starts, telling
the person plainly what is missing and who can grant it; nothing half-starts. An admin's
``/crosshairs setup check`` lists what the bot lacks in each channel."""

from __future__ import annotations

import asyncio

import aiohttp

from e2e.conftest import Local
from localcord import permissions, presets
from localcord.client import reply
from localcord.server import LocalDiscord
from storage.db import Database

NEEDED = {
    "view_channel": "View Channel",
    "send_messages": "Send Messages",
    "create_public_threads": "Create Public Threads",
    "send_messages_in_threads": "Send Messages in Threads",
    "attach_files": "Attach Files",
    "embed_links": "Embed Links",
    "read_message_history": "Read Message History",
}


async def test_each_missing_permission_is_named_before_anything_starts(local: Local) -> None:
    people, channel, world = local.people, local.channel, local.server.world
    alice, bob = people.join("alice"), people.join("bob")
    for name, shown in NEEDED.items():
        permissions.deny(world, channel, name)
        before = len(world.history(channel))
        refused = await people.slash(alice, channel, "crosshairs challenge", opponent=bob)
        said = reply(refused)
        assert f"I'm missing {shown} (to " in said, said
        assert "Edit Channel → Permissions" in said and "moderator" in said
        assert refused.original is not None and refused.original.ephemeral
        lobby = await people.slash(alice, channel, "crosshairs lobby", mode="ffa3")
        assert shown in reply(lobby)
        assert len(world.history(channel)) == before  # nothing posted for everyone
        assert world.threads_of(channel) == []
        permissions.allow(world, channel, name)
    # with everything granted back, a match starts as usual
    started = await people.slash(alice, channel, "crosshairs challenge", opponent=bob)
    assert started.original is not None and "challenges you" in started.original.content
    assert [m.id for m in world.history(channel)] == [started.original.id]


async def test_a_permission_lost_before_a_press_is_named_and_nothing_starts(
    local: Local,
) -> None:
    people, channel, world = local.people, local.channel, local.server.world
    alice, bob = people.join("alice"), people.join("bob")
    challenge = await people.slash(alice, channel, "crosshairs challenge", opponent=bob)
    lobby = await people.slash(alice, channel, "crosshairs lobby", mode="ffa3")
    series = await people.slash(alice, channel, "crosshairs-series start", opponent=bob)
    assert challenge.original and lobby.original and series.original
    for _ in range(2):
        await people.click(alice, lobby.original, "Add computer")
    permissions.deny(world, channel, "create_public_threads")
    presses = [
        (bob, challenge.original, "Accept"),
        (alice, lobby.original, "Start"),
        (bob, series.original, "Accept"),
    ]
    for who, message, label in presses:
        said = reply(await people.click(who, message, label))
        assert "I'm missing Create Public Threads (to open a thread for each match)." in said
        assert "Edit Channel → Permissions" in said
    assert world.threads_of(channel) == []
    # each stayed open: granted back, the same presses start what they were meant to
    permissions.allow(world, channel, "create_public_threads")
    for who, message, label in presses:
        await people.click(who, message, label)
    async with asyncio.timeout(60):
        while len([t for t in world.threads_of(channel) if world.history(t)]) < 3:
            await people.wait_thread(channel)
            await asyncio.sleep(0.2)
    await local.bot.stop()
    async with await Database.open(local.bot.database) as db, db.read() as conn:
        rows = list(await conn.fetchall("SELECT COUNT(*) FROM matches"))
    assert rows[0][0] == 3  # none stored by the refused presses


async def test_setup_check_lists_what_the_bot_lacks_per_channel(local: Local) -> None:
    people, world = local.people, local.server.world
    admin = people.join("admin", moderator=True)
    quiet = world.add_channel("quiet")
    news = presets.announcement(world)
    permissions.deny(world, quiet, "attach_files", "create_public_threads")
    checked = await people.slash(admin, local.channel, "crosshairs setup check")
    said = reply(checked)
    assert f"<#{local.channel.id}>: ✅ ready" in said
    assert (
        f"<#{quiet.id}>: ⛔ missing Create Public Threads (to open a thread for each match), "
        "Attach Files (to upload the board's picture)"
    ) in said
    assert f"<#{news.id}>: ➖ an announcement channel: matches are played in text" in said
    assert "Edit Channel → Permissions" in said
    # Manage Server is the member's own permission now, not everyone's
    pilot = people.join("pilot")
    refused = await people.slash(pilot, local.channel, "crosshairs setup check")
    assert "Manage Server" in reply(refused)


async def test_localcord_answers_discords_403s() -> None:
    server = LocalDiscord()
    world = server.world
    channel = world.add_channel("locked")
    await server.start()
    url = f"{server.api_base}/channels/{channel.id}"
    auth = {"Authorization": "Bot localcord-test-token"}
    try:
        async with aiohttp.ClientSession(headers=auth) as http:
            permissions.deny(world, channel, "send_messages")
            async with http.post(f"{url}/messages", json={"content": "hi"}) as response:
                assert response.status == 403
                assert (await response.json())["code"] == 50013
            permissions.allow(world, channel, "send_messages")
            permissions.deny(world, channel, "attach_files")
            form = aiohttp.FormData()
            form.add_field("payload_json", '{"content": "a picture"}')
            form.add_field("files[0]", b"\x89PNG", filename="b.png", content_type="image/png")
            async with http.post(f"{url}/messages", data=form) as response:
                assert response.status == 403
                assert (await response.json())["code"] == 50013
            async with http.post(f"{url}/messages", json={"content": "words"}) as response:
                assert response.status == 200
            permissions.deny(world, channel, "view_channel")
            async with http.get(f"{url}/messages") as response:
                assert response.status == 403
                assert (await response.json())["code"] == 50001
        assert [m.content for m in world.history(channel)] == ["words"]
    finally:
        await server.stop()
