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

Discord failing is a fault like a crash, picked up the same way without a restart
(:func:`keep_up`): once a call to Discord failed for good (:mod:`bot.outages`), this
process's boards behind their games, ends not shown in full and turns not told are
looked for every :attr:`~bot.outages.Outages.look_every` seconds, and shown, for as long
as something is behind. One whose showing is under way (its match locked) is left to it;
so is one seen behind only once (an action between its step and its showing). What
cannot be shown for another reason (a thread deleted) is tried again only after the next
failure (or restart), rather than asked of Discord again at every look.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from discord.ext import tasks

from bot.services import restart
from bot.services.events import TurnPassed
from bot.services.live import LiveMatch
from bot.services.metrics import DISCORD_BEHIND
from bot.ui import anywhere
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
            log.exception("match %s: could not redraw its board", live.id)


async def tell_untold_turns(bot: CrosshairsBot, turns: list[TurnPassed]) -> None:
    """Tell each turn passed that a crash left untold, if it is still that turn
    (:meth:`bot.services.life.MatchLife.tell_untold`)."""
    await bot.env.life.tell_untold(turns)


# ------------------------------------------------------------ while the bot runs


Key = tuple[int, str]  # a match, and what of it is behind: its end, its board, a turn


@dataclass(frozen=True)
class Behind:
    """What storage says this process has not shown, of matches not being shown now."""

    ends: list[LiveMatch]
    boards: list[LiveMatch]
    turns: list[TurnPassed]

    def plies(self) -> dict[Key, int]:
        found = {(live.id, "end"): live.ply for live in self.ends}
        found |= {(live.id, "board"): live.ply for live in self.boards}
        return found | {(t.match.id, f"turn:{t.ply}"): t.match.ply for t in self.turns}


def keep_up(bot: CrosshairsBot) -> tasks.Loop[Any]:
    """Pick up what a call Discord could not take left behind, without a restart: a
    look every ``look_every`` seconds after a failure noted by :mod:`bot.outages`, for as
    long as something is behind (``crosshairs_discord_behind`` says how many matches).
    Started by :mod:`bot.app`, once the start-up's recovery is done."""
    outages = bot.outages
    seen: dict[Key, int] = {}  # behind at the last look, at which ply
    tried: dict[Key, int] = {}  # shown (or tried) already, at which ply

    @tasks.loop(seconds=outages.look_every)
    async def look() -> None:
        nonlocal seen, tried
        failed = outages.failed
        if not failed and not seen:
            return
        outages.failed = False
        try:
            behind = await _behind(bot)
            plies = behind.plies()
            # settled: behind at the last look too, at the same ply; tried again only
            # once Discord failed since (else what it refuses is asked again and again)
            due = {
                key
                for key, ply in plies.items()
                if seen.get(key) == ply and (failed or tried.get(key) != ply)
            }
            await _show(bot, behind, due)
            seen = (await _behind(bot)).plies()
        except Exception:  # storage unreachable, say: look again later
            log.exception("catching up after Discord failed did not run through")
            outages.failed = True
            return
        tried = {
            key: ply for key, ply in (tried | {k: plies[k] for k in due}).items() if key in seen
        }
        DISCORD_BEHIND.set(len({match for match, _ in seen}))

    @look.before_loop
    async def _recovered() -> None:
        await bot.recovered.wait()

    return look


async def _behind(bot: CrosshairsBot) -> Behind:
    ids = await restart.boards_behind(bot.games, time.time())
    boards = [
        live
        for live in await bot.games.owned(ids)
        if not live.over and not _busy(live) and not anywhere.is_anywhere(bot, live)
    ]
    return Behind(
        ends=[live for live in await restart.unannounced(bot.games) if not _busy(live)],
        boards=boards,
        turns=[t for t in await restart.untold_turns(bot.games) if not _busy(t.match)],
    )


async def _show(bot: CrosshairsBot, behind: Behind, due: set[Key]) -> None:
    """Show what of ``behind`` is due, as a restart shows it."""
    await redraw_stale_boards(bot, [b.id for b in behind.boards if (b.id, "board") in due])
    await announce_unshown_ends(bot, [e for e in behind.ends if (e.id, "end") in due])
    await tell_untold_turns(bot, [t for t in behind.turns if (t.match.id, f"turn:{t.ply}") in due])


def _busy(live: LiveMatch) -> bool:
    """Whether an action or a showing of the match is under way: it shows what it did."""
    return live.lock.locked() or live.showing.locked()
