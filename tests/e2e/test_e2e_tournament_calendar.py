"""Tournaments on Discord's calendar, against the real bot process: each tournament is a
scheduled event of its server (localcord/scheduled.py), created with it, moved when the
organiser moves the start, started, paused and resumed, completed with the winner or
cancelled; a server where the bot lacks Create Events runs the tournament without one
and its organiser is told why, once; whoever presses Interested is offered the sign-up
by DM (docs/tournaments.md, "On Discord's calendar")."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from datetime import datetime

from e2e.conftest import Local
from localcord import presets, roles
from localcord.client import reply
from localcord.records import ACTIVE, CANCELED, COMPLETED, EXTERNAL, SCHEDULED, ScheduledEvent
from localcord.state import World

NAME = "Spring Cup"


async def event_where(
    world: World, check: Callable[[ScheduledEvent], bool], timeout: float = 60
) -> ScheduledEvent:
    """The first scheduled event for which ``check`` holds, once there is one."""
    async with asyncio.timeout(timeout):
        while True:
            changed = world.changed()
            found = [e for e in world.scheduled_events.values() if check(e)]
            if found:
                return found[0]
            await changed.wait()


def minutes_ahead(when: str) -> float:
    return (datetime.fromisoformat(when).timestamp() - time.time()) / 60


async def test_a_tournaments_event_follows_it_from_creation_to_its_winner(local: Local) -> None:
    world, people, channel = local.server.world, local.people, local.channel
    olga = people.join("olga", moderator=True)
    anna, bob = people.join("anna"), people.join("bob")
    created = await people.slash(
        olga, channel, "crosshairs-tournament create", name=NAME, format="single", start_in=60
    )
    assert reply(created).startswith(f"🏆 **{NAME}**")
    event = await event_where(world, lambda e: e.name == NAME)
    assert event.guild_id == channel.guild_id and event.status == SCHEDULED
    assert event.payload()["entity_type"] == EXTERNAL
    assert event.location == f"https://discord.com/channels/{channel.guild_id}/{channel.id}"
    assert 58 < minutes_ahead(event.start) <= 60
    assert "sign up" in (event.description or "")

    moved = await people.slash(olga, channel, "crosshairs-tournament reschedule", start_in=180)
    assert f"**{NAME}** now starts <t:" in reply(moved)
    await event_where(world, lambda e: e is event and 178 < minutes_ahead(e.start) <= 180)
    assert event.end is not None and minutes_ahead(event.end) > 180

    sign_up = next(m for m in world.history(channel) if m.content.startswith(f"🏆 **{NAME}**"))
    for pilot in (anna, bob):
        assert "You are in" in reply(await people.click(pilot, sign_up, "Join"))
    await people.click(olga, sign_up, "Start")
    await event_where(world, lambda e: e is event and e.status == ACTIVE)

    assert "is paused" in reply(await people.slash(olga, channel, "crosshairs-tournament pause"))
    await event_where(world, lambda e: e is event and "Paused" in (e.description or ""))
    assert "carries on" in reply(await people.slash(olga, channel, "crosshairs-tournament resume"))
    await event_where(world, lambda e: e is event and "Paused" not in (e.description or ""))

    await people.slash(
        olga,
        channel,
        "crosshairs-tournament result",
        player=anna,
        opponent=bob,
        outcome="player",
    )
    await people.wait_for(channel, lambda m: m.content.startswith(f"🏆 **{NAME}** is over"))
    over = await event_where(world, lambda e: e is event and e.status == COMPLETED)
    assert "Winner: anna" in (over.description or "")
    assert len(world.scheduled_events) == 1  # one event, kept in step, never a second
    calls = [r for r in world.requests if "/scheduled-events" in r.path]
    assert calls and all(r.status < 400 for r in calls)  # its invite's Create Events does


async def test_a_tournament_cancelled_before_it_starts_cancels_its_event(local: Local) -> None:
    world, people, channel = local.server.world, local.people, local.channel
    olga = people.join("olga", moderator=True)
    await people.slash(olga, channel, "crosshairs-tournament create", name=NAME, format="single")
    event = await event_where(world, lambda e: e.name == NAME)
    assert 55 < minutes_ahead(event.start) <= 60  # no start set: listed an hour ahead
    assert "is over" in reply(await people.slash(olga, channel, "crosshairs-tournament end"))
    await event_where(world, lambda e: e is event and e.status == CANCELED)


async def test_without_create_events_the_tournament_runs_and_says_why(local: Local) -> None:
    world, people, channel = local.server.world, local.people, local.channel
    presets.take_from_bot(world, roles.CREATE_EVENTS)
    olga = people.join("olga", moderator=True)
    anna, bob = people.join("anna"), people.join("bob")
    check = await people.slash(olga, channel, "crosshairs setup check")
    assert "Server-wide: ⛔ missing Create Events (to list each tournament" in reply(check)

    created = await people.slash(
        olga, channel, "crosshairs-tournament create", name=NAME, format="single"
    )
    told = await people.wait_for(channel, lambda m: "is not listed" in m.content, olga)
    assert told.visible_to == olga.id and told.interaction_id == created.id  # theirs only
    assert f"**{NAME}** is not listed in the server's events" in told.content
    assert "Create Events" in told.content
    sign_up = await people.wait_for(channel, lambda m: m.content.startswith(f"🏆 **{NAME}**"))
    for pilot in (anna, bob):
        assert "You are in" in reply(await people.click(pilot, sign_up, "Join"))
    await people.click(olga, sign_up, "Start")
    await people.wait_for(channel, lambda m: m.content.startswith(f"📣 **{NAME} — round 1**"))
    said = [m.content for m in world.history(channel, olga.id)]
    assert sum("is not listed" in text for text in said) == 1  # once, not at the start
    assert world.scheduled_events == {}
    assert not [r for r in world.requests if "scheduled-events" in r.path]  # never tried


async def test_an_interested_person_is_offered_the_sign_up(local: Local) -> None:
    world, people, channel = local.server.world, local.people, local.channel
    olga = people.join("olga", moderator=True)
    dora = people.join("dora")
    await people.slash(olga, channel, "crosshairs-tournament create", name=NAME, format="single")
    event = await event_where(world, lambda e: e.name == NAME)

    local.server.calendar.interested(dora, event)  # as in the server's Events list
    dm = await people.wait_for(world.dm_channel(dora), lambda m: NAME in m.content, dora)
    assert "You are interested in" in dm.content and f"<#{channel.id}>" in dm.content
    assert event.location in dm.content  # the sign-up channel's link
    sign_up = next(m for m in world.history(channel) if m.content.startswith(f"🏆 **{NAME}**"))
    assert "You are in" in reply(await people.click(dora, sign_up, "Join"))
    assert event.interested == [dora.id]
