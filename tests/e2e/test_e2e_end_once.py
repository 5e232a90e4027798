"""A game's end is shown once: a move and a resignation pressed ~10 ms apart (every REST
answer 0.3 s late, so they truly overlap inside the bot) give one final board, one
ratings line and one end recorded, whichever of the two came first."""

from __future__ import annotations

import asyncio

from e2e.conftest import Local, stored_steps
from localcord.autoplay import board_message, match_id, to_move
from localcord.client import LocalcordError, answer, reply
from localcord.records import User
from storage.matches import MatchStatus

LATENCY = 0.3
APART = 0.01


async def test_a_move_and_a_resignation_racing_end_the_game_once(local: Local) -> None:
    people = local.people
    alice, bob = people.join("alice"), people.join("bob")
    challenge = await people.slash(alice, local.channel, "crosshairs challenge", opponent=bob)
    assert challenge.original is not None
    await people.click(bob, challenge.original, "Accept")
    thread = await people.wait_thread(local.channel)
    number = match_id(board_message(people, thread))
    # both sides fly a turn first: a resignation before that calls the game off instead
    flown: list[User] = []
    while True:
        player, offered = await to_move(people, thread, [alice, bob])
        if player is alice and bob in flown:
            break
        flown.append(player)
        played = await people.slash(player, thread, "crosshairs move", tokens=offered[0])
        assert reply(played).startswith("✅"), reply(played)
    confirm = answer(await people.slash(bob, thread, "crosshairs resign"))
    assert confirm is not None

    local.server.faults.latency = LATENCY
    move = asyncio.create_task(people.slash(alice, thread, "crosshairs move", tokens=offered[0]))
    await asyncio.sleep(APART)
    resign = asyncio.create_task(people.click(bob, confirm, "Yes, resign"))
    for done in await asyncio.gather(move, resign, return_exceptions=True):
        assert not isinstance(done, LocalcordError), done
    local.server.faults.latency = 0.0
    await people.wait_for(thread, lambda m: m.content.startswith("📊"))
    await asyncio.sleep(1.0)  # time for a second line to appear, were there one

    said = [m.content for m in local.server.world.history(thread)]
    assert sum(s.startswith("📊") for s in said) == 1, said
    assert sum("wins" in s and s.startswith("**Crosshairs #") for s in said) == 1, said
    await local.bot.stop()
    steps, status = await stored_steps(local, number)
    assert status is MatchStatus.FINISHED
    assert len([s for s in steps if s.startswith("resign")]) == 1
