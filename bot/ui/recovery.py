"""Start-up: finish what a crash left half done.

* A board message behind its game (the process died between storing a move and editing
  the board) is posted afresh: an edit would not notify the player to move, and nobody
  pinged them. Unless the process died after Discord took the new board but before it
  was noted (:func:`bot.ui.thread.unnoted_boards` finds it in the thread): that board is
  kept and brought up to date by an edit, so no board — a final result least of all — is
  posted twice; a kept board already pinged the player now to move (else a fresh one is
  posted and the stray ones go). A match played in one message (:mod:`bot.ui.anywhere`)
  cannot be posted to: its board catches up at the next press on it.
* A game whose end was not shown in full (:mod:`storage.events`) gets its final board if
  it was behind, is rated and booked as if nothing had happened (the subscribers
  do nothing twice), and the steps of its end not shown yet are shown: the ratings
  line, the series scoreboard, the next game.
* A turn passed whose DM was not sent (:mod:`storage.turn_events`) is told now, after
  the boards are redrawn, if it is still that player's turn; one that is stale (the
  turn has passed again, a step was played since, the match ended) is dropped unsent.
* A series between two games (booked but the next not opened, or finished but not
  booked) carries on: :meth:`bot.ui.series.SeriesDesk.finish_half_done`.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

from bot.services import restart
from bot.services.events import TurnPassed
from bot.services.live import LiveMatch
from bot.ui.series import SeriesDesk
from bot.ui.surfaces import surfaces_of

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot

log = logging.getLogger(__name__)


async def unshown_ends(bot: CrosshairsBot) -> list[LiveMatch]:
    """Before the bot connects: the ends a crash left unshown. Taken then, so that no
    end of a game played since (shown by the action that ended it) is among them."""
    return await restart.unannounced(bot.games)


async def untold_turns(bot: CrosshairsBot) -> list[TurnPassed]:
    """Before the bot connects: the turns passed a crash left untold (taken then, like
    the ends, so that no turn passed since is among them)."""
    return await restart.untold_turns(bot.games)


async def after_restart(
    bot: CrosshairsBot, ends: list[LiveMatch], turns: list[TurnPassed], series: SeriesDesk
) -> None:
    # Only the boards of matches nothing changed since the start: one played since has
    # its board drawn as it goes, and comparing its mark mid-update would redraw it for
    # nothing. Asked once connected: reading every match's mark is no reason to wait.
    started = time.time()
    try:
        await bot.wait_until_ready()
        await redraw_stale_boards(bot, await restart.boards_behind(bot.games, started))
        await announce_unshown_ends(bot, ends)
        await tell_untold_turns(bot, turns)
        await series.finish_half_done()
    finally:
        bot.recovered.set()


async def announce_unshown_ends(bot: CrosshairsBot, ends: list[LiveMatch]) -> None:
    """Carry on each end this process owns that was not shown in full: published again
    (:meth:`bot.services.life.MatchLife.carry_on_ends`), its surface shows the final
    board if it is behind (:class:`bot.ui.surfaces.ThreadSurface`; one message
    anywhere catches up at its next press), then whatever of the end's steps were not
    shown yet."""
    await bot.env.life.carry_on_ends(ends)


async def redraw_stale_boards(bot: CrosshairsBot, behind: list[int]) -> None:
    for live in await bot.games.owned(behind):
        try:
            if live.over or await bot.games.boards.shown(live.id) == live.ply:
                continue
            await surfaces_of(bot).of(live).redraw(live)
        except Exception:  # one damaged match must not keep the others stale
            log.exception("match %s: could not redraw its board after a restart", live.id)


async def tell_untold_turns(bot: CrosshairsBot, turns: list[TurnPassed]) -> None:
    """Tell each turn passed that a crash left untold, if it is still that turn
    (:meth:`bot.services.life.MatchLife.tell_untold`)."""
    await bot.env.life.tell_untold(turns)
