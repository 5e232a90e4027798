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

# the zygote draws a first board at a child's size before forking it: a small one here
SMALL = "256"


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
        env = {"PATH": os.environ.get("PATH", ""), "BOARD_PIXELS": SMALL}
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
        "BOARD_PIXELS": SMALL,
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


async def test_a_bot_configured_wrongly_says_so_and_the_zygote_goes_on(
    zygote: Zygote, tmp_path: Path
) -> None:
    # the zygote reads the board size to draw a first board before forking: a size that
    # is no number is the child's to report, as `python -m bot` would, not the zygote's end
    env = {"PATH": os.environ.get("PATH", ""), "DISCORD_TOKEN": "x", "BOARD_PIXELS": "big"}
    wrong = zygote.spawn(env, tmp_path, tmp_path / "wrong.log")
    assert await asyncio.wait_for(wrong.wait(), 60) != 0
    assert "BOARD_PIXELS" in (tmp_path / "wrong.log").read_text()
    assert zygote.alive()
    env = {"PATH": os.environ.get("PATH", ""), "BOARD_PIXELS": SMALL}
    untokened = zygote.spawn(env, tmp_path, tmp_path / "b.log")
    assert await asyncio.wait_for(untokened.wait(), 60) == 2


def test_the_first_board_of_each_size_is_drawn_once_before_the_forks() -> None:
    from render.static import _grid

    # a size no other test draws at: 301 and its preview 225
    env = {"BOARD_PIXELS": "301", "WORKERS": "0"}
    before = _grid.cache_info().misses
    zygotes._warm(env)
    assert _grid.cache_info().misses == before + 2
    zygotes._warm(env)  # a second bot at the same sizes inherits them: nothing is drawn
    assert _grid.cache_info().misses == before + 2


def test_a_bot_with_worker_processes_is_drawn_nothing_for() -> None:
    from render.static import _grid

    # its workers draw, each a fresh interpreter: what the zygote drew would not reach them
    before = _grid.cache_info().misses
    zygotes._warm({"BOARD_PIXELS": "302", "WORKERS": "1"})
    assert _grid.cache_info().misses == before and 302 not in zygotes._warmed


def test_the_playground_is_forked_with_its_own_arguments(zygote: Zygote, tmp_path: Path) -> None:
    log = tmp_path / "launcher.log"
    forked = zygote.spawn({"PATH": os.environ.get("PATH", "")}, tmp_path, log, "launcher", "-h")
    assert forked.wait_blocking(60) == 0
    assert "usage: scripts/run" in log.read_text()


def test_a_first_board_that_cannot_be_drawn_is_left_to_the_child(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(niceness: int, sizes: list[int]) -> None:
        raise ValueError("no board today")

    monkeypatch.setattr("bot.services.jobs.start_worker", broken)
    zygotes._warm({"BOARD_PIXELS": "336", "WORKERS": "0"})  # the zygote goes on: no raise
    assert "no board today" in capsys.readouterr().err
    assert 336 not in zygotes._warmed  # the next child at this size is drawn for again
