"""A takeback through localcord: in an unrated game (the computer plays), alice takes
back her turn, bob accepts with the button, and the stored step log went back with it."""

from __future__ import annotations

import asyncio

from e2e.conftest import Local, stored_steps
from localcord.autoplay import board_message, match_id, to_move
from localcord.client import People, reply
from localcord.state import Channel, User

LATENCY = 0.3  # seconds added to every REST answer, so that the two presses overlap


async def test_a_takeback_accepted_by_the_other_player(local: Local) -> None:
    people, channel = local.people, local.channel
    alice, bob = people.join("alice"), people.join("bob")
    opened = await people.slash(alice, channel, "crosshairs lobby", mode="ffa3", clouds="none")
    lobby = opened.original
    assert lobby is not None
    await people.click(bob, lobby, "Sit P2")
    await people.click(alice, lobby, "Add computer")
    await people.click(alice, lobby, "Start")
    thread = await people.wait_thread(channel)

    flown = []
    while (found := await to_move(people, thread, [alice, bob]))[0] is alice:
        flown.append(found[1][0])
        await people.slash(alice, thread, "crosshairs move", tokens=found[1][0])
    assert flown and found[0] is bob

    asked = await people.slash(alice, thread, "crosshairs takeback")
    request = asked.original
    assert request is not None and f"<@{bob.id}>" in request.content
    refused = await people.click(alice, request, "Accept")
    assert "not addressed to you" in reply(refused)
    await people.click(bob, request, "Accept")
    await people.wait_for(thread, lambda m: "took back their last turn" in m.content)
    assert request.buttons() == []
    player, offered = await to_move(people, thread, [alice, bob])
    assert player is alice and flown[0] in offered

    match = match_id(board_message(people, thread))
    await local.bot.stop()
    tokens, _ = await stored_steps(local, match)
    assert tokens == []  # alice's first turn was the game's first: nothing stays


async def fly_turn(people: People, thread: Channel, players: list[User], who: User) -> None:
    """``who`` flies the rest of their turn, each step the first offered."""
    while (found := await to_move(people, thread, players))[0] is who:
        await people.slash(who, thread, "crosshairs move", tokens=found[1][0])


async def test_an_accept_and_a_move_at_once_never_both_happen(local: Local) -> None:
    """Bob accepts alice's takeback and sends his own move a few ms later, with every
    REST answer late so that the two overlap inside the bot: either the move is refused
    (the turn is back with alice) or the takeback is (the game moved on), never a move
    answered ✅ and then taken back. Tried at several gaps, since where the two meet
    inside the bot depends on the gap."""
    people, channel = local.people, local.channel
    alice, bob = people.join("alice"), people.join("bob")
    players = [alice, bob]
    challenge = await people.slash(
        alice, channel, "crosshairs challenge", opponent=bob, clouds="none", rated=False
    )
    assert challenge.original is not None
    await people.click(bob, challenge.original, "Accept")
    thread = await people.wait_thread(channel)
    for gap in (0.0, 0.001, 0.002, 0.004, 0.008, 0.016, 0.05):
        await fly_turn(people, thread, players, alice)
        player, offered = await to_move(people, thread, players)
        assert player is bob
        request = (await people.slash(alice, thread, "crosshairs takeback")).original
        assert request is not None
        local.server.faults.latency = LATENCY
        accept = asyncio.create_task(people.click(bob, request, "Accept"))
        await asyncio.sleep(gap)
        move = asyncio.create_task(people.slash(bob, thread, "crosshairs move", tokens=offered[0]))
        await asyncio.gather(accept, move)
        local.server.faults.latency = 0.0
        moved = reply(move.result()).startswith("✅")
        if not moved:  # the takeback came first: the turn is alice's again
            await people.wait_for(thread, lambda m: "took back their last turn" in m.content)
            assert (await to_move(people, thread, players))[0] is alice, gap
            continue
        assert "out of date" in reply(accept.result()), (gap, reply(accept.result()))
        assert (await to_move(people, thread, players))[0] is bob, gap  # his move stands
        await fly_turn(people, thread, players, bob)
