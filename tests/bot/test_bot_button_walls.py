"""Persistent buttons reach a match only through the guild wall, and nothing judges a
live game's turns with the engine: presses a modified client forges (any custom id, on
any message it can see) are refused the way an unknown match is, and change nothing."""

from __future__ import annotations

from typing import Any

from support.flying import fly_first_turns, match_in, resign
from support.forging import elsewhere, forged_press
from support.replies import answer
from support.tables import Table, board_message

from bot.discord_app import CrosshairsBot
from bot.services.live import LiveMatch, MatchError
from bot.services.training import TrainingService


async def no_exercise(bot: CrosshairsBot, user_id: int) -> bool:
    try:
        await TrainingService(bot.db, bot.config.analysis_depth).current(user_id)
    except MatchError:
        return True
    return False


async def finished_duel(table: Table, bot: CrosshairsBot) -> tuple[Any, LiveMatch]:
    thread = await table.start(clouds="none", planes=3)
    live = await match_in(bot, thread)
    await fly_first_turns(table.member, thread, live)
    await resign(table.bob, thread)
    return thread, live


async def test_find_the_better_turn_on_a_live_game_is_refused_without_the_engine(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    table = Table(simcord_env)
    thread = await table.start(clouds="none", planes=3)
    live = await match_in(simcord_bot, thread)
    await fly_first_turns(table.member, thread, live)
    assert not live.over
    said = await forged_press(
        simcord_env, table.alice, board_message(thread), f"xh:tr:blunder:{live.id}.0"
    )
    assert said == f"⚠️ match #{live.id} is not finished: analyse it once the game is over"
    assert await no_exercise(simcord_bot, table.alice.id)


async def test_find_the_better_turn_from_another_server_is_not_found(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    table = Table(simcord_env)
    _thread, live = await finished_duel(table, simcord_bot)
    alice, mallory, own = await elsewhere(simcord_env, table.alice)
    for person in (mallory, alice):  # a stranger, and the game's own player elsewhere
        said = await forged_press(simcord_env, person, own, f"xh:tr:blunder:{live.id}.0")
        assert said == f"⚠️ there is no match #{live.id} here", said
        assert await no_exercise(simcord_bot, person.id)
    # from the match's own server but outside its thread, too
    outside = answer(
        await table.eve.slash(table.channel, "crosshairs challenge", opponent=table.bob)
    )
    said = await forged_press(simcord_env, table.alice, outside, f"xh:tr:blunder:{live.id}.0")
    assert said == f"⚠️ there is no match #{live.id} here"


async def rematch_offered(table: Table, bot: CrosshairsBot) -> tuple[LiveMatch, Any]:
    """A finished duel whose rematch alice asked for: the match and the offer."""
    thread, live = await finished_duel(table, bot)
    await table.alice.click(board_message(thread), label="Rematch")
    (offer,) = [m for m in thread.history() if m.content.startswith("🔁 **Rematch?**")]
    return live, offer


async def test_a_rematch_answer_from_another_server_is_not_found(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    table = Table(simcord_env)
    live, offer = await rematch_offered(table, simcord_bot)
    accept = next(i.custom_id for row in offer.components for i in row.children)
    assert accept.startswith("xh:ra:") and accept.endswith(":accept")

    bob, _mallory, own = await elsewhere(simcord_env, table.bob)
    said = await forged_press(simcord_env, bob, own, accept)
    assert said == f"⚠️ there is no match #{live.id} here", said
    assert len(table.channel.threads) == 1  # no rematch started

    await table.bob.click(offer, label="Accept")  # from the thread it works
    assert len(table.channel.threads) == 2
