"""The words-only board (``/crosshairs board words:true``): the position as text, for a
screen reader or a client with images off, in messages under Discord's 2000 characters."""

from __future__ import annotations

import discord

from bot.services.live import LiveMatch
from i18n import _
from rules.words.scene import position_text

MESSAGE_LIMIT = 1900  # under Discord's 2000, with room for the part counter


def chunks(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """``text`` in pieces of at most ``limit`` characters, broken between lines (a line
    longer than ``limit`` on its own is broken inside)."""
    lines = [
        line[i : i + limit] for line in text.splitlines() for i in range(0, len(line) or 1, limit)
    ]
    pieces: list[str] = []
    current = ""
    for line in lines:
        if current and len(current) + 1 + len(line) > limit:
            pieces.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    return [*pieces, current] if current else pieces


async def send_words_board(interaction: discord.Interaction, live: LiveMatch) -> None:
    """Answer (only to the asker) with the match's position in words, as many messages as
    it takes; the interaction must already be deferred."""
    text = _("Crosshairs #{id} in words.", id=live.id) + "\n" + position_text(live.game, live.names)
    for piece in chunks(text):
        await interaction.followup.send(piece, ephemeral=True)
