"""Option values Discord's choices would not offer, typed where any number can be
(the playground): each is refused with a friendly answer, and nothing is created."""

from __future__ import annotations

from e2e.conftest import Local
from localcord.client import reply


async def test_a_turn_clock_out_of_range_is_refused_everywhere(local: Local) -> None:
    people, channel = local.people, local.channel
    alice, bob = people.join("alice"), people.join("bob")
    for command, options in (
        ("crosshairs challenge", {"opponent": bob}),
        ("crosshairs lobby", {"mode": "ffa3"}),
        ("crosshairs-series start", {"opponent": bob}),
    ):
        for seconds in (-5, 0, 10**9):
            said = reply(await people.slash(alice, channel, command, clock=seconds, **options))
            assert "a turn clock is 10 seconds to 14 days" in said, (command, seconds, said)
    world = local.server.world
    assert [m for m in world.history(channel) if not m.ephemeral] == []  # nothing was posted
    assert world.threads_of(channel) == []
