"""The turn clocks: reminders before a turn runs out, and what happens when it does."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from bot.services.manager import Games
from bot.ui.board import post_board
from bot.ui.notify import clock_low
from bot.ui.thread import match_channel
from bot.ui.vacation import hold_clocks
from bot.ui.watch import Watch

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot

log = logging.getLogger(__name__)


class ClockWatch(Watch):
    def __init__(self, bot: CrosshairsBot, games: Games, interval: float) -> None:
        super().__init__(bot, interval)
        self.games = games

    async def round(self) -> None:
        """Remind players whose turn is running out, and end turns that ran out."""
        await hold_clocks(self.bot)
        remind, expired = await self.games.clocks.tick()
        for live in remind:
            if live.user_to_move() is not None and live.deadline is not None:
                # the board moves down with the reminder: still one ping in the thread
                channel = await match_channel(self.bot, live)
                await post_board(self.bot, live, channel, ["⏰ Your turn is running out."])
                await clock_low(self.bot, live)
        for update in expired:
            await self.bot.env.life.after(update)


async def setup(bot: CrosshairsBot) -> None:
    await bot.add_cog(ClockWatch(bot, bot.env.games, bot.config.clock_interval))
