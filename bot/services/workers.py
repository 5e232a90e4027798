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
import select
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any, TypeVar

from bot.services import jobs

log = logging.getLogger(__name__)

T = TypeVar("T")


def default_size() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1)


class Workers:
    def __init__(self, size: int, niceness: int = 0, warm_sizes: tuple[int, ...] = ()) -> None:
        self.size = max(0, size)
        self.niceness = niceness
        self.warm_sizes = warm_sizes  # the board sizes each worker draws once as it starts
        self._pool: Executor | None = None
        self._warming: asyncio.Future[None] | None = None

    async def start(self) -> None:
        """Start the processes; they load the engine and the renderer while the bot
        connects to Discord (a job asked of them meanwhile waits in the pool's queue)."""
        if self.size == 0 or self._pool is not None:
            return
        # Not fork: the bot has threads by now (discord.py's heartbeat, the database's),
        # and a forked child inherits their locks in whatever state they were.
        context = multiprocessing.get_context("forkserver")
        # The forkserver imports the jobs' modules once; each worker is forked from it
        # with them loaded instead of importing them again.
        context.set_forkserver_preload([jobs.__name__])
        self._pool = ProcessPoolExecutor(
            self.size,
            mp_context=context,
            initializer=_start_worker,
            initargs=(os.getpid(), self.niceness, self.warm_sizes),
        )
        loop = asyncio.get_running_loop()
        # submitting starts the processes now; only their warm-up is waited for apart
        started = [loop.run_in_executor(self._pool, jobs.ready) for _ in range(self.size)]
        self._warming = asyncio.ensure_future(self._warm_up(started))

    async def _warm_up(self, started: list[asyncio.Future[int]]) -> None:
        try:
            await asyncio.gather(*started)
        except Exception:  # the jobs that need a worker report it to whoever waits on them
            log.exception("the worker pool did not start")
        else:
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
        if self._warming is not None:
            self._warming.cancel()
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, True, cancel_futures=True)


def _start_worker(owner: int, niceness: int, warm_sizes: tuple[int, ...]) -> None:
    _end_with(owner)
    jobs.start_worker(niceness, warm_sizes)


def _end_with(owner: int) -> None:
    """Exit this worker as soon as the bot process ``owner`` is gone, however it ended.

    A bot that is SIGKILLed cannot shut its pool down, and its workers would wait on the
    task queue for ever; they also hold the forkserver's "alive" pipe and the resource
    tracker's, so those two would outlive the bot with them.
    """
    try:
        handle = os.pidfd_open(owner)
    except ProcessLookupError:
        os._exit(0)
    except OSError:  # a kernel without pidfds (before Linux 5.3): ask once a second
        handle = None

    def watch() -> None:
        if handle is not None:
            select.select([handle], [], [])  # readable once the process has ended
        else:
            while _alive(owner):
                time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="end-with-the-bot", daemon=True).start()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True
