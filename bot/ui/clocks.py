"""The turn clocks: reminders before a turn runs out, and what happens when it does."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from bot.outages import Stale, only_while
from bot.services.live import LiveMatch, Update
from bot.services.manager import Games
from bot.ui.board import post_board
from bot.ui.language import for_everyone
from bot.ui.notify import clock_low
from bot.ui.thread import match_channel
from bot.ui.vacation import hold_clocks
from bot.ui.watch import Watch
from i18n import _

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot

log = logging.getLogger(__name__)


class ClockWatch(Watch):
    def __init__(self, bot: CrosshairsBot, games: Games, interval: float) -> None:
        super().__init__(bot, interval)
        self.games = games

    async def round(self) -> None:
        """Remind players whose turn is running out, and end turns that ran out. Each
        is shown in the background: a match whose showing Discord holds up (it is tried
        again, then left to the recovery: :mod:`bot.outages`) holds up no other, nor the
        next round."""
        await hold_clocks(self.bot)
        remind, expired = await self.games.clocks.tick()
        for live in remind:
            self.bot.spawn(self._remind(live))
        for update in expired:
            self.bot.spawn(self._ran_out(update))

    async def _remind(self, live: LiveMatch) -> None:
        """The board moves down with the reminder (still one ping in the thread), and
        the DM; both only while it is still that turn: a reminder Discord held up until
        the clock ran out must not go up below the final board."""
        ply = live.ply

        def current() -> bool:
            return not live.over and live.ply == ply and live.deadline is not None

        try:
            with only_while(current):
                if live.user_to_move() is not None and current():
                    channel = await match_channel(self.bot, live)
                    with for_everyone(self.bot, live.record.guild_id):  # the board's language
                        said = "⏰ " + _("Your turn is running out.")
                    await post_board(self.bot, live, channel, [said])
                    await clock_low(self.bot, live)
        except Stale as exc:
            log.info("match %s: its clock's reminder is stale, not sent (%s)", live.id, exc)
        except Exception:
            log.exception("match %s: its clock's reminder failed", live.id)

    async def _ran_out(self, update: Update) -> None:
        try:
            await self.bot.env.life.after(update)
        except Exception:  # stored as unshown: the recovery shows it (bot/ui/recovery.py)
            log.exception("match %s: its clock ran out; not shown yet", update.match.id)


async def setup(bot: CrosshairsBot) -> None:
    await bot.add_cog(ClockWatch(bot, bot.env.games, bot.config.clock_interval))
