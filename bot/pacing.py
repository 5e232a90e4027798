"""The bot's own pace under Discord's global rate limit.

Discord lets a bot make about 50 REST calls a second in all (interaction callbacks and
interaction webhooks excepted) and answers a 429 beyond that; discord.py learns each
route's bucket from its headers but knows nothing of the global limit until it is hit,
and gives a call up after five 429s. Under a burst (many matches starting at once) that
lost matches. So every call outside the interaction routes waits its turn here, spaced to
stay under the limit, and a burst is merely slower.

Spacing the sends alone is not enough: Discord counts a call when it arrives, anywhere
between its send and its answer, so calls held up on the way (a busy event loop, a slow
network, a loaded server) arrive together and fill one second with more than were sent
in it. So a call is sent only while fewer than the limit are in flight or were answered
within the last second: any second Discord counts then holds at most that many calls,
however they were delayed.

The limit is the token's, not the process's: processes sharing one token (shards on one
PostgreSQL database) split it between them (:class:`SharedBudget`), each keeping to its
share of :data:`PER_SECOND`.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

from storage.errors import StorageError
from storage.gateway import RestLeaseRepo

log = logging.getLogger(__name__)

PER_SECOND = 45.0  # under Discord's 50, for calls already in flight
WINDOW = 1.0  # seconds: Discord's global limit counts calls per second
EXEMPT = ("/interactions/", "/webhooks/")  # not bound to the global limit


class Pace:
    """Spaces calls ``1 / per_second`` apart, in the order they asked, and keeps at most
    ``per_second`` of them in flight or answered within the last second."""

    def __init__(
        self,
        per_second: float = PER_SECOND,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self._budget = per_second  # the token's, shared between its processes
        self._keep_to(per_second)
        self._clock = clock
        self._sleep = sleep
        self._next = 0.0
        self._turn = asyncio.Lock()  # first come, first sent
        self._open = 0  # sent, not yet answered
        self._answered: deque[float] = deque()  # when, oldest first
        self._freed = asyncio.Event()

    def share(self, processes: int) -> None:
        """Keep to one of ``processes`` equal shares of the token's budget."""
        self._keep_to(self._budget / max(1, processes))

    def _keep_to(self, per_second: float) -> None:
        self.interval = 1.0 / per_second
        self.limit = max(1, int(per_second))

    async def wait(self) -> None:
        now = self._clock()
        start = max(now, self._next)
        self._next = start + self.interval
        if start > now:
            await self._sleep(start - now)

    @asynccontextmanager
    async def call(self) -> AsyncIterator[None]:
        """Hold one call's place from its turn until its answer."""
        async with self._turn:
            await self.wait()
            await self._room()
            self._open += 1
        try:
            yield
        finally:
            self._open -= 1
            self._answered.append(self._clock())
            self._freed.set()

    async def _room(self) -> None:
        while True:
            now = self._clock()
            while self._answered and self._answered[0] <= now - WINDOW:
                self._answered.popleft()
            if self._open + len(self._answered) < self.limit:
                return
            if self._answered:
                await self._sleep(self._answered[0] + WINDOW - now)
            else:  # all in flight: the first answer starts its second
                self._freed.clear()
                await self._freed.wait()


def paced(request: Callable[..., Awaitable[Any]], pace: Pace) -> Callable[..., Awaitable[Any]]:
    """discord.py's ``HTTPClient.request`` with every call outside the interaction
    routes taking its turn from ``pace``."""

    async def request_in_turn(route: Any, **kwargs: Any) -> Any:
        if str(route.path).startswith(EXEMPT):
            return await request(route, **kwargs)
        async with pace.call():
            return await request(route, **kwargs)

    return request_in_turn


class SharedBudget:
    """This process's share of the token's REST budget: a lease in the database the
    processes share, renewed every ``renew`` seconds, and the pace set to one share per
    live lease. A process that died stops counting ``ttl`` seconds after its last
    renewal; a process that joins others waits one renewal before its first call, by
    which time they all keep to their smaller share."""

    RENEW = 1.0
    TTL = 3.0

    def __init__(self, pace: Pace, leases: RestLeaseRepo, clock: Callable[[], float] = time.time):
        self.pace = pace
        self._leases = leases
        self._clock = clock
        self.process = uuid.uuid4().hex
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        processes = await self._renew()
        if processes > 1:
            await asyncio.sleep(self.RENEW)
        self._task = asyncio.get_running_loop().create_task(self._keep())

    async def _renew(self) -> int:
        processes = await self._leases.renew(self.process, self._clock(), self.TTL)
        self.pace.share(processes)
        return processes

    async def _keep(self) -> None:
        while True:
            await asyncio.sleep(self.RENEW)
            try:
                await self._renew()
            except StorageError as exc:  # keep the share we had until the database is back
                log.warning("could not renew this process's share of the REST budget: %s", exc)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None
        try:
            await self._leases.release(self.process)
        except StorageError as exc:  # the lease runs out by itself
            log.warning("could not release this process's REST lease: %s", exc)
