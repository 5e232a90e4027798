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
