"""The live board served by the real bot process (``python -m bot`` with ``LIVE_PORT`` and
the client secret the local Discord accepts), hosted by localcord's playground page
(its ``ACTIVITY_URL`` the bot's live port) as Discord hosts an Activity: a whole duel
tapped through Discord's real SDK in headless Chromium (:mod:`e2e.live_frames`).

The local Discord runs on a loop of its own thread: the browser is driven
synchronously from the test's thread, and a loop it blocked would leave the bot's
gateway heartbeats unanswered. (discord.py's "websocket … behind" warning is no measure
of a loop held up: see tests/e2e/test_e2e_scale.py, which measures heartbeats on
arrival.)"""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any

import pytest

from e2e.browser import needs_chromium, shots_dir
from e2e.conftest import TEST_BOARD_PIXELS
from e2e.live_frames import a_duel_by_tapping
from localcord.activities import CLIENT_SECRET
from localcord.botproc import BotProcess
from localcord.playground import Playground
from localcord.server import LocalDiscord

pytestmark = [needs_chromium, pytest.mark.timeout(600)]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def hosted(tmp_path: Path) -> Iterator[str]:
    """The playground's page on a local Discord, the bot a process of its own serving
    the live board: the page's address."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    port = free_port()
    server = LocalDiscord()
    playground = Playground(server, "", f"http://127.0.0.1:{port}")
    env = {
        "LIVE_PORT": str(port),
        "DISCORD_CLIENT_SECRET": CLIENT_SECRET,
        "BOARD_PIXELS": str(TEST_BOARD_PIXELS),  # the thread's pictures are not looked at
    }
    bot = BotProcess(server, tmp_path, env)

    def run(work: Coroutine[Any, Any, None]) -> None:
        asyncio.run_coroutine_threadsafe(work, loop).result(120)

    async def start() -> None:
        await server.start()
        await playground.host.start()
        await bot.start()
        await asyncio.wait_for(server.world.commands_synced.wait(), 60)

    async def stop() -> None:
        await bot.stop()
        await playground.host.stop()
        await server.stop()

    try:
        run(start())
        yield server.base_url + "/"
    finally:
        run(stop())
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        print(f"----- the bot's log -----\n{bot.log()}")


def test_a_duel_tapped_on_the_live_board_of_the_bot_process(hosted: str, tmp_path: Path) -> None:
    a_duel_by_tapping(hosted, shots_dir(tmp_path))
