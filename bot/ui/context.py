"""What every command and button handler needs from its interaction."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot


def bot_of(interaction: discord.Interaction) -> CrosshairsBot:
    """The bot that received ``interaction``, with its services."""
    from bot.discord_app import CrosshairsBot

    client = interaction.client
    assert isinstance(client, CrosshairsBot)
    return client
