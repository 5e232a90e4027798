"""The bot's own pace under Discord's global rate limit.

Discord lets a bot make about 50 REST calls a second in all (interaction callbacks and
interaction webhooks excepted) and answers a 429 beyond that; discord.py learns each
route's bucket from its headers but knows nothing of the global limit until it is hit,
and gives a call up after five 429s. Under a burst (many matches starting at once) that
lost matches. So every call outside the interaction routes waits its turn here, spaced to
stay under the limit, and a burst is merely slower.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

PER_SECOND = 45.0  # under Discord's 50, for calls already in flight
EXEMPT = ("/interactions/", "/webhooks/")  # not bound to the global limit


class Pace:
    """Spaces calls ``1 / per_second`` apart, in the order they asked."""

    def __init__(
        self,
        per_second: float = PER_SECOND,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.interval = 1.0 / per_second
        self._clock = clock
        self._sleep = sleep
        self._next = 0.0

    async def wait(self) -> None:
        now = self._clock()
        start = max(now, self._next)
        self._next = start + self.interval
        if start > now:
            await self._sleep(start - now)


def paced(request: Callable[..., Awaitable[Any]], pace: Pace) -> Callable[..., Awaitable[Any]]:
    """discord.py's ``HTTPClient.request`` with every call outside the interaction
    routes waiting for ``pace`` first."""

    async def request_in_turn(route: Any, **kwargs: Any) -> Any:
        if not str(route.path).startswith(EXEMPT):
            await pace.wait()
        return await request(route, **kwargs)

    return request_in_turn
