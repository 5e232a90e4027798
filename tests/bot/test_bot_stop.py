"""How the bot process stops: SIGINT (Ctrl-C) and SIGTERM (a deployment's stop) both
close it, even when the first request to stop is lost."""

from __future__ import annotations

import asyncio
import os
import signal
from types import TracebackType
from typing import Any, cast

import pytest

from bot.app import serve, until_stopped
from bot.discord_app import CrosshairsBot


class Deaf:
    """A bot whose start loses the first cancel, as discord.py's does on Python 3.11 when
    the cancel lands as its gateway handshake (awaited in ``wait_for``) finishes."""

    def __init__(self) -> None:
        self.cancels = 0
        self.closed = False

    async def __aenter__(self) -> Deaf:
        return self

    async def __aexit__(
        self, *exc: type[BaseException] | BaseException | TracebackType | None
    ) -> None:
        self.closed = True

    async def start(self, token: str) -> None:
        while True:
            try:
                await asyncio.sleep(3600)
            except asyncio.CancelledError:
                self.cancels += 1
                if self.cancels > 1:
                    raise


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
async def test_a_stop_whose_first_cancel_is_lost_still_closes_the_bot(stop: int) -> None:
    bot = Deaf()
    serving = asyncio.ensure_future(serve(cast(CrosshairsBot, bot), "token"))
    await asyncio.sleep(0.05)
    os.kill(os.getpid(), stop)
    await asyncio.wait_for(serving, 10)
    assert bot.cancels == 2 and bot.closed
    # the process's own handling is back (pytest's Ctrl-C, a default SIGTERM)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL


async def test_what_ends_the_bot_on_its_own_is_told() -> None:
    class Broken(Deaf):
        async def start(self, token: str) -> None:
            raise RuntimeError("the database is damaged")

    bot: Any = Broken()
    with pytest.raises(RuntimeError, match="damaged"):
        await serve(bot, "token")
    assert bot.closed


async def test_work_that_ends_by_itself_was_not_stopped() -> None:
    assert await until_stopped(asyncio.sleep(0)) is False
