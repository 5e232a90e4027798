"""Many matches at once against the real bot: throughput and interaction latency.

Every match is a duel between two simulated players in one of a few channels; all are
challenged, accepted and flown to the end concurrently. The figures are the bot's:
moves acknowledged per second of wall time, and for every interaction (autocomplete,
command, press) the time from its creation to the bot's first callback, which Discord
requires within three seconds; and the bot's REST calls that Discord's global limit of
50 per second counts (every call but interaction callbacks and webhooks), per plane
action, with the plane actions per second that limit would allow the whole bot.
With ``pace``, each player waits about that many seconds (real time) before each move,
as a person does.
"""

from __future__ import annotations

import asyncio
import random
import re
import statistics
import time
from dataclasses import dataclass

from localcord.autoplay import fly_match, match_thread, message_calls
from localcord.client import People
from localcord.ratelimit import GLOBAL_LIMIT
from localcord.server import LocalDiscord
from localcord.state import INTERACTION_DEADLINE, Channel, User

CHANNELS = 10
# Interaction callbacks and webhooks (follow-ups, their edits) are exempt from the global limit.
EXEMPT = re.compile(r"/interactions/\d+/[^/]+/callback$|/webhooks/")


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
    actions: int = 0  # plane actions: moves but shots and holding fire
    limited: int = 0  # REST calls the global limit counts, while the matches were flown
    too_many: int = 0  # 429s the bot received (Discord's rate limits, not injected faults)
    emptied: int = 0  # calls that emptied a bucket: the bot's limiter then waits
    peak: int = 0  # the most rate-limited calls that arrived in any one second

    @property
    def moves_per_second(self) -> float:
        return self.moves / self.seconds if self.seconds else 0.0

    @property
    def calls_per_action(self) -> float:
        return self.limited / max(1, self.actions)

    @property
    def ceiling(self) -> float:
        """Plane actions per second the global limit allows at this cost per action."""
        return GLOBAL_LIMIT / self.calls_per_action if self.limited else float("inf")

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
            f"rate-limited calls per plane action: {self.calls_per_action:.3f} "
            f"({self.limited} calls, {self.actions} plane actions); ceiling "
            f"{GLOBAL_LIMIT} ÷ {self.calls_per_action:.3f} = {self.ceiling:,.0f} plane actions/s "
            "for the whole bot",
            f"rate limits: {self.too_many} 429s received; at most {self.peak} rate-limited "
            f"calls arrived in one second (limit {GLOBAL_LIMIT}); "
            f"{self.emptied / max(1, self.moves):.3f} calls per move emptied a bucket "
            f"({self.emptied} in all)",
            *(f"unfinished: {why}" for why in self.failures),
        ]


async def play_many(
    server: LocalDiscord,
    matches: int,
    seed: int = 1,
    guilds: list[int] | None = None,
    pace: float = 0.0,
) -> LoadReport:
    """Challenge, accept and fly ``matches`` duels at once, in channels spread over
    ``guilds`` (default: the first guild); players fly by command, each move after a
    pause of ``pace`` seconds on average (none by default)."""
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

    async def one(index: int, channel: Channel, first: User, second: User) -> list[str]:
        rng = random.Random(seed * 100003 + index)

        async def think(_: int) -> None:
            await asyncio.sleep(rng.uniform(pace / 2, pace * 1.5))

        await asyncio.sleep(rng.random())  # people do not all press at the same instant
        challenge = await people.slash(
            first, channel, "crosshairs challenge", opponent=second, planes=3, clouds="none"
        )
        assert challenge.original is not None
        await people.click(second, challenge.original, "Accept")
        thread = match_thread(world, challenge.original)
        flight = await fly_match(
            people, thread, [first, second], rng, before_step=think if pace else None
        )
        return flight.tokens

    first_request = len(world.requests)
    start = time.monotonic()
    results = await asyncio.gather(
        *(one(i, *pair) for i, pair in enumerate(pairs)), return_exceptions=True
    )
    seconds = time.monotonic() - start
    moves = [r for r in results if isinstance(r, list)]
    played = len(world.requests)
    failures = [r for r in results if isinstance(r, BaseException)]
    if failures and not moves:
        raise failures[0]
    latencies = sorted(people.latencies)
    calls = message_calls(world.requests)
    during = world.requests[first_request:played]
    return LoadReport(
        matches=matches,
        finished=len(moves),
        moves=sum(len(m) for m in moves),
        seconds=seconds,
        interactions=len(latencies),
        p50=statistics.median(latencies),
        p99=latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))],
        worst=latencies[-1],
        over_deadline=sum(1 for x in latencies if x > INTERACTION_DEADLINE),
        refused_late=people.late,
        failures=tuple(f"{type(f).__name__}: {f}" for f in failures),
        messages=(calls["posts"], calls["edits"], calls["deletes"]),
        actions=sum(1 for m in moves for token in m if token[0] not in "*-"),
        limited=sum(1 for r in during if not EXEMPT.search(r.path) and r.status != 429),
        too_many=sum(server.limits.refused.values()),
        emptied=sum(server.limits.emptied.values()),
        peak=server.limits.peak,
    )
