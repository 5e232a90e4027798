"""The two ways a match is shown in Discord, each a :class:`~bot.services.surface.Surface`
chosen once per match (:class:`Surfaces`): its thread (:class:`ThreadSurface`), or one
message where the bot can only answer interactions (:class:`AnywhereSurface`,
docs/anywhere.md). They show what the domain published (:mod:`bot.services.life`), and
tell the presses how a press on the match is answered (its cockpit, its board).
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from functools import partial
from typing import TYPE_CHECKING

import discord

from bot.services.events import Acted, MatchAborted, MatchFinished
from bot.services.live import LiveMatch, Update
from bot.ui import anywhere
from bot.ui.aborted import show_aborted
from bot.ui.buttons import current_view, show_anywhere
from bot.ui.language import for_everyone
from bot.ui.ratings_line import ratings_line
from bot.ui.recovery import catch_up
from bot.ui.thread import draw_lines, match_channel, refresh_board

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot

log = logging.getLogger(__name__)

KEPT = 4096  # matches whose surface is remembered


def _press(via: object) -> discord.Interaction | None:
    return via if isinstance(via, discord.Interaction) else None


class ThreadSurface:
    """A match in its thread: the board is the thread's last message, edited or posted
    anew as the match goes on (:mod:`bot.ui.thread`); the computer flies one plane
    action at a time, each shown."""

    at_once = False

    def __init__(self, bot: CrosshairsBot) -> None:
        self.bot = bot

    async def acted(self, event: Acted) -> None:
        await self._refresh(event.update, event.via)

    async def _refresh(self, update: Update, via: object) -> None:
        live = update.match
        with for_everyone(self.bot, live.record.guild_id):
            view = await current_view(self.bot, live)
            await refresh_board(self.bot, update, view, draw_lines(live), _press(via))

    async def finished(self, event: MatchFinished) -> None:
        """The final board (after a restart: if it fell behind), then the ratings line,
        once, in the channel with its nonce (not as the ending interaction's follow-up,
        which cannot carry one: its repeat after a restart would be a second line)."""
        live = event.match
        if event.update is not None:
            await self._refresh(event.update, event.via)
        elif await self.bot.games.boards.shown(live.id) != live.ply:
            await catch_up(self.bot, live)
        channel = await match_channel(self.bot, live)
        await self.bot.games.events.once(live.id, "ratings", partial(self._ratings, live, channel))

    async def _ratings(
        self, live: LiveMatch, channel: discord.abc.Messageable, post_nonce: str
    ) -> None:
        with for_everyone(self.bot, live.record.guild_id):
            line = await ratings_line(self.bot.env.ratings, live)
        await channel.send(line, nonce=post_nonce)

    async def aborted(self, event: MatchAborted) -> None:
        # withdrawn, or found after a restart: nothing is left to show it on
        if event.update is not None:
            await show_aborted(self.bot, event.update)


class AnywhereSurface:
    """A match in one message, where the bot can only answer: every press on it brings
    it up to date (:func:`bot.ui.buttons.show_anywhere`), so the computer's turns are
    flown within the press that passed it the turn, and shown with it."""

    at_once = True

    def __init__(self, bot: CrosshairsBot) -> None:
        self.bot = bot

    async def acted(self, event: Acted) -> None:
        await self._show(event.match, event.via, event.update.lines)

    async def finished(self, event: MatchFinished) -> None:
        """The final board carries the ratings line (booked before it is shown)."""
        said = event.update.lines if event.update is not None else []
        await self._show(event.match, event.via, said)
        anywhere.forget(event.match.id)

    async def aborted(self, event: MatchAborted) -> None:
        said = event.update.lines if event.update is not None else []
        await self._show(event.match, event.via, said)
        anywhere.forget(event.match.id)

    async def _show(self, live: LiveMatch, via: object, said: list[str]) -> None:
        """Through the press on the board (``via``), or else the latest handle on the
        board whose token still lives; with neither, the next press on the board brings
        it up to date."""
        press = _press(via)
        if press is not None and press.message is not None:  # not a private confirmation
            board: anywhere.Board | None = anywhere.Board(press)
        else:
            board = anywhere.last_press(live.id)
        if board is None:
            log.info("match %s: no press to show the board through; the next one will", live.id)
            return
        await show_anywhere(board, live, said=said)


class Surfaces:
    """Chooses each match's surface once: one message anywhere the bot is not a member
    of the match's server, else its thread."""

    def __init__(self, bot: CrosshairsBot) -> None:
        self.bot = bot
        self.thread = ThreadSurface(bot)
        self.anywhere = AnywhereSurface(bot)
        self._chosen: OrderedDict[tuple[int, float], ThreadSurface | AnywhereSurface] = (
            OrderedDict()
        )

    def of(self, live: LiveMatch) -> ThreadSurface | AnywhereSurface:
        key = (live.id, live.record.created_at)  # another database's match of that number
        found = self._chosen.get(key)
        if found is None:
            found = self.anywhere if anywhere.is_anywhere(self.bot, live) else self.thread
            if not self.bot.is_ready():
                return found  # the bot does not know its servers yet: asked again later
            self._chosen[key] = found
            while len(self._chosen) > KEPT:
                self._chosen.popitem(last=False)
        return found
