"""Two bot processes, two shards each half, one PostgreSQL: forty duels in eight guilds
flown to the end through the local Discord, one process SIGKILLed mid-game and
restarted, and turn clocks that run out while it is down (ten-second clocks checked every
second, TURN_CLOCK_CHECK_SECONDS, so the test waits seconds, not minutes, for them).

The server comes from the ``postgres`` fixture (tests/e2e/conftest.py).
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from e2e.conftest import TEST_BOARD_PIXELS
from localcord.autoplay import FINAL_MARK, GameOver, board_message, match_id, match_thread, to_move
from localcord.botproc import BotProcess
from localcord.client import LocalcordError, People, reply
from localcord.records import Channel, Interaction, User
from localcord.server import LocalDiscord
from rules import serialize
from storage.db import Database
from storage.matches import MatchRepo, MatchStatus

# a bound of its own: the flight alone may take FLIGHT_LIMIT
pytestmark = [pytest.mark.multiprocess, pytest.mark.timeout(900)]

GUILDS, DUELS_PER_GUILD = 8, 5
KILL_AT_STEP = 6
CLOCK = 10  # the shortest turn clock a challenge offers, in seconds
PRESSES = 5  # a press Discord says failed is made again, as a person would
FLIGHT_LIMIT = 420  # seconds for all forty duels; alone they take about a minute


@dataclass
class Flight:
    match: int = 0
    acknowledged: list[str] = field(default_factory=list)  # answered ✅ by the bot
    unanswered: int = 0  # sent while the owner was down or dying: may or may not count


async def test_two_processes_two_shards_on_postgresql_survive_a_kill_mid_game(
    tmp_path: Path, postgres: Any
) -> None:
    url = postgres.new_database()
    async with await Database.open(url):
        pass  # the schema: the bot refuses a database without one, as it should
    server = LocalDiscord(shard_count=2)
    await server.start()
    world = server.world
    guilds = [world.guild_id] + [world.add_guild(f"squadron {i}") for i in range(1, GUILDS)]
    assert {server.gateway.shard_of(g) for g in guilds} == {0, 1}
    channels = [world.add_channel("dogfights", g) for g in guilds]
    bots = [
        BotProcess(
            server,
            tmp_path,
            # boards at the tests' size: each worker draws one as it starts
            {"TURN_CLOCK_CHECK_SECONDS": "1", "BOARD_PIXELS": str(TEST_BOARD_PIXELS)},
            shard_ids=[shard],
            database_url=url,
            name=f"bot{shard}",
        )
        for shard in (0, 1)
    ]
    victim = bots[0]
    people = People(server, timeout=20.0)
    killed = asyncio.Event()
    clocked: list[Channel] = []

    async def kill_and_restart(step: int) -> None:
        if step == KILL_AT_STEP and not killed.is_set():
            killed.set()
            # Clocks started just before the kill run out while the process is down:
            # each must fire once, after the restart, from what was stored.
            clocked.extend([await _clocked_match(people, c, i) for i, c in enumerate(channels)])
            started = time.monotonic()
            victim.kill()
            await victim.wait_killed()
            await asyncio.sleep(max(0.0, started + CLOCK - time.monotonic()))
            await victim.start()

    try:
        for bot in bots:
            await bot.start()
        await asyncio.wait_for(world.commands_synced.wait(), 30)
        on_shard_0 = next(i for i, g in enumerate(guilds) if server.gateway.shard_of(g) == 0)
        # A bound on the whole flight: a bot that stops answering fails the test with
        # both logs printed instead of leaving every player retrying for hours.
        flights = await asyncio.wait_for(
            asyncio.gather(
                *(
                    _fly_through_a_crash(
                        people,
                        channels[i % GUILDS],
                        i,
                        kill_and_restart if i % GUILDS == on_shard_0 and i < GUILDS else None,
                    )
                    for i in range(GUILDS * DUELS_PER_GUILD)
                )
            ),
            FLIGHT_LIMIT,
        )
        clocked_ids = [match_id(board_message(people, thread)) for thread in clocked]
        assert len(clocked) == GUILDS
        for thread in clocked:  # ten seconds a turn, checked every second
            await people.wait_for(thread, lambda m: FINAL_MARK in m.content, timeout=60)
    finally:
        for bot in bots:
            await bot.stop()
        await server.stop()
        for bot in bots:
            print(f"----- {bot.log_path.name} -----\n{bot.log()}")
    assert killed.is_set() and victim.starts == 2

    async with await Database.open(url) as db:
        repo = MatchRepo(db)
        for flight in flights:
            record = await repo.get(flight.match)
            stored = [s.token for s in await repo.steps(flight.match)]
            assert record.status == MatchStatus.FINISHED
            # no acknowledged move lost: they are all there, in the order played
            rest = iter(stored)
            assert all(token in rest for token in flight.acknowledged), (stored, flight)
            # none applied twice: beyond the acknowledged ones, only moves whose answer
            # the crash swallowed; and the stored log replays to the stored game
            assert len(stored) - len(flight.acknowledged) <= flight.unanswered
            game = serialize.from_dict(json.loads(record.snapshot))
            assert [p.token for p in game.history] == stored
        for thread, match in zip(clocked, clocked_ids, strict=True):
            # the clock fired once: one timeout stored, one result announced
            stored = [s.token for s in await repo.steps(match)]
            assert [t for t in stored if t.startswith("timeout:")] == ["timeout:1"], stored
            results = [m for m in world.channel_log[thread.id] if FINAL_MARK in m.content]
            assert len(results) == 1


async def _clocked_match(people: People, channel: Channel, index: int) -> Channel:
    """A duel with a ten-second clock that nobody plays: its clock must fire once."""
    first, second = people.join(f"slow{index}a"), people.join(f"slow{index}b")
    invite = await people.slash(
        first, channel, "crosshairs challenge", opponent=second, clock=CLOCK, clouds="none"
    )
    assert invite.original is not None, reply(invite)
    await people.click(second, invite.original, "Accept")
    return match_thread(people.world, invite.original)


async def _again(press: Callable[[], Awaitable[Interaction]]) -> Interaction:
    """``press``, made again while Discord says it failed (the owner down), a few times."""
    for _ in range(PRESSES - 1):
        try:
            return await press()
        except LocalcordError:
            await asyncio.sleep(1.0)
    return await press()


async def _fly_through_a_crash(
    people: People, channel: Channel, index: int, before_step: Any
) -> Flight:
    first, second = people.join(f"p{index}a"), people.join(f"p{index}b")
    rng = random.Random(index)
    await asyncio.sleep(rng.random())
    # The owner may be down (killed for another match) as this match begins: a press it
    # answers too late is refused by Discord and changed nothing, so it is made again,
    # as a person would once Discord says it failed.
    invite = await _again(
        lambda: people.slash(
            first, channel, "crosshairs challenge", opponent=second, planes=3, clouds="none"
        )
    )
    assert invite.original is not None, reply(invite)
    original = invite.original
    await _again(lambda: people.click(second, original, "Accept"))
    thread = match_thread(people.world, invite.original)
    flight = Flight(match_id(board_message(people, thread)))
    players: list[User] = [first, second]
    for _ in range(2000):
        if before_step is not None:
            await before_step(len(flight.acknowledged))
        try:
            player, offered = await to_move(people, thread, players)
        except GameOver:
            if any(FINAL_MARK in m.content for m in people.world.channel_log[thread.id]):
                return flight
            await asyncio.sleep(0.5)  # the owner is coming back
            continue
        except LocalcordError:
            continue  # no answer: the owner is down
        shots = [t for t in offered if t.startswith("*")]
        token = rng.choice(shots or [t for t in offered if not t.endswith("X")] or offered)
        try:
            done = await people.slash(player, thread, "crosshairs move", tokens=token)
        except LocalcordError:
            flight.unanswered += 1
            continue
        if reply(done).startswith("✅"):
            flight.acknowledged.append(token)
    raise AssertionError(f"match {flight.match} did not end: {flight}")
