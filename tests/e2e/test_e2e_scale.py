"""Past one interpreter: the real bot process with its worker pool, its shards and its
operator endpoints, driven through the local Discord."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import socket
import time
from pathlib import Path

import aiohttp

from e2e.conftest import TEST_BOARD_PIXELS, Local, stored_steps
from localcord.autoplay import FINAL_MARK, board_message, fly_match, match_id, match_thread
from localcord.botproc import BotProcess
from localcord.client import People, reply
from localcord.records import Channel, User
from localcord.server import LocalDiscord
from storage.db import Database
from storage.matches import MatchRepo, MatchStatus

HEARTBEAT_MS = 1000
# Each worker draws a board at the bot's size as it starts: 0.9 CPU-seconds at the default
# 1,024 px, 0.1 at this size, and no test here looks at the pictures
SMALL_BOARDS = {"BOARD_PIXELS": str(TEST_BOARD_PIXELS)}


async def test_the_computer_thinks_off_the_event_loop_and_the_connection_stays_whole(
    tmp_path: Path,
) -> None:
    server = LocalDiscord(heartbeat_interval_ms=HEARTBEAT_MS)
    await server.start()
    channel = server.world.add_channel("against-the-machine")
    bot = BotProcess(server, tmp_path, SMALL_BOARDS)
    people = People(server, timeout=60.0)
    try:
        await bot.start()
        await asyncio.wait_for(server.world.commands_synced.wait(), 30)
        # six matches keep both workers searching all along; ten seconds of it hear
        # ten heartbeats (more of the same proves no more)
        humans = [people.join(f"pilot{i}") for i in range(6)]
        loop_before, workers_before = bot.cpu()
        until = time.monotonic() + 10.0
        matches = await asyncio.gather(
            *(
                _against_hard(people, bot, channel, h, random.Random(i), until)
                for i, h in enumerate(humans)
            )
        )
        beats = server.gateway.heartbeats.get(0, [])
        loop_after, workers_after = bot.cpu()
    finally:
        await bot.stop()
        await server.stop()
        print(f"----- the bot's log -----\n{bot.log()}")
    for flown in matches:
        steps = [await _computer_steps(bot, match) for match in flown]
        assert sum(steps) >= 2, f"matches {flown}: the computer moved only {steps} times"
    # The searches ran in the worker pool, not on the loop that must send the heartbeat.
    # Counted in CPU time, which other work on a shared machine does not inflate: with
    # the searches on the loop it spent 6.1 s and the workers none (over 20 s); as it
    # is, about 2.5 s and 8.6 s.
    loop, workers = loop_after - loop_before, workers_after - workers_before
    assert workers > loop, f"CPU seconds: the event loop {loop:.2f}, the workers {workers:.2f}"
    # And the connection Discord sees stayed whole: one session, never resumed or
    # identified again, its heartbeats coming all along. The beats' gaps do not tell
    # where the searches ran (the CPU times above do): with the searches in threads of
    # the bot's own interpreter, the mistake those times catch, the gaps stayed under
    # 1.2 s, and a loaded CI machine once delayed one beat by 1.2 s with the searches
    # in the workers. The bound catches a loop that stops for seconds.
    assert server.gateway.identifies == 1 and server.gateway.resumes == 0
    gaps = [b - a for a, b in itertools.pairwise(beats)]
    assert len(gaps) >= 8
    assert max(gaps) < 5 * HEARTBEAT_MS / 1000, f"heartbeat gaps: {sorted(gaps)[-5:]}"


async def _against_hard(
    people: People,
    bot: BotProcess,
    channel: Channel,
    human: User,
    rng: random.Random,
    until: float,
) -> list[int]:
    """Fly against the hard computer until ``until``, a new match whenever one ends, so
    that it is thinking all along, and on until it has moved twice (on a busy machine
    ten seconds may not see a match begin): the matches flown."""
    world = people.world
    matches: list[int] = []

    async def flying() -> bool:
        if time.monotonic() < until:
            return True
        return sum([await _computer_steps(bot, m) for m in matches]) < 2

    while await flying():
        invite = await people.slash(
            human,
            channel,
            "crosshairs challenge",
            opponent=world.bot,
            strength="hard",
            clouds="none",
        )
        assert invite.original is not None, reply(invite)
        thread = await _new_thread(people, f"{human.name} vs ", matches)
        matches.append(int(thread.name.rpartition("#")[2]))
        while await flying():
            changed = world.changed(thread.id)  # taken first: no move of the computer missed
            offered = await people.autocomplete(
                human, thread, "crosshairs move", "tokens", tokens=""
            )
            if offered:
                shots = [t for t in offered if t.startswith("*")]
                token = rng.choice(shots or [t for t in offered if not t.endswith("X")] or offered)
                await people.slash(human, thread, "crosshairs move", tokens=token)
            elif any(FINAL_MARK in m.content for m in world.channel_log[thread.id]):
                break
            else:  # the computer is thinking: ask again once its move shows in the thread
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(changed.wait(), 2.0)
    return matches


async def _new_thread(people: People, prefix: str, known: list[int]) -> Channel:
    """A match against the computer starts at once, in a thread named for its players
    and numbered for the match: the one not among ``known`` matches."""
    async with asyncio.timeout(people.timeout):
        while True:
            for channel in list(people.world.channels.values()):
                number = channel.name.rpartition("#")[2]
                if channel.name.startswith(prefix) and int(number or 0) not in known:
                    return channel
            await asyncio.sleep(0.1)


async def _computer_steps(bot: BotProcess, match: int) -> int:
    async with await Database.open(bot.database) as db:
        return sum(1 for s in await MatchRepo(db).steps(match) if s.actor_id is None)


async def test_one_process_with_two_shards_plays_matches_in_every_guild_to_the_end(
    tmp_path: Path,
) -> None:
    server = LocalDiscord(shard_count=2)
    await server.start()
    world = server.world
    guilds = [world.guild_id] + [world.add_guild(f"squadron {i}") for i in range(3)]
    assert {server.gateway.shard_of(g) for g in guilds} == {0, 1}
    channels = [world.add_channel("dogfights", g) for g in guilds]
    bot = BotProcess(server, tmp_path, SMALL_BOARDS)
    people = People(server, timeout=60.0)
    try:
        await bot.start()
        await asyncio.wait_for(world.commands_synced.wait(), 30)
        finished = await asyncio.gather(*(_duel(people, channels[i % 4], i) for i in range(8)))
        routed = {
            shard: {int(d["guild_id"]) for _, e, d in s.sent if e == "INTERACTION_CREATE"}
            for shard, s in server.gateway.current.items()
        }
    finally:
        await bot.stop()
        await server.stop()
        print(f"----- the bot's log -----\n{bot.log()}")
    # every guild's interactions reached only its own shard, and both shards served
    for shard, seen in routed.items():
        assert seen and all(server.gateway.shard_of(g) == shard for g in seen)
    local = Local(server, people, channels[0], bot)
    for match, tokens in finished:
        stored, status = await stored_steps(local, match)
        assert (stored, status) == (tokens, MatchStatus.FINISHED)


async def _duel(people: People, channel: Channel, index: int) -> tuple[int, list[str]]:
    first, second = people.join(f"a{index}"), people.join(f"b{index}")
    invite = await people.slash(
        first, channel, "crosshairs challenge", opponent=second, planes=3, clouds="none"
    )
    assert invite.original is not None, reply(invite)
    accepted = await people.click(second, invite.original, "Accept")
    assert "The match is on" in invite.original.content, reply(accepted)
    thread = match_thread(people.world, invite.original)
    flight = await fly_match(people, thread, [first, second], random.Random(index))
    assert flight.final is not None
    return match_id(board_message(people, thread)), flight.tokens


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


async def test_metrics_and_healthz_over_http_and_json_log_lines(tmp_path: Path) -> None:
    server = LocalDiscord()
    await server.start()
    channel = server.world.add_channel("dogfights")
    port = _free_port()
    bot = BotProcess(
        server, tmp_path, SMALL_BOARDS | {"METRICS_PORT": str(port), "LOG_FORMAT": "json"}
    )
    people = People(server)
    base = f"http://127.0.0.1:{port}"
    try:
        await bot.start()
        await asyncio.wait_for(server.world.commands_synced.wait(), 30)
        async with aiohttp.ClientSession() as http:
            health = await _healthy(http, f"{base}/healthz")
            alice, bob = people.join("alice"), people.join("bob")
            invite = await people.slash(alice, channel, "crosshairs challenge", opponent=bob)
            assert invite.original is not None
            await people.click(bob, invite.original, "Accept")
            thread = match_thread(server.world, invite.original)
            offered = await people.autocomplete(
                alice, thread, "crosshairs move", "tokens", tokens=""
            )
            await people.slash(alice, thread, "crosshairs move", tokens=offered[0])
            async with http.get(f"{base}/metrics") as r:
                assert r.status == 200
                assert r.headers["Content-Type"].startswith("text/plain")
                metrics = _samples(await r.text())
    finally:
        await bot.stop()
        await server.stop()
    assert health["status"] == "ok" and health["ready"] is True
    assert metrics['crosshairs_interactions_total{kind="application_command"}'] == 2
    assert metrics['crosshairs_interactions_total{kind="component"}'] == 1
    assert metrics['crosshairs_interactions_total{kind="autocomplete"}'] == 1
    assert metrics["crosshairs_interaction_answer_seconds_count"] == 4
    assert metrics['crosshairs_interaction_answer_seconds_bucket{le="3.0"}'] == 4
    assert metrics["crosshairs_live_matches"] == 1
    assert metrics["crosshairs_storage_seconds_count"] >= 1
    assert metrics["crosshairs_event_loop_lag_seconds_count"] >= 1
    # every line the bot logs is one JSON object; multiprocessing's resource tracker, a
    # process of Python's own beside the worker pool, writes its warnings to the same
    # stderr unformatted (leaked semaphores, when a stop under load outlasts the pool)
    lines = [
        x
        for x in bot.log(tail=None).splitlines()  # whole: a tail begins mid-line
        if x.strip() and not x.startswith("=====") and "resource_tracker" not in x
    ]
    records = [json.loads(x) for x in lines]
    assert {"time", "level", "logger", "message"} <= set(records[0])
    assert any("metrics on" in r["message"] for r in records)


async def _healthy(http: aiohttp.ClientSession, url: str) -> dict[str, object]:
    """Poll ``/healthz`` as a readiness probe does, until the bot says it is ready."""
    async with asyncio.timeout(30):
        while True:
            async with http.get(url) as r:
                health: dict[str, object] = await r.json()
                if r.status == 200:
                    return health
                assert r.status == 503 and health["status"] == "unavailable"
            await asyncio.sleep(0.2)


def _samples(text: str) -> dict[str, float]:
    """Prometheus text format: ``name{labels} value`` per line, comments skipped."""
    found = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            found[name] = float(value)
    return found
