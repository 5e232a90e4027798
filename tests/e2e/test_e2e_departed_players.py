"""A player leaves or is banned mid-game, against the real bot with a 10-second turn clock
checked every second (TURN_CLOCK_CHECK_SECONDS): nothing special happens to the match —
their clock runs out and they lose on time as anyone would."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from e2e.conftest import Local, running, stored_steps
from localcord import moderators
from localcord.autoplay import board_message, match_id, to_move
from localcord.records import User
from localcord.state import World
from storage.matches import MatchStatus


@pytest.fixture
async def quick_clocks(tmp_path: Path) -> AsyncIterator[Local]:
    async for started in running(tmp_path, env={"TURN_CLOCK_CHECK_SECONDS": "1"}):
        yield started


@pytest.mark.parametrize("departs", [moderators.remove_member, moderators.ban_member])
async def test_a_departed_player_runs_out_of_time(
    quick_clocks: Local, departs: Callable[[World, User], None]
) -> None:
    local = quick_clocks
    people, channel, world = local.people, local.channel, local.server.world
    alice, bob = people.join("alice"), people.join("bob")
    challenge = await people.slash(
        alice, channel, "crosshairs challenge", opponent=bob, planes=3, clock=10
    )
    assert challenge.original is not None
    await people.click(bob, challenge.original, "Accept")
    thread = await people.wait_thread(channel)
    match = match_id(board_message(people, thread))
    leaver, _ = await to_move(people, thread, [alice, bob])
    departs(world, leaver)
    said = await people.wait_for(
        thread,
        lambda m: f"{leaver.name} (P" in m.content and "runs out of time" in m.content,
        timeout=60,
    )
    assert said.allowed_mentions is not None and "everyone" not in str(said.allowed_mentions)
    _, status = await stored_steps(local, match)
    assert status is MatchStatus.FINISHED
