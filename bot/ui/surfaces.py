"""The ways a match is shown in Discord, each a :class:`~bot.services.surface.Surface`
chosen once per match (:class:`Surfaces`): its thread (:class:`ThreadSurface`), or one
message where the bot can only answer interactions
(:class:`~bot.ui.anywhere_board.AnywhereSurface`, docs/anywhere.md). They show what the
domain published (:mod:`bot.services.life`), and answer what a press on the match asks
of its board (:class:`MatchSurface`): the presses never ask where the match is shown.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from functools import partial
from typing import TYPE_CHECKING, Protocol

import discord

from bot.services.events import Acted, MatchAborted, MatchFinished
from bot.services.live import LiveMatch, Update
from bot.services.surface import Surface
from bot.ui import anywhere
from bot.ui.aborted import show_aborted
from bot.ui.anywhere_board import AnywhereSurface
from bot.ui.board import current_view, open_table, post_board, send_cockpit
from bot.ui.board_edits import BoardEdits
from bot.ui.language import for_everyone
from bot.ui.ratings_line import ratings_line
from bot.ui.team_rooms import close_rooms
from bot.ui.thread import (
    adopt_board,
    draw_lines,
    match_channel,
    missed_turns,
    refresh_board,
    unnoted_boards,
)
from i18n import N_, _

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot

log = logging.getLogger(__name__)

KEPT = 4096  # matches whose surface is remembered
# a board redrawn by the recovery, after a restart or once Discord is back (bot/ui/recovery.py)
REDRAWN = N_(
    "♻️ Shown late (the bot restarted, or Discord could not be reached): "
    "the board is up to date again."
)


def _press(via: object) -> discord.Interaction | None:
    return via if isinstance(via, discord.Interaction) else None


class MatchSurface(Surface, Protocol):
    """A surface as the presses on its match see it."""

    def shown_through(self, interaction: discord.Interaction) -> discord.Interaction | None:
        """The interaction a press's change is shown through (None: the channel)."""
        ...

    async def cockpit(
        self, interaction: discord.Interaction, live: LiveMatch, path: tuple[str, ...], note: str
    ) -> None:
        """The presser's cockpit turned to ``path`` (``note``: what was just flown)."""
        ...

    async def flown(self, interaction: discord.Interaction, update: Update) -> None:
        """The cockpit's step played (``update``): the presser answered, the board shown."""
        ...

    async def caught_up(
        self, interaction: discord.Interaction, live: LiveMatch, ply: int | None = None
    ) -> bool:
        """Whether the press was answered by bringing a board it no longer matches up
        to date instead of acting."""
        ...

    async def open(
        self, interaction: discord.Interaction, live: LiveMatch, intro: str, follow_up: bool
    ) -> discord.abc.Messageable | None:
        """Show the new match ``live``'s first board (headed by ``intro``), started by
        the press ``interaction``: where it is played, or None when its board is the
        press's own message (``follow_up``: a follow-up of the press)."""
        ...

    def kept(self, sent: discord.WebhookMessage) -> discord.PartialMessage | discord.WebhookMessage:
        """A handle that can still edit later ``sent``, a press's follow-up about the match."""
        ...

    async def redraw(self, live: LiveMatch) -> None:
        """Bring a board that a restart found behind up to date, if it can be now."""
        ...


