"""The local Discord and the real bot process, for the end-to-end tests."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from e2e.browser import run_playground
from localcord import checks
from localcord.botproc import BotProcess
from localcord.client import People
from localcord.playground import Playground
from localcord.records import Channel
from localcord.server import LocalDiscord
from localcord.state import World
from storage.db import Database
from storage.matches import MatchRepo, MatchStatus


@pytest.fixture(autouse=True)
def fast_buckets(monkeypatch: pytest.MonkeyPatch) -> None:
    """Discord's rate limits with windows ten times shorter: the bot's limiter engages as
    on Discord, and no test waits out real five-second windows (bench/e2e.py does)."""
    monkeypatch.setenv("LOCALCORD_RATE_SCALE", "0.1")


@pytest.fixture(autouse=True)
def discord_spec(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every local Discord a test starts is strict: each request it refuses and each of
    its answers unlike Discord's spec fails the test. The count of calls held to the spec
    is recorded per test (``checked``) and summed at the end of the run."""
    with checks.recording() as made:
        yield
    request.node.user_properties.append(("checked", sum(c.checked for c in made)))
    if request.node.get_closest_marker("refusals") is None:
        failures = [f for c in made for f in c.failures]
        assert not failures, "unlike Discord:\n" + "\n".join(failures[:20])


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    reports = [
        r
        for found in terminalreporter.stats.values()
        for r in found
        if getattr(r, "when", None) == "teardown"
    ]
    total = sum(int(v) for r in reports for k, v in r.user_properties if k == "checked")
    if total:
        terminalreporter.write_line(
            f"localcord: {total} checks against Discord's spec (request bodies and answers)"
        )


@pytest.fixture(scope="module")
def postgres() -> Iterator[Any]:
    """A PostgreSQL server for the tests of several bot processes (the storage suite's
    ``pg_server``: Debian's PostgreSQL in a temporary directory); without it the test is
    skipped with the reason printed."""
    pg = pytest.importorskip(
        "pg_server", reason="the PostgreSQL test server (tests/storage/pg_server.py) is not here"
    )
    server, why = pg.start_server()
    if server is None:
        pytest.skip(why)
    try:
        yield server
    finally:
        server.stop()


TEST_BOARD_PIXELS = 384


@dataclass
class Local:
    server: LocalDiscord
    people: People
    channel: Channel
    bot: BotProcess


async def running(
    tmp_path: Path,
    *,
    language: str | None = None,
    env: dict[str, str] | None = None,
    before: Callable[[World], None] | None = None,
) -> AsyncIterator[Local]:
    """The local Discord with one channel and the real bot process connected to it
    (its environment plus ``env``), both stopped after. With ``language``, the channel
    is in a server of that preferred locale, made before the bot starts: Discord tells a
    bot a guild's locale when it connects. ``before`` sets the world up before the bot
    starts (the application's emojis, say)."""
    server = LocalDiscord()
    await server.start()
    world = server.world
    if before is not None:
        before(world)
    if language is None:
        channel = world.add_channel("dogfights")
    else:
        channel = world.add_channel("hangar", world.add_guild("Staffel", locale=language))
    # Boards smaller than a deployment's: drawing them is most of what the tests' bots
    # spend, and no test reads more of a picture than its colours and its words. No
    # worker processes: the same jobs run in the bot's threads (WORKERS=0). A pool's
    # processes cost a start 0.4 CPU-seconds (a fresh interpreter for its forkserver,
    # which loads the engine and the renderer, and a first board drawn), and a test's
    # few small boards do not need them. The pool has its own tests: its size
    # (test_bot_scale), searches kept off the loop (test_e2e_scale), a killed bot's pool
    # ending (test_e2e_faults), and the playground's and the multiprocess tests' bots.
    bot = BotProcess(
        server, tmp_path, {"BOARD_PIXELS": str(TEST_BOARD_PIXELS), "WORKERS": "0"} | (env or {})
    )
    try:
        await bot.start()
        await asyncio.wait_for(world.commands_synced.wait(), 30)
        yield Local(server, People(server), channel, bot)
    finally:
        await bot.stop()
        await server.stop()
        # pytest shows this only for a failing test: what the bot said meanwhile.
        print(f"----- the bot's log -----\n{bot.log()}")


@pytest.fixture
async def local(tmp_path: Path) -> AsyncIterator[Local]:
    async for started in running(tmp_path):
        yield started


@pytest.fixture
async def german(tmp_path: Path) -> AsyncIterator[Local]:
    """The same in a German server (its preferred locale ``de``)."""
    async for started in running(tmp_path, language="de"):
        yield started


@pytest.fixture
async def no_bot() -> AsyncIterator[tuple[LocalDiscord, Playground]]:
    """The playground's page and local Discord with no bot connected, whose presses give
    up after a second: what the page does by itself."""
    server = LocalDiscord()
    playground = Playground(server)
    playground.people.timeout = 1.0
    await server.start(0)
    try:
        yield server, playground
    finally:
        await server.stop()


@pytest.fixture
def playground(tmp_path: Path) -> Iterator[str]:
    """The playground as a newcomer starts it, for the browser tests: its address."""
    yield from run_playground(tmp_path)


async def stored_steps(local: Local, match: int) -> tuple[list[str], MatchStatus]:
    """The match's steps as the bot stored them, and its status."""
    async with await Database.open(local.bot.database) as db:
        repo = MatchRepo(db)
        return [s.token for s in await repo.steps(match)], (await repo.get(match)).status
