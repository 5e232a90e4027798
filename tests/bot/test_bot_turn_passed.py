"""A turn passing is one domain event (``TurnPassed``, keyed by match and ply), published
once from the one path after an action: the same choice pressed (or delivered) twice
passes the turn once, so the player now to move is told once; a second publication
of the same turn is dropped."""

from __future__ import annotations

from typing import Any

from support.flying import match_in
from support.replies import answer, menu_with
from support.tables import Table, board_message

from bot.discord_app import CrosshairsBot
from bot.services.events import TurnPassed


def dms(person: Any) -> list[str]:
    return [m.content for m in person.user.dm_channel.history()]


def heard(bot: CrosshairsBot) -> list[TurnPassed]:
    found: list[TurnPassed] = []

    async def listen(event: TurnPassed) -> None:
        found.append(event)

    bot.games.events.subscribe(TurnPassed, listen)
    return found


async def test_a_choice_pressed_twice_passes_the_turn_once(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    table = Table(simcord_env)
    await table.bob.slash(table.channel, "crosshairs notify", when="turn")
    thread = await table.start(clouds="none")
    live = await match_in(simcord_bot, thread)
    passed = heard(simcord_bot)
    # two cockpits for the same state (Play pressed twice), the same choice in each
    board = board_message(thread)
    first, second = [answer(await table.alice.click(board, label="Play")) for _ in range(2)]
    await table.alice.select(first.message, ["+a3NE"], custom_id=menu_with(first, "+a3NE"))
    again = await table.alice.select(
        second.message, ["+a3NE"], custom_id=menu_with(second, "+a3NE")
    )

    assert live.ply == 1 and live.user_to_move() == table.bob.id
    assert "not your turn" in answer(again).content
    assert [(e.match.id, e.ply, e.actor) for e in passed] == [(live.id, 1, table.alice.id)]
    (dm,) = dms(table.bob)
    assert f"Your turn in match #{live.id}" in dm
    assert dms(table.alice) == []


async def test_the_same_turn_published_again_is_dropped(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    table = Table(simcord_env)
    thread = await table.start(clouds="none")
    live = await match_in(simcord_bot, thread)
    passed = heard(simcord_bot)
    await table.alice.slash(thread, "crosshairs move", tokens="+a3NE")
    (event,) = passed

    assert not await simcord_bot.games.events.publish(event)  # a duplicate delivery
    assert passed == [event]
    while live.user_to_move() == table.bob.id:  # the next turn is a new one
        token = live.game.legal_steps()[0].token
        await table.bob.slash(thread, "crosshairs move", tokens=token)
    assert [e.ply for e in passed] == [1, live.ply]
