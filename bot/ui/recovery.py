"""Start-up: finish what a crash left half done.

* A board message behind its game (the process died between storing a move and editing
  the board) is posted afresh: an edit would not notify the player to move, and nobody
  pinged them.
* A game that ended in the crash gets its final board and its result, and is rated and
  booked as if nothing had happened (the finish listeners do nothing twice).
* A series between two games (booked but the next not opened, or finished but not
  booked) carries on: :meth:`bot.ui.series.SeriesDesk.finish_half_done`.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from bot.services.live import LiveMatch
from bot.ui.buttons import post_board
from bot.ui.series import desk
from bot.ui.tables import match_channel

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot

log = logging.getLogger(__name__)

REDRAWN = "♻️ The bot restarted; the board is up to date again."


async def after_restart(bot: CrosshairsBot) -> None:
    # Only the matches resumed from storage: one begun since has its board drawn as it
    # goes, and comparing its mark mid-update would redraw it for nothing.
    resumed = list(bot.games.live_matches())
    try:
        await bot.wait_until_ready()
        await redraw_stale_boards(bot, resumed)
        await announce_unshown_ends(bot)
        await desk(bot).finish_half_done()
    finally:
        bot.recovered.set()


async def announce_unshown_ends(bot: CrosshairsBot) -> None:
    for live in await bot.games.unannounced():
        try:
            await bot.games.tell_listeners(live)
            await post_board(bot, live, await match_channel(bot, live), [REDRAWN])
            # series and ratings post their scoreboards and the next game on this event
            bot.dispatch("crosshairs_match_finished", live)
        except Exception:  # one damaged match must not keep the others untold
            log.exception("match %s: could not show its end after a restart", live.id)


async def redraw_stale_boards(bot: CrosshairsBot, resumed: list[LiveMatch]) -> None:
    for live in resumed:
        try:
            if await bot.games.boards.shown(live.id) == live.ply:
                continue
            await post_board(bot, live, await match_channel(bot, live), [REDRAWN])
        except Exception:  # one damaged match must not keep the others stale
            log.exception("match %s: could not redraw its board after a restart", live.id)
