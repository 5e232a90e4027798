"""The tests' zygote (localcord/zygote.py): a forked bot runs with exactly the
environment it is given, writes to its own log, and its end is told as an exec'd
process's is (its exit status; a signal as its negative)."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from localcord import zygote as zygotes
from localcord.zygote import Zygote


@pytest.fixture
def zygote() -> Iterator[Zygote]:
    started = Zygote()
    try:
        yield started
    finally:
        started.close()


async def test_a_forked_bot_gets_only_its_own_environment_and_log(
    zygote: Zygote, tmp_path: Path
) -> None:
    # the test process's token must not reach the child: without one the bot says so
    os.environ["DISCORD_TOKEN"] = "the-test-process-token"
    try:
        log = tmp_path / "bot.log"
        env = {"PATH": os.environ.get("PATH", "")}
        forked = zygote.spawn(env, tmp_path, log)
        assert await asyncio.wait_for(forked.wait(), 60) == 2
    finally:
        del os.environ["DISCORD_TOKEN"]
    assert forked.returncode == 2
    assert "No DISCORD_TOKEN is set" in log.read_text()


async def test_a_killed_bot_is_told_as_killed(zygote: Zygote, tmp_path: Path) -> None:
    # a token and a Discord that is not there: the bot tries to connect until killed
    env = {
        "PATH": os.environ.get("PATH", ""),
        "DISCORD_TOKEN": "x",
        "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10",
        "DATABASE_PATH": str(tmp_path / "bot.db"),
        "WORKERS": "0",
    }
    forked = zygote.spawn(env, tmp_path, tmp_path / "bot.log")
    forked.kill()
    assert await asyncio.wait_for(forked.wait(), 60) == -signal.SIGKILL


def test_a_zygote_that_ended_is_started_again() -> None:
    first = zygotes.shared()
    try:
        os.kill(first.pid, signal.SIGKILL)
        while first.alive():
            time.sleep(0.01)
        second = zygotes.shared()
        assert second is not first and second.alive()
    finally:
        zygotes.close_shared()
