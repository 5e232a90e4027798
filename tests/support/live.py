"""The live board under test: its server on a free port, speaking to a Discord that
knows a few people, their tokens and Activity instances (what Discord's OAuth2 and
activity-instances endpoints say; localcord's own are tested end to end), and pages
reduced to their socket."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from bot.discord_app import CrosshairsBot
from bot.live.discord_api import Instance, Person
from bot.live.server import LiveServer
from bot.services.live import LiveMatch
from bot.services.refusal import Refusal
from support.flying import match_in
from support.tables import Table

WAIT = 60.0
MOST_TAPS = 600  # a game of random taps ends long before


@dataclass
class Discord:
    """Discord's side of the sign-in: codes, tokens, people, instances."""

    people: dict[str, Person] = field(default_factory=dict)  # by access token
    instances: dict[str, Instance] = field(default_factory=dict)

    def token_for(self, user_id: int, name: str, locale: str | None = None) -> str:
        token = f"token-{user_id}"
        self.people[token] = Person(user_id, name, locale)
        return token

    async def exchange(self, code: str) -> str:
        if code.removeprefix("code-") not in self.people:
            raise Refusal("Discord did not accept this sign-in; open the live board again")
        return code.removeprefix("code-")

    async def person(self, access_token: str) -> Person:
        found = self.people.get(access_token)
        if found is None:
            raise Refusal("Discord does not know this sign-in; open the live board again")
        return found

    async def instance(self, instance_id: str) -> Instance:
        found = self.instances.get(instance_id)
        if found is None:
            raise Refusal("Discord knows no such live board; open it again from the game")
        return found

    async def close(self) -> None:
        return None


class Page:
    """One open live board, by its socket: what it sent and was sent."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.received: list[dict[str, Any]] = []

    async def send(self, message: object) -> None:
        await self.ws.send_str(message if isinstance(message, str) else json.dumps(message))

    async def next(self, kind: str | None = None) -> dict[str, Any]:
        """The next message (of ``kind``), waiting for it."""
        while True:
            found: dict[str, Any] = await self.ws.receive_json(timeout=WAIT)
            self.received.append(found)
            if kind is None or found["type"] == kind:
                return found

    async def state_at(self, ply: int) -> dict[str, Any]:
        while True:
            found = await self.next("state")
            if found["ply"] == ply:
                return found

    async def tap(self, state: dict[str, Any], tokens: list[str]) -> None:
        await self.send({"type": "play", "ply": state["ply"], "tokens": tokens})


async def duel_on_the_live_board(
    env: Any, bot: CrosshairsBot, instance: str = "duel"
) -> tuple[Table, Any, LiveMatch, Discord]:
    """Alice's duel against bob (no clouds) in its thread, the match, and a Discord whose
    Activity ``instance`` runs in that thread with alice, bob and eve in it."""
    table = Table(env)
    thread = await table.start(clouds="none")
    live = await match_in(bot, thread)
    discord = Discord()
    people = frozenset({table.alice.id, table.bob.id, table.eve.id})
    discord.instances[instance] = Instance(instance, table.guild.id, thread.id, people)
    return table, thread, live, discord


@asynccontextmanager
async def live_server(bot: CrosshairsBot, discord: Discord) -> AsyncIterator[str]:
    """The bot's live board served on a free port; yields its address."""
    server = LiveServer(bot.live_board, discord, lambda: bot.application_id)
    await server.start("127.0.0.1", 0)
    bot.live_server = server
    try:
        yield f"http://127.0.0.1:{server.port}/"
    finally:
        bot.live_server = None
        await server.close()


@asynccontextmanager
async def opened(
    address: str, token: str, instance: str, **extra: object
) -> AsyncIterator[tuple[Page, dict[str, Any]]]:
    """A page signed in (``extra``: what else its hello claims); yields it with the
    first answer, the welcome or the refusal."""
    async with (
        aiohttp.ClientSession() as http,
        http.ws_connect(address + "api/live") as ws,
    ):
        page = Page(ws)
        await page.send({"type": "hello", "access_token": token, "instance_id": instance, **extra})
        first = await page.next()
        yield page, first


async def until(condition: Any, what: str) -> None:
    """Wait for ``condition()`` (the bot acts on its own time)."""
    for _ in range(int(WAIT / 0.05)):
        if condition():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"waited in vain for {what}")


def a_choice(choices: dict[str, Any], rng: random.Random) -> list[str]:
    """What a person taps: a shot when there is one, else a placement or a plane's end
    pose (mostly one that does not crash), else a cloud, else ending the turn."""
    if choices["shots"]:
        return [rng.choice(choices["shots"])["token"]]
    poses = [p for plane in choices["planes"] for p in plane["poses"]] + choices["places"]
    safe = [p for p in poses if not p["tokens"][-1].endswith("X")]
    if poses:
        return list(rng.choice(safe if safe and rng.random() < 0.9 else poses)["tokens"])
    if choices["clouds"]:
        return [rng.choice(choices["clouds"])["token"]]
    assert choices["end"] is not None, choices
    return [choices["end"]["token"]]


async def shown(page: Page, ply: int) -> dict[str, Any]:
    """The page's state once it shows ``ply`` or later (or the end)."""
    while True:
        state = await page.next("state")
        if state["ply"] >= ply or state["over"]:
            return state


States = dict[int, dict[str, Any]]


async def tapped_to_the_end(
    address: str,
    discord: Discord,
    people: Sequence[Any],
    instance: str,
    live: LiveMatch,
    rng: random.Random,
    before_each: Callable[[int, States], None] = lambda mover, states: None,
) -> tuple[list[dict[str, Any]], States]:
    """Each of ``people`` opens the live board of ``instance``; the one to move taps
    :func:`a_choice` (after ``before_each`` looked at every page) until the game ends,
    every page shown every action. Returns the welcomes and each page's last state."""
    async with AsyncExitStack() as stack:
        pages: dict[int, Page] = {}
        welcomes: list[dict[str, Any]] = []
        states: States = {}
        for person in people:
            token = discord.token_for(person.id, person.name)
            page, welcome = await stack.enter_async_context(opened(address, token, instance))
            pages[person.id] = page
            welcomes.append(welcome)
            states[person.id] = await shown(page, 0)
        for _ in range(MOST_TAPS):
            if live.over:
                break
            mover = live.user_to_move()
            assert mover is not None
            before_each(mover, states)
            state = states[mover]
            await pages[mover].tap(state, a_choice(state["choices"], rng))
            for who, page in pages.items():  # every page shows the action
                states[who] = await shown(page, state["ply"] + 1)
        assert live.over, "the game did not end"
        return welcomes, states


async def thread_caught_up(bot: CrosshairsBot, live: LiveMatch) -> None:
    """Until the thread's board shows ``live`` as it is: it is drawn after the pages are
    told (each tap's, as a press's)."""
    for _ in range(int(WAIT / 0.05)):
        if await bot.games.boards.shown(live.id) == live.ply:
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the thread's board never caught up")
