"""When a moderator archives or locks a match's thread. The bot reopens it if it may
(Send Messages in Threads reopens an archived thread, Manage Threads a locked one), once
per moderator action; otherwise the match pauses — its clock stands still and moves are
refused — and the bot says why in the parent channel. When someone reopens the thread,
the match goes on with the time its player had left (docs/admins.md)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from bot.services.manager import Games
from bot.ui.text import plain

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot

log = logging.getLogger(__name__)
QUIET = discord.AllowedMentions.none()


class ClosedThreads(commands.Cog):
    def __init__(self, bot: CrosshairsBot, games: Games) -> None:
        self.bot = bot
        self.games = games

    @commands.Cog.listener()
    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        live = await self.games.by_thread(payload.thread_id)
        if live is None or live.over:
            return
        state = payload.data.get("thread_metadata") or {}
        locked = bool(state.get("locked"))
        if not (locked or state.get("archived")):
            if await self.games.clocks.resume(live.id):
                here = self.bot.get_partial_messageable(payload.thread_id)
                await _say(here, "▶️ This thread is open again: the match goes on.")
            return
        if await _reopen(payload.thread or await self._fetch(payload.thread_id), locked):
            log.info("match %s: reopened its thread", live.id)
            return
        if not await self.games.clocks.pause(live.id):
            return
        guild = self.bot.get_guild(payload.guild_id)
        parent = guild.get_channel(payload.parent_id) if guild else None
        if isinstance(parent, discord.abc.Messageable):
            needs = "Manage Threads" if locked else "Send Messages in Threads"
            await _say(
                parent,
                f"⏸️ The match {plain(' vs '.join(live.names))} in <#{payload.thread_id}> is "
                f"paused: its thread was {'locked' if locked else 'archived'} and I may not "
                f"reopen it (I need **{needs}** here). A moderator can reopen the thread; "
                "the turn clock stands still until then.",
            )

    async def _fetch(self, thread_id: int) -> discord.Thread | None:
        """discord.py forgets an archived thread: ask Discord for it."""
        try:
            found = await self.bot.fetch_channel(thread_id)
        except discord.HTTPException:
            return None
        return found if isinstance(found, discord.Thread) else None


async def _reopen(thread: discord.Thread | None, locked: bool) -> bool:
    if thread is None:
        return False
    me = thread.guild.me
    granted = thread.permissions_for(me)
    if not (granted.manage_threads if locked else granted.send_messages_in_threads):
        return False
    try:
        if locked:
            await thread.edit(archived=False, locked=False)
        else:
            await thread.edit(archived=False)
    except discord.HTTPException as exc:  # not retried: the match pauses instead
        log.warning("thread %s: could not be reopened: %s", thread.id, exc)
        return False
    return True


async def _say(where: discord.abc.Messageable, text: str) -> None:
    try:
        await where.send(text, allowed_mentions=QUIET)
    except discord.HTTPException as exc:  # nowhere to say it: the pause stands regardless
        log.warning("could not say %r: %s", text[:60], exc)


async def setup(bot: CrosshairsBot) -> None:
    await bot.add_cog(ClosedThreads(bot, bot.env.games))
