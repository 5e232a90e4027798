"""A question the match puts to some of its people (a rematch offer, a takeback request):
posted pinging only those asked, and kept to be settled once it is answered."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import discord

from bot.services.live import LiveMatch
from bot.ui.surfaces import surfaces_of
from bot.ui.thread import match_channel

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot

Handle = discord.Message | discord.PartialMessage | discord.WebhookMessage


async def ask(
    bot: CrosshairsBot,
    live: LiveMatch,
    press: discord.Interaction | None,
    content: str,
    view: discord.ui.View,
    asked: Iterable[int],
) -> Handle:
    """Post the question, pinging only ``asked``: a follow-up of the press that asked,
    else (asked on the live board) in the match's thread; returns a handle that can
    still edit it later (the press's token lasts only 15 minutes)."""
    pings = discord.AllowedMentions(users=[discord.Object(u) for u in sorted(asked)])
    if press is not None:
        sent = await press.followup.send(content, view=view, allowed_mentions=pings, wait=True)
        return surfaces_of(bot).of(live).kept(sent)
    channel = await match_channel(bot, live)
    return await channel.send(content, view=view, allowed_mentions=pings)