class ThreadSurface:
    """A match in its thread: the board is the thread's last message, edited or posted
    anew as the match goes on (:mod:`bot.ui.thread`); the computer flies one plane
    action at a time, each shown. A team game's private team rooms
    (:mod:`bot.ui.team_rooms`) are part of it: closed when the match ends."""

    at_once = False

    def __init__(self, bot: CrosshairsBot) -> None:
        self.bot = bot
        self.edits = BoardEdits()  # the boards posted through a press's webhook

    async def acted(self, event: Acted) -> None:
        await self._refresh(event.update, event.via)

    async def _refresh(self, update: Update, via: object) -> None:
        live = update.match
        with for_everyone(self.bot, live.record.guild_id):
            view = await current_view(self.bot, live)
            lines = [*update.noted(), *draw_lines(live)]
            await refresh_board(self.bot, self.edits, update, view, lines, _press(via))

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
        await close_rooms(self.bot, live)

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
        await close_rooms(self.bot, event.match)

    def shown_through(self, interaction: discord.Interaction) -> discord.Interaction | None:
        return None  # the board's own buttons answer privately; the thread shows it

    async def cockpit(
        self, interaction: discord.Interaction, live: LiveMatch, path: tuple[str, ...], note: str
    ) -> None:
        await send_cockpit(interaction, live, path, edit=True, note=note)

    async def flown(self, interaction: discord.Interaction, update: Update) -> None:
        """The presser's answer first (the cockpit's next choice, or the turn done);
        then the board, whose new message (when the turn passed) goes up as this
        interaction's follow-up."""
        live = update.match
        if live.user_to_move() == interaction.user.id:
            await send_cockpit(interaction, live, (), edit=True, note="\n".join(update.lines))
        else:
            done = f"{update.text()}\n\n✅ " + _("Your turn is done.")
            await interaction.edit_original_response(content=done, attachments=[], view=None)
        await self.bot.env.life.after(update, via=interaction)

    async def caught_up(
        self, interaction: discord.Interaction, live: LiveMatch, ply: int | None = None
    ) -> bool:
        return False  # a thread's board is never behind a press: it is redrawn on its own

    async def open(
        self, interaction: discord.Interaction, live: LiveMatch, intro: str, follow_up: bool
    ) -> discord.abc.Messageable | None:
        """A thread of its own in the match's channel (or the channel, where no thread
        can be opened), its first board there."""
        return await self.open_unasked(live, intro, interaction.user.id)

    async def open_unasked(
        self, live: LiveMatch, intro: str, actor: int | None
    ) -> discord.abc.Messageable:
        """As :meth:`open`, for a match started with no press to answer (a rematch
        agreed on the live board); ``actor``, who started it, is not sent a DM."""
        channel = await match_channel(self.bot, live)
        return await open_table(self.bot, live, channel, intro, actor)

    def kept(self, sent: discord.WebhookMessage) -> discord.PartialMessage | discord.WebhookMessage:
        # edited through the channel: the press's token lasts only 15 minutes
        return sent.channel.get_partial_message(sent.id)  # type: ignore[union-attr]

    async def redraw(self, live: LiveMatch) -> None:
        await catch_up(self.bot, live)


async def catch_up(bot: CrosshairsBot, live: LiveMatch) -> None:
    """Bring a board a crash or an outage left behind up to date, posting at most one
    board: one Discord took but the bot never noted (the process died, or the post timed
    out) is kept if it pings whoever is to move now."""
    channel = await match_channel(bot, live)
    found = await unnoted_boards(bot, live, channel)
    user = live.user_to_move()
    kept = found[-1] if found and (user is None or f"<@{user}>" in found[-1].content) else None
    shown = await bot.games.boards.shown(live.id)
    with for_everyone(bot, live.record.guild_id):
        late = _(REDRAWN)
        # the old board becomes the turns it missed, told, as if shown at the time
        missed = missed_turns(bot, live, shown)
    if kept is None:
        await post_board(bot, live, channel, [late], missed)
    else:
        with for_everyone(bot, live.record.guild_id):
            view = await current_view(bot, live)
            await adopt_board(bot, live, kept, view, [*draw_lines(live), late], missed)
    for stray in found:
        if stray is not kept:
            try:
                await stray.delete()
            except discord.HTTPException as exc:
                log.info("match %s: a stray board could not be removed (%s)", live.id, exc)


class Surfaces:
    """Chooses each match's surface once: one message anywhere the bot is not a member
    of the match's server, else its thread."""

    def __init__(self, bot: CrosshairsBot) -> None:
        self.bot = bot
        self.thread = ThreadSurface(bot)
        self.anywhere = AnywhereSurface(bot)
        self._chosen: OrderedDict[tuple[int, float], MatchSurface] = OrderedDict()

    def of(self, live: LiveMatch) -> MatchSurface:
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


def surfaces_of(bot: CrosshairsBot) -> Surfaces:
    found = bot.surfaces
    assert isinstance(found, Surfaces), "bot.app sets the surfaces up before any feature"
    return found
