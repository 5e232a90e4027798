"""An aborted or finished match is over for every button and command: they say so, the
board loses its buttons, and nothing is stored."""

from __future__ import annotations

from typing import Any

from support.flying import fly_first_turns, resign
from support.replies import answer

from bot.discord_app import CrosshairsBot
from storage.matches import MatchRepo, MatchStatus


def board_of(thread: Any) -> Any:
    return [m for m in thread.history() if m.content.startswith("**Crosshairs #")][-1]


async def duel(env: Any) -> tuple[Any, Any, Any, Any]:
    guild = env.create_guild()
    channel = guild.create_text_channel("dogfights")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    invite = answer(await alice.slash(channel, "crosshairs challenge", opponent=bob))
    await bob.click(invite, label="Accept")
    (thread,) = channel.threads
    return channel, thread, alice, bob


async def test_move_on_an_aborted_match_says_it_is_over_and_its_board_has_no_buttons(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    _, thread, alice, bob = await duel(simcord_env)
    assert board_of(thread).components  # live: Play, Lines of fire, …
    await bob.slash(thread, "crosshairs abort")
    assert board_of(thread).components == []
    assert "aborted" in board_of(thread).content

    moved = answer(await alice.slash(thread, "crosshairs move", tokens="+a3NE"))
    assert moved.content == "⚠️ this match was aborted: it is over"
    live = await simcord_bot.games.by_thread(thread.id)
    assert live is not None
    record = await MatchRepo(simcord_bot.db).get(live.id)
    assert record.status is MatchStatus.ABANDONED and record.ply == 0
    assert [str(getattr(e, "original", e)) for e in simcord_env.errors] == [
        "this match was aborted: it is over"
    ]


async def test_a_button_left_over_from_a_finished_match_says_it_is_over(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    _, thread, alice, bob = await duel(simcord_env)
    live = await simcord_bot.games.by_thread(thread.id)
    assert live is not None
    await fly_first_turns(lambda u: alice if u == alice.id else bob, thread, live)
    confirm = answer(await alice.click(board_of(thread), label="Resign"))
    await resign(bob, thread)  # the game ends meanwhile
    late = answer(await alice.click(confirm, label="Yes, resign"))
    assert late.content == "⚠️ this game is over"
    # the finished board's buttons, on one row (tests/bot/test_bot_rematch.py)
    (row,) = board_of(thread).components
    assert [b.label for b in row.children] == ["Rematch", "Record", "Analyse"]
