"""When a match's place is gone: its thread or channel deleted by a moderator, or the bot
removed from the server. The match is called off, unrated and without a result (as an
abort is), so its clock stops and nothing more is posted for it. It is not moved
elsewhere: whoever deleted the place meant the match to go with it; but its end is
published as an abort's, so a series plays that game again if its channel is still
there (docs/admins.md)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from bot.services.life import MatchLife
from bot.services.manager import Games

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot

log = logging.getLogger(__name__)


class Departures(commands.Cog):
    def __init__(self, games: Games, life: MatchLife) -> None:
        self.games = games
        self.life = life

    async def _withdraw(self, match_ids: list[int], why: str) -> None:
        for match_id in match_ids:
            try:
                live = await self.games.withdraw(match_id, why)
            except Exception:  # one match's bookkeeping must not stop the others'
                log.exception("match %s: could not be called off (%s)", match_id, why)
                continue
            if live is None:
                continue
            log.info("match %s called off: %s", match_id, why)
            # Published like any abort, so a series plays the game again where it still
            # can (bot/ui/series.py); the bus keeps one subscriber's failure to itself.
            await self.life.called_off(live)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        live = await self.games.by_thread(payload.thread_id)
        if live is not None and not live.over:
            await self._withdraw([live.id], "its thread was deleted")

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        gone = [m.id for m in await self.games.active(guild_id=channel.guild.id, place=channel.id)]
        await self._withdraw(gone, "its channel was deleted")

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        gone = [m.id for m in await self.games.active(guild_id=guild.id)]
        await self._withdraw(gone, "the bot was removed from the server")


async def setup(bot: CrosshairsBot) -> None:
    await bot.add_cog(Departures(bot.env.games, bot.env.life))
