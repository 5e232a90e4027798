"""What every command and button handler needs from its interaction."""

from __future__ import annotations

import discord

from bot.discord_app import CrosshairsBot


def bot_of(interaction: discord.Interaction) -> CrosshairsBot:
    """The bot that received ``interaction``, with its services."""
    client = interaction.client
    assert isinstance(client, CrosshairsBot)
    return client
