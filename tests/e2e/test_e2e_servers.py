"""Servers as communities run them, against the real bot process: the bot holds exactly
its invite link's permissions (localcord's default), and every channel call it makes is
one that list covers; a locked-down community, slow mode, forum posts, announcement
channels, voice channels' chats, private threads, and servers turning Activities or
Use External Apps off (localcord/presets.py). Where a match cannot live, the person is
told which channel to use instead, and nothing is posted."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from bot.invite import PERMISSIONS, USES
from e2e.conftest import Local
from localcord import permissions, presets, roles
from localcord.autoplay import board_message, fly_match
from localcord.client import answer, reply
from localcord.state import THREADS, Channel, User, World

API = "/api/v10"
INVITED = {use.attr for use in USES}


async def duel_in(local: Local, channel: Channel, steps: int = 4) -> Channel:
    """A duel challenged, accepted and flown ``steps`` steps in ``channel``: its thread."""
    people = local.people
    alice, bob = people.join("alice"), people.join("bob")
    challenge = await people.slash(alice, channel, "crosshairs challenge", opponent=bob, planes=3)
    assert challenge.original is not None, reply(challenge)
    await people.click(bob, challenge.original, "Accept")
    thread = await people.wait_thread(channel)
    assert (await people.download(board_message(people, thread))).startswith(b"\x89PNG")
    await fly_match(people, thread, [alice, bob], random.Random(5), max_steps=steps, finish=False)
    return thread


def test_every_channel_route_asks_only_for_what_the_invite_grants() -> None:
    for route in permissions.ROUTES:
        assert set(route.channel) | set(route.thread) <= INVITED, route.path.pattern
    assert "attach_files" in INVITED  # uploads need it on every route that posts
    assert sum(1 << n for n in range(53) if PERMISSIONS >> n & 1) == PERMISSIONS
    assert PERMISSIONS & permissions.bits("attach_files")


async def test_the_bot_plays_with_exactly_its_invites_permissions(local: Local) -> None:
    world, channel = local.server.world, local.channel
    assert permissions.of_bot(world, channel) == PERMISSIONS
    thread = await duel_in(local, channel, steps=6)
    assert permissions.of_bot(world, thread) == PERMISSIONS
    calls = [r for r in world.requests if r.path.startswith(f"{API}/channels/")]
    assert calls, "the bot posted in its channel and thread"
    assert [r for r in world.requests if r.status == 403] == []
    for call in calls:
        path = call.path.removeprefix(API)
        key = int(path.split("/")[2])
        in_thread = key in world.channels and world.channels[key].type in THREADS
        needed = permissions.needed(call.method, path, in_thread)
        assert needed is not None, f"no permission rule for {call.method} {path}"
        assert set(needed) <= INVITED, (call.method, path, needed)


async def test_a_locked_down_community(local: Local) -> None:
    world, channel = local.server.world, local.channel
    presets.locked_down(world)
    someone = local.people.join("someone")
    theirs = permissions.of(world, someone.id, channel)
    assert not theirs & permissions.bits("attach_files", "embed_links", "create_public_threads")
    assert permissions.of_bot(world, channel) == PERMISSIONS  # its own role keeps them
    await duel_in(local, channel)


async def test_slow_mode_does_not_slow_the_bot(local: Local) -> None:
    world, channel = local.server.world, local.channel
    presets.slow_mode(world, channel, 21600)  # six hours between a person's messages
    assert channel.payload()["rate_limit_per_user"] == 21600
    thread = await duel_in(local, channel, steps=6)
    assert len(world.history(thread)) > 2  # bots are unaffected (Discord's channel docs)


async def test_a_new_server_with_activities_off(local: Local) -> None:
    world, channel = local.server.world, local.channel
    presets.new_server(world)
    presets.take_from_everyone(world, roles.USE_EMBEDDED_ACTIVITIES)
    assert world.servers[world.guild_id].everyone.permissions & roles.VIEW_CHANNEL
    assert not permissions.of_bot(world, channel) & roles.USE_EMBEDDED_ACTIVITIES
    await duel_in(local, channel)


PLACES: dict[str, tuple[str, Callable[[World, Channel, User], Channel]]] = {
    "forum post": ("a forum post", lambda w, _c, u: presets.forum_post(w, u)),
    "announcement": ("an announcement channel", lambda w, _c, _u: presets.announcement(w)),
    "voice chat": ("a voice channel's chat", lambda w, _c, _u: presets.voice_chat(w)),
    "private thread": ("a private thread", presets.private_thread),
}


@pytest.mark.parametrize("kind", PLACES)
async def test_a_place_without_match_threads_names_the_channel_to_use(
    local: Local, kind: str
) -> None:
    people, world = local.people, local.server.world
    alice, bob = people.join("alice"), people.join("bob")
    said_kind, make = PLACES[kind]
    place = make(world, local.channel, alice)
    for command, options in (
        ("crosshairs challenge", {"opponent": bob}),
        ("crosshairs lobby", {"mode": "ffa3"}),
    ):
        refused = await people.slash(alice, place, command, **options)
        said = reply(refused)
        assert f"I can't run a match in {said_kind}" in said, said
        assert f"Use this command in <#{local.channel.id}>." in said
        told = answer(refused)
        assert told is not None and told.visible_to == alice.id
    assert world.history(place, viewer=None) == []
    assert world.history(local.channel) == []
    assert [t for t in world.channels.values() if t.owner_id == world.bot.id] == []


async def test_without_use_external_apps_a_user_installed_answer_is_private(local: Local) -> None:
    people, world = local.people, local.server.world
    alice, bob = people.join("alice"), people.join("bob")
    elsewhere = world.add_guild("Elsewhere", with_bot=False)
    general = world.add_channel("general", elsewhere)
    # allowed (Discord's default), the answer is public
    shown = await people.slash(alice, general, "crosshairs leaderboard")
    assert (found := answer(shown)) is not None and found.visible_to is None
    presets.take_from_everyone(world, roles.USE_EXTERNAL_APPS, elsewhere)
    hidden = await people.slash(alice, general, "crosshairs leaderboard")
    assert (found := answer(hidden)) is not None and found.visible_to == alice.id
    refused = await people.slash(alice, general, "crosshairs challenge", opponent=bob)
    assert "Use External Apps" in reply(refused)
    assert [m for m in world.history(general) if m.visible_to is None] == [shown.original]
