"""Guild walls for buttons: a match's custom ids, sent by a modified client from another
server or from outside the match's thread, are answered "not found" and change nothing.
Discord's own client only offers buttons where their message is, so the presses here are
forged the way a hostile client would send them."""

from __future__ import annotations

from dataclasses import replace

from e2e.conftest import Local, stored_steps
from localcord.autoplay import board_message, match_id
from localcord.client import COMPONENT, reply
from localcord.records import Channel, Message, User
from storage.matches import MatchStatus


async def forged_press(
    local: Local, user: User, where: Channel, board: Message, custom_id: str
) -> str:
    data = {"custom_id": custom_id, "component_type": 2}
    return reply(await local.people._send(COMPONENT, user, where, data, board))


async def test_forged_match_buttons_from_elsewhere_answer_not_found(local: Local) -> None:
    people = local.people
    alice, bob = people.join("alice"), people.join("bob")
    challenge = await people.slash(alice, local.channel, "crosshairs challenge", opponent=bob)
    assert challenge.original is not None
    await people.click(bob, challenge.original, "Accept")
    thread = await people.wait_thread(local.channel)
    board = board_message(people, thread)
    number = match_id(board)
    away = local.server.world.add_channel("elsewhere", local.server.world.add_guild("other"))

    for where in (away, local.channel):  # another server; this server but not the thread
        for action in ("play", "lines", "draw", "resign"):  # the board's buttons
            custom_id = f"xh:{action}:{number}"
            said = await forged_press(local, alice, where, board, custom_id)
            assert said == f"⚠️ there is no match #{number} here", (where.name, custom_id, said)

    await local.bot.stop()
    assert await stored_steps(local, number) == ([], MatchStatus.ACTIVE)


async def test_a_forged_cockpit_menu_from_elsewhere_answers_not_found(local: Local) -> None:
    """A cockpit menu's custom id carries the match too: from another server it tells
    nobody who is to fly, and plays nothing."""
    people = local.people
    alice, bob = people.join("alice"), people.join("bob")
    challenge = await people.slash(alice, local.channel, "crosshairs challenge", opponent=bob)
    assert challenge.original is not None
    await people.click(bob, challenge.original, "Accept")
    thread = await people.wait_thread(local.channel)
    board = board_message(people, thread)
    number = match_id(board)
    away = local.server.world.add_channel("elsewhere", local.server.world.add_guild("other"))

    custom_id = f"xh:cm:{number}:0:0"
    menu = {"type": 3, "custom_id": custom_id, "options": [{"label": "1", "value": "1"}]}
    # the forged client shows the menu on a message of its own making
    forged = replace(board, components=[{"type": 1, "components": [menu]}])
    for where in (away, local.channel):
        for user in (alice, bob):
            data = {"custom_id": custom_id, "component_type": 3, "values": ["1"]}
            said = reply(await local.people._send(COMPONENT, user, where, data, forged))
            assert said == f"⚠️ there is no match #{number} here", (where.name, user.name, said)

    await local.bot.stop()
    assert await stored_steps(local, number) == ([], MatchStatus.ACTIVE)
