"""An aborted match in its thread: the board loses its buttons and says so (a series
plays the game again: :meth:`bot.ui.series.SeriesDesk.match_aborted`)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from bot.services.live import Update
from bot.ui.thread import match_channel
from i18n import _

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot

log = logging.getLogger(__name__)


async def show_aborted(bot: CrosshairsBot, update: Update) -> None:
    live = update.match
    said = "\n".join(update.lines)
    channel = await match_channel(bot, live)
    board_id = live.record.board_message_id
    if board_id is not None and hasattr(channel, "get_partial_message"):
        try:
            await channel.get_partial_message(board_id).edit(
                content=f"**Crosshairs #{live.id}** · {_(live.game.mode.title)}\n{said}", view=None
            )
        except discord.HTTPException as exc:
            log.info("match %s: board message gone (%s)", live.id, exc)
    await channel.send(f"🛑 {said}")
