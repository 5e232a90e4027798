"""Fixtures for every suite: the simcord bot of :mod:`support.bots` and the uploads it
makes (:mod:`support.uploads`); the order the test processes run in
(:mod:`support.order`); bot processes forked from a zygote; and a check that no test
leaves a database open."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest

from localcord import zygote
from localcord.botproc import BotProcess

pytest_plugins = ["support.bots", "support.uploads", "support.order"]


def _connection_threads() -> set[threading.Thread]:
    # aiosqlite runs each connection in a thread of its own, which is not a daemon: one
    # left open keeps the test process from exiting after its last test, for minutes
    return {t for t in threading.enumerate() if "_connection_worker_thread" in t.name}


@pytest.fixture(scope="session", autouse=True)
def bots_forked() -> Iterator[None]:
    """The bot processes (and playgrounds) the tests start are forked from one that
    imported the bot once (localcord/zygote.py): a start then costs about 0.3
    CPU-seconds, not 1.3."""
    BotProcess.fork = True
    yield
    zygote.close_shared()


@pytest.fixture(autouse=True)
def no_database_left_open() -> Iterator[None]:
    before = _connection_threads()
    yield
    deadline = time.monotonic() + 10  # a connection closing ends its thread just after
    while (left := _connection_threads() - before) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not left, f"the test left {len(left)} SQLite connections open: close them"
