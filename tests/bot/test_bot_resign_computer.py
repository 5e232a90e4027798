"""A resignation while the computer is moving: the person resigns (through the
confirmation) while the computer's search holds the match, and the end is announced
once: one final board, one ratings line, one end published on the events bus."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from simcord.builders import UserHandle
from support.flying import match_in
from support.replies import answer

from bot.discord_app import CrosshairsBot
from bot.services.events import Event, MatchAborted, MatchFinished


class HeldSearch:
    """Holds the computer's next search (inside the computer's turn, under the match's
    lock) until the test releases it."""

    def __init__(self, env: Any, bot: CrosshairsBot) -> None:
        self.env = env
        self.real: Callable[..., Any] = bot.games.workers.run
        self.armed = False
        self.holding = False
        self.release = asyncio.Event()

    async def __call__(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        if self.armed and fn.__name__ == "computer_turn":
            self.armed = False
            self.holding = True
            await self.env.external_wait(self.release.wait(), reason="a search held by the test")
            self.holding = False
        return await self.real(fn, *args, **kwargs)


async def test_resigning_while_the_computer_moves_ends_the_game_once(
    simcord_env: Any, simcord_bot: CrosshairsBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("dogfights")
    alice = guild.add_member(simcord_env.create_user("alice"))
    assert simcord_bot.user is not None
    me = UserHandle(simcord_env, simcord_env.backend.get_user(simcord_bot.user.id))
    await alice.slash(channel, "crosshairs challenge", opponent=me, strength="easy", clouds="none")
    (thread,) = channel.threads
    live = await match_in(simcord_bot, thread)
    held = HeldSearch(simcord_env, simcord_bot)
    monkeypatch.setattr(simcord_bot.games.workers, "run", held)
    published: list[Event] = []
    publish = simcord_bot.games.events.publish

    async def counted(event: Event) -> bool:
        published.append(event)
        return await publish(event)

    monkeypatch.setattr(simcord_bot.games.events, "publish", counted)

    # every side flies a turn first: a resignation before that calls the game off
    while live.game.unflown():  # the computer answers each of alice's turns at once
        await alice.slash(thread, "crosshairs move", tokens=live.game.legal_steps()[0].token)
    held.armed = True
    while live.user_to_move() == alice.id:  # the rest of her turn hands it to the computer
        await alice.slash(thread, "crosshairs move", tokens=live.game.legal_steps()[0].token)
    assert held.holding and live.lock.locked()  # the computer's turn is under way

    asked = answer(await alice.slash(thread, "crosshairs resign"))
    assert "Really resign? This cannot be undone." in asked.content
    entered = asyncio.Event()
    resign = simcord_bot.games.resign

    async def spied(match_id: int, user_id: int) -> Any:
        entered.set()
        return await resign(match_id, user_id)

    monkeypatch.setattr(simcord_bot.games, "resign", spied)
    # the press waits for the match's lock, which the computer holds: it settles only once
    # the search is released, so it runs beside the test
    press = asyncio.create_task(alice.click(asked, label="Yes, resign"))
    await asyncio.wait_for(entered.wait(), 30)
    assert held.holding
    held.release.set()
    said = answer(await asyncio.wait_for(press, 60))
    assert said.content == "🏳️ You resigned."
    await simcord_env.settle()

    assert live.game.is_over and not live.aborted
    ends = [e for e in published if isinstance(e, MatchFinished | MatchAborted)]
    assert [e.match.id for e in ends] == [live.id]
    lines = [m.content for m in thread.history()]
    assert sum(line.startswith("📊") for line in lines) == 1, lines
    finals = [line for line in lines if line.startswith("**Crosshairs #") and "resign" in line]
    assert len(finals) == 1, lines
