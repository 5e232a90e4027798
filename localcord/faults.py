"""Faults the REST side can inject: rate limits (429 with a retry-after), server errors,
timeouts (a request held unanswered, as a Discord that hangs, then a 504) and latency
(every API call answered ``latency`` seconds late, as over a real network, so that two
presses a few tens of milliseconds apart really race inside the bot).

A fault matches a method and a path pattern and fires a set number of times, before
the route runs, so the bot's retry is the first request the route really sees: a
retried request can never be applied twice by the server itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from dataclasses import dataclass

from aiohttp import web

from localcord.records import as_json


@dataclass
class Fault:
    pattern: re.Pattern[str]
    method: str | None
    status: int
    times: int
    retry_after: float = 0.0
    hold: float = 0.0  # seconds the request waits unanswered first (a timeout)
    fired: int = 0

    def matches(self, method: str, path: str) -> bool:
        return (
            self.fired < self.times
            and (self.method is None or self.method == method)
            and self.pattern.search(path) is not None
        )

    def response(self) -> web.Response:
        self.fired += 1
        if self.status == 429:
            # discord.py trusts a 429 only from Discord's proxy (the Via header) with a
            # JSON body; otherwise it assumes a Cloudflare ban and gives up.
            return as_json(
                {
                    "message": "You are being rate limited.",
                    "code": 0,
                    "retry_after": self.retry_after,
                    "global": False,
                },
                status=429,
                headers={
                    "Retry-After": f"{self.retry_after:g}",
                    "Via": "1.1 localcord",
                    "X-RateLimit-Scope": "user",
                },
            )
        return as_json(
            {"message": "localcord: injected server error", "code": 0}, status=self.status
        )


class Faults:
    def __init__(self) -> None:
        self.active: list[Fault] = []
        self.latency = 0.0  # seconds added before every REST answer
        # set when Discord is back or the server stops: a request held meanwhile is
        # answered then, not left to outlast the server's stop (which waits on it)
        self._released: asyncio.Event | None = None

    def rate_limit(
        self, path: str, *, times: int = 1, retry_after: float = 0.5, method: str | None = None
    ) -> Fault:
        """Answer the next ``times`` matching requests with 429 and ``retry_after``."""
        return self._add(Fault(re.compile(path), method, 429, times, retry_after))

    def server_error(
        self, path: str, *, times: int = 1, status: int = 500, method: str | None = None
    ) -> Fault:
        return self._add(Fault(re.compile(path), method, status, times))

    def timeout(
        self, path: str, *, times: int = 1, seconds: float = 30.0, method: str | None = None
    ) -> Fault:
        """Hold the next ``times`` matching requests ``seconds`` unanswered (longer than a
        client waits), then answer 504 as Discord's proxy does; never applied."""
        return self._add(Fault(re.compile(path), method, 504, times, hold=seconds))

    def _add(self, fault: Fault) -> Fault:
        self.active.append(fault)
        return fault

    def clear(self) -> None:
        self.active.clear()
        self.release()

    def release(self) -> None:
        """Answer every request held now (with the fault's 504)."""
        if self._released is not None:
            self._released.set()
            self._released = None

    async def take(self, method: str, path: str) -> web.Response | None:
        for fault in self.active:
            if fault.matches(method, path):
                if fault.hold:
                    fault.fired += 1  # counted as it fires: a client gives up meanwhile
                    if self._released is None:
                        self._released = asyncio.Event()
                    released = self._released
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(released.wait(), fault.hold)
                    fault.fired -= 1
                return fault.response()
        return None
