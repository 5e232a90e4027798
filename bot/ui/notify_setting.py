"""``/crosshairs notify``: how often the bot sends you a DM about your games
(:mod:`bot.ui.notify` sends them)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.ui.commands import add_commands
from bot.ui.context import bot_of
from bot.ui.text import Picked
from i18n import N_, _

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot

CHOICES = [
    app_commands.Choice(name="off", value="off"),
    app_commands.Choice(name="turn", value="turn"),
    app_commands.Choice(name="clock low", value="clock"),
]
SAID = {  # English, marked for translation (i18n)
    "off": N_("🔕 No DMs about your games."),
    "turn": N_("🔔 A DM when it is your turn, and when your clock runs low."),
    "clock": N_("⏰ A DM only when your turn clock runs low."),
}


@app_commands.command(name="notify", description="Turn DMs")
@app_commands.describe(when="When to DM you")
@app_commands.choices(when=CHOICES)
async def notify(interaction: discord.Interaction, when: Picked) -> None:
    if when not in SAID:  # a client may send a value that is not one of the choices
        await interaction.response.send_message(
            "⚠️ " + _("choose off, every turn or only when my clock runs low"), ephemeral=True
        )
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    await bot_of(interaction).env.notifications.set_level(interaction.user.id, when)
    await interaction.followup.send(_(SAID[when]), ephemeral=True)


async def setup(bot: CrosshairsBot) -> None:
    add_commands(notify)
