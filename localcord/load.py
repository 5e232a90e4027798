"""Many matches at once against the real bot: throughput and interaction latency.

Every match is a duel between two simulated players in one of a few channels; all are
challenged, accepted and flown to the end concurrently. The figures are the bot's:
moves acknowledged per second of wall time, and for every interaction (autocomplete,
command, press) the time from its creation to the bot's first callback, which Discord
requires within three seconds.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import time
from dataclasses import dataclass

from localcord.autoplay import fly_match, match_thread, message_calls
from localcord.client import People
from localcord.server import LocalDiscord
from localcord.state import INTERACTION_DEADLINE, Channel, User

CHANNELS = 10


@dataclass(frozen=True)
class LoadReport:
    matches: int
    finished: int
    moves: int
    seconds: float
    interactions: int
    p50: float
    p99: float
    worst: float
    over_deadline: int  # answered, but after three seconds
    refused_late: int  # the bot answered after Discord had given up
    failures: tuple[str, ...] = ()  # why the unfinished matches stopped
    messages: tuple[int, int, int] = (0, 0, 0)  # posted, edited, deleted in channels
    too_many: int = 0  # 429s the bot received (Discord's rate limits, not injected faults)
    emptied: int = 0  # calls that emptied a bucket: the bot's limiter then waits

    @property
    def moves_per_second(self) -> float:
        return self.moves / self.seconds if self.seconds else 0.0

    def lines(self) -> list[str]:
        return [
            f"{self.finished}/{self.matches} matches finished, {self.moves} moves "
            f"in {self.seconds:.1f} s: {self.moves_per_second:.1f} moves/s",
            f"{self.interactions} interactions; interaction → first response: "
            f"p50 {self.p50 * 1000:.0f} ms, p99 {self.p99 * 1000:.0f} ms, "
            f"max {self.worst * 1000:.0f} ms",
            f"over the {INTERACTION_DEADLINE:g} s deadline: {self.over_deadline}; "
            f"refused as late: {self.refused_late}",
            "messages per move (rate-limited calls): "
            + ", ".join(
                f"{n / max(1, self.moves):.2f} {what}"
                for n, what in zip(self.messages, ("posted", "edited", "deleted"), strict=True)
            )
            + f" ({sum(self.messages) / max(1, self.moves):.2f} in all)",
            f"rate limits: {self.too_many} 429s received; "
            f"{self.emptied / max(1, self.moves):.3f} calls per move emptied a bucket "
            f"({self.emptied} in all)",
            *(f"unfinished: {why}" for why in self.failures),
        ]


async def play_many(
    server: LocalDiscord, matches: int, seed: int = 1, guilds: list[int] | None = None
) -> LoadReport:
    """Challenge, accept and fly ``matches`` duels at once, in channels spread over
    ``guilds`` (default: the first guild); players fly by command."""
    people = People(server, timeout=120.0)
    world = server.world
    homes = guilds or [world.guild_id]
    channels: list[Channel] = [
        world.add_channel(f"load-{i}", homes[i % len(homes)]) for i in range(CHANNELS)
    ]
    pairs = [
        (channels[i % CHANNELS], people.join(f"p{i}a"), people.join(f"p{i}b"))
        for i in range(matches)
    ]

    async def one(index: int, channel: Channel, first: User, second: User) -> int:
        rng = random.Random(seed * 100003 + index)
        await asyncio.sleep(rng.random())  # people do not all press at the same instant
        challenge = await people.slash(
            first, channel, "crosshairs challenge", opponent=second, planes=3, clouds="none"
        )
        assert challenge.original is not None
        await people.click(second, challenge.original, "Accept")
        thread = match_thread(world, challenge.original)
        flight = await fly_match(people, thread, [first, second], rng)
        return len(flight.tokens)

    start = time.monotonic()
    results = await asyncio.gather(
        *(one(i, *pair) for i, pair in enumerate(pairs)), return_exceptions=True
    )
    seconds = time.monotonic() - start
    moves = [r for r in results if isinstance(r, int)]
    failures = [r for r in results if isinstance(r, BaseException)]
    if failures and not moves:
        raise failures[0]
    latencies = sorted(people.latencies)
    calls = message_calls(world.requests)
    return LoadReport(
        matches=matches,
        finished=len(moves),
        moves=sum(moves),
        seconds=seconds,
        interactions=len(latencies),
        p50=statistics.median(latencies),
        p99=latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))],
        worst=latencies[-1],
        over_deadline=sum(1 for x in latencies if x > INTERACTION_DEADLINE),
        refused_late=people.late,
        failures=tuple(f"{type(f).__name__}: {f}" for f in failures),
        messages=(calls["posts"], calls["edits"], calls["deletes"]),
        too_many=sum(server.limits.refused.values()),
        emptied=sum(server.limits.emptied.values()),
    )
