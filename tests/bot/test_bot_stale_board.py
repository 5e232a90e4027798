"""A crash between storing a move and editing the board: the restarted bot redraws the
board that fell behind and pings the player to move, or, when the move ended the game,
shows its end."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from support.flying import fly_first_turns, match_in, resign
from support.tables import Table, board_message

from bot.discord_app import CrosshairsBot
from bot.ui import thread as thread_module


async def restart(env: Any, new_bot: Callable[[], CrosshairsBot]) -> None:
    await env.restart_bot(new_bot())
    await env.advance_time(1)


async def test_a_board_left_behind_by_a_crash_is_redrawn_and_the_player_pinged(
    simcord_env: Any,
    simcord_bot: CrosshairsBot,
    new_bot: Callable[[], CrosshairsBot],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = Table(simcord_env)
    thread, alice, bob = await table.start(clouds="none"), table.alice, table.bob
    assert "alice (P1) to fly" in board_message(thread).content

    async def dies_before_drawing(*args: Any, **kwargs: Any) -> None:
        """The process dies after the move is stored, before the board is edited."""

    with monkeypatch.context() as patched:
        patched.setattr(simcord_bot.env.life, "after", dies_before_drawing)
        await alice.slash(thread, "crosshairs move", tokens="+a3NE")
    stale = board_message(thread)
    assert "alice (P1) to fly" in stale.content  # the board fell behind

    await restart(simcord_env, new_bot)

    board = board_message(thread)
    assert "bob (P2) to fly" in board.content and "restarted" in board.content
    assert board.components  # its buttons are back with it
    # posted afresh (an edit notifies nobody), pinging bob, and the stale one is gone
    assert board.id != stale.id and f"<@{bob.id}>, your turn" in board.content
    assert [m.id for m in thread.history() if m.content.startswith("**Crosshairs #")] == [board.id]


async def test_a_game_that_ended_in_a_crash_is_announced_and_rated_after_the_restart(
    simcord_env: Any,
    simcord_bot: CrosshairsBot,
    new_bot: Callable[[], CrosshairsBot],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = Table(simcord_env)
    thread, alice = await table.start(clouds="none"), table.alice

    async def dies_before_drawing(*args: Any, **kwargs: Any) -> None:
        """The process dies after the resignation is stored, before anyone is told."""

    await fly_first_turns(table.member, thread, await match_in(simcord_bot, thread))
    with monkeypatch.context() as patched:
        patched.setattr(simcord_bot.env.life, "after", dies_before_drawing)
        await resign(alice, thread)
    assert not [m for m in thread.history() if "replay match:" in m.content]

    await restart(simcord_env, new_bot)

    board = board_message(thread)
    assert "/crosshairs replay match:" in board.content and "restarted" in board.content
    assert "bob" in board.content.split("replay match:")[0]  # the winner is named
    ratings = [m for m in thread.history() if m.content.startswith("📊 Ratings")]
    assert len(ratings) == 1 and "alice" in ratings[0].content and "bob" in ratings[0].content

    # a second restart finds nothing left to tell
    await restart(simcord_env, new_bot)
    assert [m.id for m in thread.history() if "replay match:" in m.content] == [board.id]
    assert len([m for m in thread.history() if m.content.startswith("📊 Ratings")]) == 1


async def test_a_board_is_noted_at_the_step_it_was_drawn_at_so_a_later_one_is_redrawn(
    simcord_env: Any,
    simcord_bot: CrosshairsBot,
    new_bot: Callable[[], CrosshairsBot],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """bob's step is stored while alice's board is being drawn, and the process dies
    before showing it: alice's board must not be noted as showing bob's step too, or the
    restart would leave the board behind for good."""
    table = Table(simcord_env)
    thread, alice, bob = await table.start(clouds="none"), table.alice, table.bob
    live = await match_in(simcord_bot, thread)
    drawing = thread_module.board_file
    stored: list[str] = []

    async def bob_steps_meanwhile(*args: Any, **kwargs: Any) -> Any:
        drawn = await drawing(*args, **kwargs)
        if not stored and live.user_to_move() == bob.id:
            stored.append(live.game.legal_steps()[0].token)
            await simcord_bot.games.play(live.id, bob.id, stored)
        return drawn

    with monkeypatch.context() as patched:
        patched.setattr(thread_module, "board_file", bob_steps_meanwhile)
        await alice.slash(thread, "crosshairs move", tokens="+a3NE")
    assert stored and "restarted" not in board_message(thread).content

    await restart(simcord_env, new_bot)

    board = board_message(thread)
    assert "restarted" in board.content  # redrawn: it was behind bob's step
    assert [m.id for m in thread.history() if m.content.startswith("**Crosshairs #")] == [board.id]
