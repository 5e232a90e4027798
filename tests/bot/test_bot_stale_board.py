"""A crash between storing a move and editing the board: the restarted bot redraws the
board that fell behind and pings the player to move."""

from __future__ import annotations

from typing import Any

import pytest
from support.replies import answer

from bot.app import create_bot
from bot.config import Config
from bot.discord_app import CrosshairsBot
from bot.services.clock import FakeClock
from bot.ui import commands


async def accepted_duel(env: Any) -> tuple[Any, Any, Any]:
    """A duel alice offered and bob accepted: its thread, alice, bob."""
    guild = env.create_guild()
    channel = guild.create_text_channel("dogfights")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    invite = answer(await alice.slash(channel, "crosshairs challenge", opponent=bob, clouds="none"))
    await bob.click(invite, label="Accept")
    (thread,) = channel.threads
    return thread, alice, bob


def board_of(thread: Any) -> Any:
    return [m for m in thread.history() if m.content.startswith("**Crosshairs #")][-1]


async def test_a_board_left_behind_by_a_crash_is_redrawn_and_the_player_pinged(
    simcord_env: Any,
    simcord_bot: CrosshairsBot,
    bot_config: Config,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    thread, alice, bob = await accepted_duel(simcord_env)
    assert "alice (P1) to fly" in board_of(thread).content

    async def dies_before_drawing(*args: Any, **kwargs: Any) -> None:
        """The process dies after the move is stored, before the board is edited."""

    with monkeypatch.context() as patched:
        patched.setattr(commands, "show_update", dies_before_drawing)
        await alice.slash(thread, "crosshairs move", tokens="+a3NE")
    stale = board_of(thread)
    assert "alice (P1) to fly" in stale.content  # the board fell behind

    fresh = create_bot(bot_config, clock)
    await simcord_env.restart_bot(fresh)
    await simcord_env.advance_time(1)

    board = board_of(thread)
    assert "bob (P2) to fly" in board.content and "restarted" in board.content
    assert board.components  # its buttons are back with it
    # posted afresh (an edit notifies nobody), pinging bob, and the stale one is gone
    assert board.id != stale.id and f"<@{bob.id}>, your turn" in board.content
    assert [m.id for m in thread.history() if m.content.startswith("**Crosshairs #")] == [board.id]


async def test_a_game_that_ended_in_a_crash_is_announced_and_rated_after_the_restart(
    simcord_env: Any,
    simcord_bot: CrosshairsBot,
    bot_config: Config,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    thread, alice, _bob = await accepted_duel(simcord_env)

    async def dies_before_drawing(*args: Any, **kwargs: Any) -> None:
        """The process dies after the resignation is stored, before anyone is told."""

    with monkeypatch.context() as patched:
        patched.setattr(commands, "show_update", dies_before_drawing)
        await alice.slash(thread, "crosshairs resign")
    assert not [m for m in thread.history() if "replay match:" in m.content]

    fresh = create_bot(bot_config, clock)
    await simcord_env.restart_bot(fresh)
    await simcord_env.advance_time(1)

    board = board_of(thread)
    assert "/crosshairs replay match:" in board.content and "restarted" in board.content
    assert "bob" in board.content.split("replay match:")[0]  # the winner is named
    ratings = [m for m in thread.history() if m.content.startswith("📊 Ratings")]
    assert len(ratings) == 1 and "alice" in ratings[0].content and "bob" in ratings[0].content

    # a second restart finds nothing left to tell
    again = create_bot(bot_config, clock)
    await simcord_env.restart_bot(again)
    await simcord_env.advance_time(1)
    assert [m.id for m in thread.history() if "replay match:" in m.content] == [board.id]
    assert len([m for m in thread.history() if m.content.startswith("📊 Ratings")]) == 1
