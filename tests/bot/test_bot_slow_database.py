"""Every command and button answers before it writes to the database, so a slow
database never makes an answer late (Discord allows 3 s). Each write here waits until the
interaction under watch has its first answer, for up to WRITE_DELAY: a handler that wrote
before answering holds its own write up for the whole delay, and the test sees that.
Nothing is timed, so a busy machine cannot fail the test, nor a fast one pass it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

import discord
import pytest
from support.replies import answer

from bot.discord_app import CrosshairsBot
from storage.sql import Conn
from storage.sqlite import SqliteDatabase

WRITE_DELAY = 10.0  # seconds a write made before the first answer is held up at most


class FirstAnswers:
    """Which interactions got their first answer (deferral, message or update)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.ids: set[int] = set()
        self.answered = asyncio.Event()  # the interaction under watch has its first answer
        for name in ("defer", "send_message", "edit_message", "send_modal"):
            original = getattr(discord.InteractionResponse, name)
            monkeypatch.setattr(discord.InteractionResponse, name, self._noted(original))

    def _noted(self, original: Callable[..., Any]) -> Callable[..., Any]:
        answers = self

        async def noted(response: discord.InteractionResponse, *args: Any, **kwargs: Any) -> Any:
            answers.ids.add(response._parent.id)
            answers.answered.set()
            return await original(response, *args, **kwargs)

        return noted


@contextmanager
def slow_writes(
    monkeypatch: pytest.MonkeyPatch, answered: asyncio.Event, held: list[float]
) -> Iterator[None]:
    original = SqliteDatabase.transaction

    @asynccontextmanager
    async def slow(db: SqliteDatabase) -> AsyncIterator[Conn]:
        try:
            await asyncio.wait_for(answered.wait(), WRITE_DELAY)
        except TimeoutError:
            held.append(WRITE_DELAY)  # nothing answered while this write waited
        async with original(db) as conn:
            yield conn

    with monkeypatch.context() as patched:
        patched.setattr(SqliteDatabase, "transaction", slow)
        yield


class Watch:
    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.monkeypatch = monkeypatch
        self.answers = FirstAnswers(monkeypatch)
        self.late: list[str] = []

    async def slow(self, what: str, action: Any) -> Any:
        """Run one interaction with slow writes; note it if a write came before its
        first answer (or it got none)."""
        before = set(self.answers.ids)
        self.answers.answered.clear()
        held: list[float] = []
        with slow_writes(self.monkeypatch, self.answers.answered, held):
            result = await action
        if held or not self.answers.ids - before:
            self.late.append(what)
        content = getattr((result.followups or [result.response])[0], "content", "") or ""
        assert "went wrong" not in content, (what, content)
        return result


async def test_every_command_and_button_answers_before_it_writes(
    simcord_env: Any, simcord_bot: CrosshairsBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("dogfights")
    organisers = guild.create_role("Tournament Organiser")
    alice = guild.add_member(simcord_env.create_user("alice"), roles=[organisers])
    bob = guild.add_member(simcord_env.create_user("bob"))
    carol = guild.add_member(simcord_env.create_user("carol"))
    dave = guild.add_member(simcord_env.create_user("dave"))
    simcord_env.settle_timeout = 120.0  # the slow writes hold the bot up for a while
    watch = Watch(monkeypatch)

    # a challenge accepted, then aborted
    invite = (await alice.slash(channel, "crosshairs challenge", opponent=bob)).response.message
    await watch.slow("accept", bob.click(invite, label="Accept"))
    (duel,) = channel.threads
    await watch.slow("abort", alice.slash(duel, "crosshairs abort"))

    # a lobby started
    lobby = (await alice.slash(channel, "crosshairs lobby", mode="ffa3")).response.message
    await bob.click(lobby, label="Sit P2")
    await carol.click(lobby, label="Sit P3")
    await watch.slow("lobby start", alice.click(lobby, label="Start"))

    # a series accepted, its handicap changed, called off; a resignation confirmed
    offer = (await alice.slash(channel, "crosshairs-series start", opponent=bob)).response.message
    await watch.slow("series accept", bob.click(offer, label="Accept"))
    series_thread = channel.threads[-1]
    await watch.slow(
        "series handicap",
        alice.slash(series_thread, "crosshairs-series handicap", player=bob, tokens=1),
    )
    await watch.slow("series stop", alice.slash(series_thread, "crosshairs-series stop"))
    board = [m for m in series_thread.history() if m.content.startswith("**Crosshairs #")][-1]
    await watch.slow("draw", bob.click(board, label="Offer draw"))
    confirm = (await bob.click(board, label="Resign")).response.message
    await watch.slow("resign confirm", bob.click(confirm, label="Yes, resign"))

    # a tournament created, joined, left, checked in, paused
    created = await watch.slow(
        "tournament create",
        alice.slash(
            channel,
            "crosshairs-tournament create",
            name="Cup",
            format="swiss",
            rounds=1,
            check_in=True,
        ),
    )
    registration = answer(created)
    await watch.slow("join", bob.click(registration, label="Join"))
    await watch.slow("join", carol.click(registration, label="Join"))
    await watch.slow("check in", bob.click(registration, label="Check in"))
    await watch.slow("leave", carol.click(registration, label="Leave"))
    await dave.click(registration, label="Join")
    await dave.click(registration, label="Check in")
    await alice.click(registration, label="Start")
    await watch.slow("pause", alice.slash(channel, "crosshairs-tournament pause"))

    assert watch.late == []
