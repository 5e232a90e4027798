"""The turn clocks: reminders before a turn runs out, and what happens when it does."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from discord.ext import commands, tasks

from bot.services.manager import GameManager
from bot.ui.board import post_board
from bot.ui.notify import clock_low
from bot.ui.thread import match_channel
from bot.ui.vacation import hold_clocks

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot

log = logging.getLogger(__name__)


class ClockWatch(commands.Cog):
    def __init__(self, bot: CrosshairsBot, games: GameManager, interval: float) -> None:
        self.bot = bot
        self.games = games
        self.watch.change_interval(seconds=interval)

    async def cog_load(self) -> None:
        self.watch.start()

    async def cog_unload(self) -> None:
        self.watch.cancel()

    @tasks.loop(seconds=20)
    async def watch(self) -> None:
        """Remind players whose turn is running out, and end turns that ran out. What
        Discord did not take is stored, and shown by the recovery
        (:func:`bot.ui.recovery.keep_up`); one match must not hold up the others."""
        try:
            await hold_clocks(self.bot)
            remind, expired = await self.games.clocks.tick()
        except Exception:  # the loop must outlive one bad round
            log.exception("checking the clocks failed")
            return
        for live in remind:
            try:
                if live.user_to_move() is not None and live.deadline is not None:
                    # the board moves down with the reminder: still one ping in the thread
                    channel = await match_channel(self.bot, live)
                    await post_board(self.bot, live, channel, ["⏰ Your turn is running out."])
                    await clock_low(self.bot, live)
            except Exception:
                log.exception("match %s: its clock's reminder failed", live.id)
        for update in expired:
            try:
                await self.bot.env.life.after(update)
            except Exception:
                log.exception("match %s: its clock ran out; not shown yet", update.match.id)

    @watch.before_loop
    async def _ready(self) -> None:
        await self.bot.wait_until_ready()
        await self.bot.recovered.wait()


async def setup(bot: CrosshairsBot) -> None:
    await bot.add_cog(ClockWatch(bot, bot.env.games, bot.config.clock_interval))
