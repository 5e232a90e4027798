"""``/crosshairs vacation days:N``: your turn clocks wait while you are away (the rule
is :mod:`bot.services.vacations`'s); the clock watch calls :func:`hold_clocks`."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.services.live import Update
from bot.services.vacations import MAX_DAYS
from bot.ui.commands import add_commands
from bot.ui.context import bot_of
from i18n import _

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot


@app_commands.command(name="vacation", description="Pause clocks")
@app_commands.describe(days="Days (0 ends it)")
async def vacation(
    interaction: discord.Interaction, days: app_commands.Range[int, 0, MAX_DAYS]
) -> None:
    service = bot_of(interaction).env.vacations
    if days == 0:
        await interaction.response.defer(ephemeral=True, thinking=True)
        back = await service.end(interaction.user.id)
        if back is not None:
            said = "🏠 " + _("Welcome back: your clocks run again.")
        else:
            said = _("You are not on vacation.")
        await interaction.followup.send(said, ephemeral=True)
        await _publish(bot_of(interaction), back or [])
        return
    await service.check(interaction.user.id, days)
    await interaction.response.defer(ephemeral=True, thinking=True)
    started = await service.start(interaction.user.id, days)
    await interaction.followup.send(
        "🌴 "
        + _(
            "On vacation until {when}: your turn clocks cannot run out before then, and each "
            "turn of yours gets its whole time after. {n} vacation day(s) left in these 30 days.",
            when=f"<t:{int(started.ends)}:f>",
            n=f"{started.left_days:g}",
        ),
        ephemeral=True,
    )
    await hold_clocks(bot_of(interaction))


async def hold_clocks(bot: CrosshairsBot) -> None:
    """Fit the clocks of players to their vacations; the match's life shows the new
    time on their boards."""
    await _publish(bot, await bot.env.vacations.hold_clocks())


async def _publish(bot: CrosshairsBot, changed: list[Update]) -> None:
    for update in changed:
        await bot.env.life.after(update)


async def setup(bot: CrosshairsBot) -> None:
    add_commands(vacation)
