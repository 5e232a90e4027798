"""Discord delivers a press late (after its three seconds have run out, or held back
by a 429 on its answer) or delivers it twice; the bot answers first and changes state
after, so a refused answer changes nothing: the table stays open, nobody is told a
lie such as "already accepted", and a second delivery seats nothing twice."""

from __future__ import annotations

import pytest

from e2e.conftest import Local
from localcord.client import LocalcordError, reply
from localcord.state import Message, User
from storage.db import Database
from storage.matches import MatchRepo

LATE = 3.2  # seconds after its creation: past Discord's three
RETRY_AFTER = 3.5  # a 429 on the answer holds it back past the three seconds
CALLBACK = r"/interactions/\d+/[^/]+/callback"


async def stored_seats(local: Local) -> list[list[int | None]]:
    """Who sits where in each stored match, in order."""
    await local.bot.stop()
    async with await Database.open(local.bot.database) as db:
        repo = MatchRepo(db)
        found, _ = await repo.list_unfinished()
        return [[s.user_id for s in (await repo.get(r.id)).seats] for r in found]


async def late_press(local: Local, user: User, message: Message, label: str) -> None:
    with pytest.raises(LocalcordError, match="too late"):
        await local.people.click(user, message, label, late=LATE)


async def test_a_late_accept_leaves_the_challenge_open(local: Local) -> None:
    people = local.people
    alice, bob = people.join("alice"), people.join("bob")
    challenge = await people.slash(alice, local.channel, "crosshairs challenge", opponent=bob)
    assert challenge.original is not None
    await late_press(local, bob, challenge.original, "Accept")
    again = await people.click(bob, challenge.original, "Accept")
    assert "already" not in reply(again)
    thread = await people.wait_thread(local.channel)
    assert len(local.server.world.threads_of(local.channel)) == 1
    assert "Match #" in local.server.world.history(thread)[0].content
    assert await stored_seats(local) == [[alice.id, bob.id]]


async def test_an_accept_held_back_by_a_429_leaves_the_challenge_open(local: Local) -> None:
    people = local.people
    alice, bob = people.join("alice"), people.join("bob")
    challenge = await people.slash(alice, local.channel, "crosshairs challenge", opponent=bob)
    assert challenge.original is not None
    local.server.faults.rate_limit(CALLBACK, retry_after=RETRY_AFTER, method="POST")
    with pytest.raises(LocalcordError, match="too late"):
        await people.click(bob, challenge.original, "Accept")
    again = await people.click(bob, challenge.original, "Accept")
    assert "already" not in reply(again)
    await people.wait_thread(local.channel)
    assert await stored_seats(local) == [[alice.id, bob.id]]


async def test_late_lobby_presses_change_nothing_and_a_late_start_starts_nothing(
    local: Local,
) -> None:
    people = local.people
    alice, bob, carol = people.join("alice"), people.join("bob"), people.join("carol")
    lobby = await people.slash(alice, local.channel, "crosshairs lobby", mode="ffa3")
    assert lobby.original is not None
    table = lobby.original
    await late_press(local, bob, table, "Sit P2")
    assert "bob" not in table.content
    await people.click(bob, table, "Sit P2")
    await late_press(local, bob, table, "Leave")
    assert "bob" in table.content
    await late_press(local, alice, table, "Add computer")
    assert "🤖" not in table.content
    await people.click(carol, table, "Sit P3")
    await late_press(local, alice, table, "Start")
    assert local.server.world.threads_of(local.channel) == []
    started = await people.click(alice, table, "Start")
    assert "already" not in reply(started)
    await people.wait_thread(local.channel)
    assert await stored_seats(local) == [[alice.id, bob.id, carol.id]]


async def test_a_late_series_accept_leaves_the_invitation_open(local: Local) -> None:
    people = local.people
    alice, bob = people.join("alice"), people.join("bob")
    offer = await people.slash(alice, local.channel, "crosshairs-series start", opponent=bob)
    assert offer.original is not None
    await late_press(local, bob, offer.original, "Accept")
    again = await people.click(bob, offer.original, "Accept")
    assert "already" not in reply(again)
    await people.wait_thread(local.channel)
    assert await stored_seats(local) == [[alice.id, bob.id]]


async def test_add_computer_delivered_twice_seats_one_computer(local: Local) -> None:
    people = local.people
    alice, bob, carol = people.join("alice"), people.join("bob"), people.join("carol")
    lobby = await people.slash(alice, local.channel, "crosshairs lobby", mode="ffa4")
    assert lobby.original is not None
    table = lobby.original
    await people.click(alice, table, "Add computer", twice=True)
    # the seats that are left: were the computer seated twice, carol could not sit
    await people.click(bob, table, "Sit P3")
    await people.click(carol, table, "Sit P4")
    await people.click(alice, table, "Start")
    await people.wait_thread(local.channel)
    assert await stored_seats(local) == [[alice.id, None, bob.id, carol.id]]
