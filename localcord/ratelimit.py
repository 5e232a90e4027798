"""Discord's rate limits: per-route buckets and the global limit, with Discord's headers.

Every answer on a bucketed route carries ``X-RateLimit-Limit``, ``-Remaining``, ``-Reset``,
``-Reset-After`` and ``-Bucket``, so discord.py's own limiter engages as it does on Discord
(it waits once a bucket's ``Remaining`` is 0). A call over a limit is answered 429 with
``Retry-After``, ``X-RateLimit-Scope`` (``user`` for a route's bucket, ``global``) and the
JSON body ``{"message", "code", "retry_after", "global"}`` (the spec's
RatelimitedResponse, whose ``code`` is 0), and never reaches the route.

Buckets are keyed as Discord keys them: the route and its top-level resource (the channel,
the guild, or the webhook id and token). Discord publishes no per-route numbers and says
not to hard-code them; the ones below are the commonly observed ones, the 5 messages per
5 s per channel of the issue among them, and the documented global limit of 50 requests per
second, from which interaction callbacks and interaction webhooks are exempt (Discord's
rate-limit documentation: "Interaction endpoints are not bound to the bot's Global Rate
Limit").
"""

from __future__ import annotations

import hashlib
import math
import re
import time
from collections import Counter, deque
from dataclasses import dataclass, field

from aiohttp import web

from localcord.state import as_json

GLOBAL_LIMIT, GLOBAL_WINDOW = 50, 1.0


@dataclass(frozen=True)
class Rule:
    name: str
    method: str  # "*" for any
    pattern: re.Pattern[str]  # its ``major`` group is the top-level resource
    limit: int
    window: float  # seconds
    global_exempt: bool = False

    @property
    def bucket(self) -> str:
        """Discord's ``X-RateLimit-Bucket``: an opaque name of the limit, the same for
        every top-level resource."""
        return hashlib.sha1(self.name.encode()).hexdigest()[:16]


def _rule(
    name: str, method: str, pattern: str, limit: int, window: float, exempt: bool = False
) -> Rule:
    return Rule(name, method, re.compile(pattern), limit, window, exempt)


RULES = [
    _rule("send", "POST", r"^/channels/(?P<major>\d+)/messages$", 5, 5.0),
    _rule("edit", "PATCH", r"^/channels/(?P<major>\d+)/messages/\d+$", 5, 5.0),
    _rule("delete", "DELETE", r"^/channels/(?P<major>\d+)/messages/\d+$", 5, 1.0),
    _rule("thread", "POST", r"^/channels/(?P<major>\d+)(/messages/\d+)?/threads$", 10, 10.0),
    _rule("callback", "POST", r"^/interactions/(?P<major>\d+)/[^/]+/callback$", 5, 1.0, True),
    _rule("webhook", "*", r"^/webhooks/(?P<major>\d+/[^/]+)(/.*)?$", 5, 1.0, True),
    _rule("other", "*", r"^(?P<major>/[^/]+/[^/]+)", 50, 1.0),
]


@dataclass
class Bucket:
    rule: Rule
    remaining: int
    resets: float  # monotonic time the window ends

    def headers(self, now: float) -> dict[str, str]:
        after = max(0.0, self.resets - now)
        return {
            "X-RateLimit-Limit": str(self.rule.limit),
            "X-RateLimit-Remaining": str(self.remaining),
            "X-RateLimit-Reset": f"{time.time() + after:.3f}",
            "X-RateLimit-Reset-After": f"{after:.3f}",
            "X-RateLimit-Bucket": self.rule.bucket,
        }


@dataclass
class RateLimits:
    enabled: bool = True
    # every window times this: the end-to-end tests run Discord's buckets ten times
    # faster (LOCALCORD_RATE_SCALE=0.1), so the bot's limiter engages as on Discord
    # without each test waiting out real seconds; the benchmarks use Discord's own
    scale: float = 1.0
    buckets: dict[tuple[str, str], Bucket] = field(default_factory=dict)
    # global: when each call counted within the last second arrived (monotonic)
    counted: deque[float] = field(default_factory=deque)
    peak: int = 0  # global: the most calls counted in any one second, sliding
    refused: Counter[str] = field(default_factory=Counter)  # 429s by scope
    emptied: Counter[str] = field(default_factory=Counter)  # calls that emptied a bucket

    def take(self, method: str, path: str) -> tuple[web.Response | None, dict[str, str]]:
        """A 429 for a call over a limit (else None), and the headers its answer carries."""
        if not self.enabled:
            return None, {}
        now = time.monotonic()
        rule, major = _match(method, path)
        if not rule.global_exempt and (wait := self._global(now)) is not None:
            self.refused["global"] += 1
            return _too_many(wait, "global", {"X-RateLimit-Global": "true"}), {}
        bucket = self.buckets.get((rule.name, major))
        if bucket is None or now >= bucket.resets:
            bucket = Bucket(rule, rule.limit, now + rule.window * self.scale)
            self.buckets[rule.name, major] = bucket
        if bucket.remaining == 0:
            self.refused["user"] += 1
            return _too_many(bucket.resets - now, "user", bucket.headers(now)), {}
        bucket.remaining -= 1
        if bucket.remaining == 0:
            self.emptied[rule.name] += 1
        return None, bucket.headers(now)

    def _global(self, now: float) -> float | None:
        """Seconds to wait under the global limit, or None (the call is counted). The
        limit holds for every second, not for fixed one-second windows: a burst across
        the edge of two windows would be two windows' worth in one second. A refused call
        waits until the oldest counted call is a second old."""
        window = GLOBAL_WINDOW * self.scale
        counted = self.counted
        while counted and counted[0] <= now - window:
            counted.popleft()
        if len(counted) >= GLOBAL_LIMIT:
            return counted[0] + window - now
        counted.append(now)
        self.peak = max(self.peak, len(counted))
        return None


def _match(method: str, path: str) -> tuple[Rule, str]:
    for rule in RULES:
        if rule.method in ("*", method) and (found := rule.pattern.match(path)):
            return rule, found.group("major")
    return RULES[-1], path


def _too_many(wait: float, scope: str, headers: dict[str, str]) -> web.Response:
    wait = max(wait, 0.001)
    return as_json(
        {
            "message": "You are being rate limited.",
            "code": 0,
            "retry_after": wait,
            "global": scope == "global",
        },
        status=429,
        headers=headers
        | {
            "Retry-After": str(math.ceil(wait)),
            "X-RateLimit-Scope": scope,
            # discord.py trusts a 429 only from Discord's proxy (the Via header)
            "Via": "1.1 localcord",
        },
    )
