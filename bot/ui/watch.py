"""A cog that keeps watch: a round of work every so many seconds, from when the bot is
ready until the cog is unloaded (the turn clocks, the seeks' waits, the daily puzzle)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from discord.ext import commands, tasks

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot

log = logging.getLogger(__name__)


class Watch(commands.Cog):
    """Runs :meth:`round` every ``interval`` seconds once the bot is ready and, with
    ``after_recovery``, has carried on what a restart left (so a round never acts on a
    match the restart is still showing). A round that fails is logged, and the next
    comes all the same."""

    def __init__(self, bot: CrosshairsBot, interval: float, after_recovery: bool = True) -> None:
        self.bot = bot
        self.after_recovery = after_recovery
        self.watch = tasks.loop(seconds=interval)(self._round)
        self.watch.before_loop(self._ready)

    async def cog_load(self) -> None:
        self.watch.start()

    async def cog_unload(self) -> None:
        self.watch.cancel()

    async def round(self) -> None:
        raise NotImplementedError

    async def _round(self) -> None:
        try:
            await self.round()
        except Exception:  # the watch must outlive one bad round
            log.exception("%s: a round of its watch failed", type(self).__name__)

    async def _ready(self) -> None:
        await self.bot.wait_until_ready()
        if self.after_recovery:
            await self.bot.recovered.wait()
