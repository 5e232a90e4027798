"""A takeback through localcord: in an unrated game (the computer plays), alice takes
back her turn, bob accepts with the button, and the stored step log went back with it."""

from __future__ import annotations

from e2e.conftest import Local, stored_steps
from localcord.autoplay import board_message, match_id, to_move
from localcord.client import reply


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
