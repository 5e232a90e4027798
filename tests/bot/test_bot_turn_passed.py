"""A turn passing is one domain event (``TurnPassed``, keyed by match and ply), published
once from the one path after an action: the same choice pressed (or delivered) twice
passes the turn once, so the player now to move is told once; a second publication
of the same turn is dropped. It is stored with the step that passed the turn: a crash
before the DM was sent is made good by the restarted bot, once, unless the turn is
stale by then."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from support.flying import match_in, resign
from support.replies import answer, menu_with
from support.tables import Table, board_message

from bot.discord_app import CrosshairsBot
from bot.services import restart as carry_on
from bot.services.events import TurnPassed
from bot.ui import notify


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


class Crash(Exception):
    """The process dies here."""


async def dies_before_the_dm(bot: CrosshairsBot, notices: Any) -> None:
    raise Crash


async def restart(env: Any, new_bot: Callable[[], CrosshairsBot]) -> CrosshairsBot:
    fresh = new_bot()
    await env.restart_bot(fresh)
    await env.advance_time(1)
    return fresh


async def test_a_turn_a_crash_left_untold_is_told_once_after_the_restart(
    simcord_env: Any,
    simcord_bot: CrosshairsBot,
    new_bot: Callable[[], CrosshairsBot],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = Table(simcord_env)
    await table.bob.slash(table.channel, "crosshairs notify", when="turn")
    thread = await table.start(clouds="none")
    live = await match_in(simcord_bot, thread)
    with monkeypatch.context() as patched:
        patched.setattr(notify, "_send", dies_before_the_dm)
        await table.alice.slash(thread, "crosshairs move", tokens="+a3NE")
    assert live.user_to_move() == table.bob.id and dms(table.bob) == []

    fresh = await restart(simcord_env, new_bot)

    (dm,) = dms(table.bob)
    assert f"Your turn in match #{live.id}" in dm
    assert dms(table.alice) == []
    assert await carry_on.untold_turns(fresh.games) == []  # told, and marked so
    await restart(simcord_env, new_bot)  # a second restart finds nothing left to tell
    assert len(dms(table.bob)) == 1


async def test_a_turn_left_untold_that_is_stale_by_the_restart_is_dropped(
    simcord_env: Any,
    simcord_bot: CrosshairsBot,
    new_bot: Callable[[], CrosshairsBot],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = Table(simcord_env)
    await table.alice.slash(table.channel, "crosshairs notify", when="turn")
    await table.bob.slash(table.channel, "crosshairs notify", when="turn")
    playing = await table.start(clouds="none", planes=3)
    live = await match_in(simcord_bot, playing)
    with monkeypatch.context() as patched:
        patched.setattr(notify, "_send", dies_before_the_dm)
        while live.user_to_move() == table.alice.id:  # alice's turn passes, untold
            token = live.game.legal_steps()[0].token
            await table.alice.slash(playing, "crosshairs move", tokens=token)
    # bob flies one of his planes: still his turn, but he knows it is
    await table.bob.slash(playing, "crosshairs move", tokens=live.game.legal_steps()[0].token)
    assert live.user_to_move() == table.bob.id

    ended = Table(simcord_env)
    await ended.bob.slash(ended.channel, "crosshairs notify", when="turn")
    over = await ended.start(clouds="none")
    with monkeypatch.context() as patched:
        patched.setattr(notify, "_send", dies_before_the_dm)
        await ended.alice.slash(over, "crosshairs move", tokens="+a3NE")
    await resign(ended.bob, over)  # the match ends with bob's turn untold

    people = (table.alice, table.bob, ended.alice, ended.bob)
    before = [dms(person) for person in people]

    fresh = await restart(simcord_env, new_bot)

    assert [dms(person) for person in people] == before  # nobody is told a stale turn
    assert await carry_on.untold_turns(fresh.games) == []
