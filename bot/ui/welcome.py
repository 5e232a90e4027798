"""A start for a server that has never heard of Crosshairs: a welcome when the bot joins
(in the server's language, once), and ``/crosshairs help``, a short guide in the reader's
language. Both name the commands as the reader's Discord shows them (``/crosshairs
lernen`` in German), asked of the command tree itself."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.services.welcome import Welcomes
from bot.ui.commands import add_commands
from bot.ui.context import bot_of
from bot.ui.language import for_everyone
from bot.ui.translator import TEXT_CONTEXT, shown
from i18n import N_, _, current, p_

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot

log = logging.getLogger(__name__)

# The guide's sections: commands told with their description, then commands only named.
SECTIONS: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = (
    (
        N_("Play a game"),
        ("crosshairs play", "crosshairs challenge", "crosshairs lobby", "crosshairs move"),
        ("crosshairs board", "crosshairs resign", "crosshairs draw", "crosshairs abort"),
    ),
    (
        N_("Learn the game"),
        ("crosshairs learn", "crosshairs puzzle", "crosshairs analyse"),
        ("crosshairs rules", "crosshairs replay", "crosshairs record"),
    ),
    (
        N_("You and your server"),
        ("crosshairs games",),
        (
            "crosshairs profile",
            "crosshairs leaderboard",
            "crosshairs notify",
            "crosshairs vacation",
        ),
    ),
    (
        N_("Compete"),
        ("crosshairs-series start", "crosshairs-tournament create"),
        ("crosshairs-tournament standings",),
    ),
)


def _description(tree: app_commands.CommandTree[Any], path: str) -> str:
    top, *below = path.split()
    found = tree.get_command(top)
    for name in below:
        assert isinstance(found, app_commands.Group), path
        found = found.get_command(name)
    assert isinstance(found, app_commands.Command | app_commands.Group), path
    return found.description


def _told(tree: app_commands.CommandTree[Any], path: str) -> str:
    return f"`{shown(path)}` — {p_(TEXT_CONTEXT, _description(tree, path), current())}"


def guide(tree: app_commands.CommandTree[Any]) -> str:
    """The short guide of ``/crosshairs help``, in the language being spoken."""
    lines = [
        "✈️ " + _("**Crosshairs**: WW1 dogfights on a hex board, two to six pilots."),
        _("New to the game? Start with {learn}: one turn a lesson.", learn=_code("learn")),
    ]
    for title, told, named in SECTIONS:
        lines.append(f"\n**{_(title)}**")
        lines.extend(_told(tree, path) for path in told)
        lines.append(" · ".join(f"`{shown(path)}`" for path in named))
    return "\n".join(lines)


def _code(name: str) -> str:
    return f"`{shown(f'crosshairs {name}')}`"


def welcome_text() -> str:
    """What the bot says when it joins a server, in the language being spoken."""
    return "\n".join(
        [
            "👋 "
            + _(
                "Hello! I'm **Crosshairs**: WW1 dogfights on a hex board for two to six "
                "pilots, played right here with a fresh board after every turn."
            ),
            "• " + _("New to the game? {learn} teaches it in short lessons.", learn=_code("learn")),
            "• "
            + _(
                "{play} finds you an opponent here (or the computer); {challenge} names one.",
                play=_code("play"),
                challenge=_code("challenge"),
            ),
            "• " + _("{help} lists everything I can do.", help=_code("help")),
            "• "
            + _(
                "Setting up: anyone may play. Members with **Manage Server** check my "
                "permissions with {setup} and run tournaments (so does a role named "
                "**Tournament Organiser**).",
                setup=f"`{shown('crosshairs setup check')}`",
            ),
        ]
    )


@app_commands.command(name="help", description="A short guide: what to type to play and learn")
async def help_(interaction: discord.Interaction) -> None:
    await interaction.response.send_message(guide(bot_of(interaction).tree), ephemeral=True)


def greeted_in(guild: discord.Guild) -> discord.abc.Messageable | None:
    """Where to greet a server: its system channel, or else the first channel (in the
    server's order) where the bot may write."""
    me = guild.me
    channels = [guild.system_channel, *sorted(guild.text_channels, key=lambda c: c.position)]
    for channel in channels:
        if channel is not None and channel.permissions_for(me).send_messages:
            return channel
    return None


class Welcome(commands.Cog):
    def __init__(self, bot: CrosshairsBot, welcomes: Welcomes) -> None:
        self.bot = bot
        self.welcomes = welcomes

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        """Greet a server the bot has just joined, once ever."""
        if await self.welcomes.done(guild.id):
            return
        channel = greeted_in(guild)
        if channel is None:
            log.info("guild %s: no channel to greet it in", guild.id)
            return
        with for_everyone(self.bot, guild.id):
            text = welcome_text()
        await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
        await self.welcomes.mark(guild.id)


async def setup(bot: CrosshairsBot) -> None:
    add_commands(help_)
    await bot.add_cog(Welcome(bot, bot.env.welcomes))
