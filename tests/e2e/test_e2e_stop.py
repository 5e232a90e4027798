"""A deployment's stop (SIGTERM) closes the real bot process, right after it connects:
a fresh interpreter, as a deployment starts it (not forked from the tests' zygote)."""

from __future__ import annotations

from pathlib import Path

from localcord.botproc import BotProcess
from localcord.server import LocalDiscord


async def test_a_bot_stopped_as_it_connects_closes_instead_of_being_killed(tmp_path: Path) -> None:
    server = LocalDiscord()
    await server.start()
    bot = BotProcess(server, tmp_path, {"WORKERS": "1"}, fresh=True)
    try:
        await bot.start()
        await bot.stop()
    finally:
        await bot.stop()
        await server.stop()
    assert bot.process is not None
    # 0: it closed; -15 was SIGTERM's default end (nothing closed), -9 the kill after 10 s
    # of a stop that was not heard
    assert bot.process.returncode == 0, bot.log()
