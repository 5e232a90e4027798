"""Discord failing is a fault like a crash: a 10-second turn clock runs out while Discord
answers every post and edit of the bot with server errors (500, 502, 503), leaves them
hanging, or answers a storm of 429s. Once Discord recovers, the thread shows the finished
game — the final board with its result, and the ratings line — within a minute, without
a restart of the bot."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from e2e.conftest import Local, running, stored_steps
from localcord.autoplay import board_message, match_id, to_move
from localcord.faults import Faults
from storage.matches import MatchStatus

WRITES = r"/(channels|webhooks)/"  # every post, edit and read of a channel or webhook
FOREVER = 10**6
SHOWN_WITHIN = 60.0  # seconds after Discord recovers


def server_errors(faults: Faults) -> None:
    for _ in range(FOREVER // 1000):
        for status in (500, 502, 503):
            faults.server_error(WRITES, status=status)


def timeouts(faults: Faults) -> None:
    faults.timeout(WRITES, times=FOREVER, seconds=60)


def rate_limit_storm(faults: Faults) -> None:
    faults.rate_limit(WRITES, times=FOREVER, retry_after=0.3)


@pytest.fixture
async def quick_clocks(tmp_path: Path) -> AsyncIterator[Local]:
    async for started in running(tmp_path, env={"TURN_CLOCK_CHECK_SECONDS": "1"}):
        yield started


@pytest.mark.parametrize("outage", [server_errors, timeouts, rate_limit_storm])
async def test_a_game_that_ends_while_discord_is_down_is_shown_once_it_is_back(
    quick_clocks: Local, outage: Callable[[Faults], None]
) -> None:
    local = quick_clocks
    people, channel, faults = local.people, local.channel, local.server.faults
    alice, bob = people.join("alice"), people.join("bob")
    challenge = await people.slash(
        alice, channel, "crosshairs challenge", opponent=bob, planes=3, clock=10
    )
    assert challenge.original is not None
    await people.click(bob, challenge.original, "Accept")
    thread = await people.wait_thread(channel)
    match = match_id(board_message(people, thread))
    late, _ = await to_move(people, thread, [alice, bob])

    outage(faults)  # Discord goes down; the clock runs out meanwhile
    for _ in range(120):
        if (await stored_steps(local, match))[1] is MatchStatus.FINISHED:
            break
        await asyncio.sleep(0.5)
    else:
        pytest.fail("the turn clock never ran out")
    await asyncio.sleep(15)  # the bot's own showing of the end fails meanwhile
    faults.clear()  # Discord is back
    back = time.monotonic()

    final = await people.wait_for(
        thread,
        lambda m: f"{late.name} (P" in m.content and "runs out of time" in m.content,
        timeout=SHOWN_WITHIN,
    )
    left = SHOWN_WITHIN - (time.monotonic() - back)
    await people.wait_for(thread, lambda m: m.content.startswith("📊"), timeout=max(left, 0.1))
    boards = [m for m in local.server.world.history(thread) if m.attachments]
    assert boards[-1] is final, [b.content[:80] for b in boards]  # the newest board
    assert not [b for b in final.buttons() if b["custom_id"].startswith("xh:play:")]
