"""``/crosshairs palette``: the colours boards are drawn in (render/palette.py). A
person's own palette draws what only they see (bot/services/palettes.py); with
``server:true`` an admin (Manage Server) sets the server's default, which draws its
match threads' boards."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.services.refusal import Refusal
from bot.ui.commands import add_commands
from bot.ui.context import bot_of
from bot.ui.text import Picked
from i18n import _
from render.palette import PALETTE_NAMES, PALETTES

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot

CHOICES = [app_commands.Choice(name=words, value=key) for key, words in PALETTE_NAMES.items()]


@app_commands.command(name="palette", description="Your board colours")
@app_commands.describe(
    colours="Classic, dark, high contrast or colour-blind safe",
    server="Admins: the default of this server's match threads",
)
@app_commands.choices(colours=CHOICES)
async def palette(interaction: discord.Interaction, colours: Picked, server: bool = False) -> None:
    if colours not in PALETTES:  # a client may send a value that is not one of the choices
        names = ", ".join(_(words) for words in PALETTE_NAMES.values())
        raise Refusal(_("choose one of the palettes: {names}", names=names))
    repo = bot_of(interaction).env.stores.palettes
    name = _(PALETTE_NAMES[colours])
    if not server:
        # answered at once, confirmed once stored: a cockpit opened after the
        # confirmation is drawn in the new palette, and a choice that could not be
        # stored is not said to be made
        await interaction.response.defer(ephemeral=True, thinking=True)
        await repo.set(interaction.user.id, colours)
        await interaction.followup.send(
            "🎨 " + _("Your cockpit and analyses are drawn in the {name} palette.", name=name),
            ephemeral=True,
        )
        return
    guild_id = interaction.guild_id
    if guild_id is None or interaction.guild is None:
        raise Refusal(_("a server's palette is set in that server"))
    if not interaction.permissions.manage_guild:
        raise app_commands.CheckFailure(
            _("setting the server's palette needs the Manage Server permission")
        )
    await interaction.response.defer(ephemeral=True, thinking=True)
    await repo.set_server(guild_id, colours)
    await interaction.followup.send(
        "🎨 " + _("This server's match boards are drawn in the {name} palette.", name=name),
        ephemeral=True,
    )


async def setup(bot: CrosshairsBot) -> None:
    add_commands(palette)
