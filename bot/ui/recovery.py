"""Start-up: finish what a crash left half done.

* A board message behind its game (the process died between storing a move and editing
  the board) is redrawn, and the player to move is pinged, since nobody was.
* A series between two games (booked but the next not opened, or finished but not
  booked) carries on: :meth:`bot.ui.series.SeriesDesk.finish_half_done`.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from bot.services.live import Update
from bot.ui.buttons import show_update
from bot.ui.series import desk
from bot.ui.tables import match_channel

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot

log = logging.getLogger(__name__)

REDRAWN = "♻️ The bot restarted; the board is up to date again."


async def after_restart(bot: CrosshairsBot) -> None:
    await bot.wait_until_ready()
    await redraw_stale_boards(bot)
    await desk(bot).finish_half_done()


async def redraw_stale_boards(bot: CrosshairsBot) -> None:
    for live in bot.games.live_matches():
        try:
            if await bot.games.boards.shown(live.id) == live.ply:
                continue
            # by_computer: the computer's turns were already restarted by bot.app
            await show_update(bot, Update(live, (), [REDRAWN]), by_computer=True)
            user = live.user_to_move()
            if user is not None:
                channel = await match_channel(bot, live)
                await channel.send(
                    f"<@{user}>, your turn — press **Play** or use `/crosshairs move`."
                )
        except Exception:  # one damaged match must not keep the others stale
            log.exception("match %s: could not redraw its board after a restart", live.id)
