"""Playing a match through its slash commands, as its players would.

Since a game that ends before every side has flown a turn is aborted (docs/ratings.md),
a test that wants a *result* first has every side fly its first turn
(:func:`fly_first_turns`), then resigns with :func:`resign`, which answers the
confirmation exactly as a player presses it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.discord_app import CrosshairsBot
from bot.services.live import LiveMatch
from support.replies import answer
from support.tables import Table

Member = Callable[[int | None], Any]


async def fly_first_turns(member: Member, thread: Any, live: LiveMatch) -> None:
    """Every side still to complete a turn flies until none is, each step the first
    legal one, sent by the player to move with ``/crosshairs move``."""
    for _ in range(200):  # far more than the first round of any mode takes
        if live.game.is_over or not live.game.unflown():
            return
        seat = live.game.to_move
        assert seat is not None
        step = live.game.legal_steps()[0]
        result = await member(live.seats[seat].user_id).slash(
            thread, "crosshairs move", tokens=step.token
        )
        assert answer(result).content.startswith("✅"), answer(result).content
    raise AssertionError("the first round of turns never ended")


async def resign(person: Any, thread: Any) -> Any:
    """``/crosshairs resign`` and then **Yes, resign**; returns the confirmation's answer."""
    asked = answer(await person.slash(thread, "crosshairs resign"))
    assert "Really resign?" in asked.content, asked.content
    return answer(await person.click(asked, label="Yes, resign"))


async def match_in(bot: CrosshairsBot, thread: Any) -> LiveMatch:
    """The match being played in ``thread``."""
    live = await bot.games.by_thread(thread.id)
    assert live is not None, "no match in this thread"
    return live


async def first_turn_flown(
    env: Any, bot: CrosshairsBot, rated: bool
) -> tuple[Table, Any, LiveMatch, Any, Any]:
    """A duel (no clouds) whose first player has flown their whole first turn, each step
    the first legal one, shown as any action is: its table, thread and match, who flew
    (the one with a turn to take back) and the other player."""
    table = Table(env)
    thread = await table.start(clouds="none", rated=rated)
    live = await match_in(bot, thread)
    flier = table.member(live.user_to_move())
    other = table.bob if flier is table.alice else table.alice
    turn = live.game.turn
    while live.game.turn == turn:
        update = await bot.games.play(live.id, flier.id, [live.game.legal_steps()[0].token])
        await bot.env.life.after(update)
    return table, thread, live, flier, other
