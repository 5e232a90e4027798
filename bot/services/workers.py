"""Where the bot's CPU work runs: a pool of worker processes, one per core.

The event loop's interpreter must stay free to answer Discord (heartbeats, the
three-second interaction deadline). Threads do not help with pure-Python work — they
hold the GIL — so drawing, encoding and the computer's search run in other processes
(:mod:`bot.services.jobs`), given plain data and giving plain data back.

``size`` 0 runs the same jobs in the loop's default thread pool instead: the simulated
Discord's test bots use it, where a process per bot would cost more than it saves.

A process has one pool: the bot installs it at start (:func:`install`) and the parts
that draw reach it through :func:`current`, as they would reach the event loop itself.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any, TypeVar

from bot.services import jobs

log = logging.getLogger(__name__)

T = TypeVar("T")


def default_size() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1)


class Workers:
    def __init__(self, size: int) -> None:
        self.size = max(0, size)
        self._pool: Executor | None = None

    async def start(self) -> None:
        """Start the processes (each loads the engine and renderer as it starts) and
        wait until they are up, before the first player waits on them."""
        if self.size == 0 or self._pool is not None:
            return
        # Not fork: the bot has threads by now (discord.py's heartbeat, the database's),
        # and a forked child inherits their locks in whatever state they were.
        context = multiprocessing.get_context("forkserver")
        self._pool = ProcessPoolExecutor(
            self.size, mp_context=context, initializer=jobs.start_worker
        )
        loop = asyncio.get_running_loop()
        await asyncio.gather(
            *(loop.run_in_executor(self._pool, jobs.ready) for _ in range(self.size))
        )
        log.info("worker pool: %d processes", self.size)

    async def run(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``fn(*args, **kwargs)`` in a worker; ``fn`` must be a module-level function
        and its arguments plain data."""
        loop = asyncio.get_running_loop()
        call = functools.partial(fn, *args, **kwargs)
        result: T = await loop.run_in_executor(self._pool, call)
        return result

    async def close(self) -> None:
        """Stop the processes; queued work (for a bot going away) is dropped, and a job
        already running is waited for off the loop."""
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, True, cancel_futures=True)


_installed: list[Workers] = [Workers(0)]


def install(workers: Workers) -> None:
    _installed[0] = workers


def current() -> Workers:
    """This process's pool (threads until the bot installs its own)."""
    return _installed[0]
