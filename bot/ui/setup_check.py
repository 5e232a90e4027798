"""``/crosshairs setup check``: for an admin, what the bot lacks in each text channel of
the server to run matches there, each permission with what it is for (bot/invite.py's
list; bot/ui/access.py says what a match needs), and whether it may list tournaments in
the server's events (Create Events, server-wide)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.invite import USES
from bot.services.refusal import Refusal
from bot.ui.access import ROOMS, WHO_GRANTS, lacking
from bot.ui.commands import add_commands
from bot.ui.text import fit
from i18n import _

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot

CREATE_EVENTS = next(use for use in USES if use.attr == "create_events")

checks = app_commands.Group(name="setup", description="Admins: is the bot set up to play here?")


@checks.command(name="check", description="List what the bot lacks in each channel")
async def check(interaction: discord.Interaction) -> None:
    if not interaction.permissions.manage_guild:
        raise app_commands.CheckFailure(_("checking the setup needs the Manage Server permission"))
    guild = interaction.guild
    if guild is None:
        raise Refusal(_("the setup check is for a server"))
    lines = []
    for channel in sorted(guild.text_channels, key=lambda c: c.position):
        missing = lacking(channel.permissions_for(guild.me), why=True)
        if channel.is_news():
            state = "➖ " + _("an announcement channel: matches are played in text channels")
        elif missing:
            state = "⛔ " + _("missing {what}", what=", ".join(missing))
        elif not channel.permissions_for(guild.me).create_private_threads:
            state = "✅ " + _(
                "ready, without {name} (to {what})",
                name=_(ROOMS.name),
                what=_(ROOMS.purpose),
            )
        else:
            state = "✅ " + _("ready")
        lines.append(f"{channel.mention}: {state}")
    if not lines:
        lines.append(_("This server has no text channel I can see."))
    if any("⛔" in line for line in lines):
        lines.append(_(WHO_GRANTS))
    lines.append(calendar_line(guild.me.guild_permissions))
    await interaction.response.send_message(fit("\n".join(lines)), ephemeral=True)


def calendar_line(granted: discord.Permissions) -> str:
    """Whether tournaments can be listed in the server's events (a server-wide
    permission, not a channel's)."""
    use = CREATE_EVENTS
    what = _("{name} (to {what})", name=_(use.name), what=_(use.purpose))
    if granted.create_events:
        return "📅 " + _("Server-wide: ✅ {what}", what=what)
    return "📅 " + _(
        "Server-wide: ⛔ missing {what}; tournaments still run, without an event. An admin "
        "can grant it under **Server Settings → Roles** for Crosshairs.",
        what=what,
    )


async def setup(bot: CrosshairsBot) -> None:
    add_commands(checks)
