"""``/crosshairs puzzle``: a verified puzzle at the person's level (played as an exercise,
:mod:`bot.ui.exercise`), and the daily puzzle a server admin switches on for a channel,
posted there once a day."""

from __future__ import annotations

import datetime
import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.services.clock import Clock
from bot.services.refusal import Refusal
from bot.services.training import Training, daily_puzzle
from bot.ui import anywhere
from bot.ui.commands import add_commands
from bot.ui.components import components
from bot.ui.errors import tell
from bot.ui.exercise import NOBODY, TrainingButton, service, show
from bot.ui.language import for_everyone
from bot.ui.text import WORD, Word, bounded
from bot.ui.watch import Watch
from i18n import N_, _
from rules import position

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot

log = logging.getLogger(__name__)


@app_commands.command(name="puzzle", description="A puzzle at your level")
@app_commands.describe(
    number="A puzzle's number, e.g. 1-0042",
    daily="Admins: post the daily puzzle here",
    daily_off="Admins: stop the daily puzzle",
)
async def puzzle(
    interaction: discord.Interaction,
    number: Word | None = None,
    daily: discord.TextChannel | None = None,
    daily_off: bool = False,
) -> None:
    training = service(interaction)
    if daily is not None or daily_off:
        await switch_daily(interaction, training, daily, daily_off)
        return
    if number is not None:  # a client may skip Discord's own check of its length
        bounded(number, WORD, N_("a puzzle's number"))
    await interaction.response.defer(ephemeral=True, thinking=True)
    rating = await training.puzzle_rating(interaction.user.id)
    exercise = await training.open_puzzle(interaction.user.id, number.strip() if number else None)
    note = (
        _(
            "Your puzzle rating: {rating} · streak {streak}",
            rating=f"{rating.rating:.0f}",
            streak=rating.streak,
        )
        if rating is not None
        else _("Your first puzzle: your rating starts at 1500.")
    )
    await show(interaction, exercise, note=note, edit=False)


async def switch_daily(
    interaction: discord.Interaction,
    training: Training,
    channel: discord.TextChannel | None,
    off: bool,
) -> None:
    if interaction.guild_id is None:
        raise Refusal(_("the daily puzzle is for servers: use this in a server's channel"))
    anywhere.refuse_option(interaction, True, anywhere.NO_DAILY)
    permissions = interaction.permissions
    if not (permissions.manage_guild or permissions.administrator):
        raise Refusal(_("only a server admin (Manage Server) can switch the daily puzzle"))
    if channel is not None and channel.guild.id != interaction.guild_id:
        raise Refusal(_("pick a channel of this server"))
    await interaction.response.defer(ephemeral=True, thinking=True)
    if off or channel is None:
        await training.set_daily(interaction.guild_id, None)
        await tell(interaction, _("The daily puzzle is off."))
        return
    await training.set_daily(interaction.guild_id, channel.id)
    await tell(
        interaction,
        _("The daily puzzle will be posted in {channel} every day.", channel=channel.mention),
    )


def daily_post(day: datetime.date) -> tuple[str, discord.ui.View]:
    """The day's puzzle post and its button, in the language being spoken (the server's)."""
    chosen = daily_puzzle(day)
    themes = ", ".join(_(t) for t in chosen.themes)
    text = "🧩 " + _(
        "**Daily puzzle, {day}** · {mode} · rated {rating} ({themes}). Find the clearly best "
        "turn — press the button; only you see your try.",
        day=day.isoformat(),
        mode=_(position.parse(chosen.position).mode.title),
        rating=chosen.rating,
        themes=themes,
    )
    view = components()
    view.add_item(TrainingButton("daily", chosen.id))
    return text, view


class DailyPuzzles(Watch):
    """Posts the day's puzzle, once a day, in every channel an admin chose."""

    def __init__(
        self, bot: CrosshairsBot, training: Training, clock: Clock, interval: float
    ) -> None:
        super().__init__(bot, max(interval, 60.0), after_recovery=False)
        self.training = training
        self.clock = clock

    async def round(self) -> None:
        await self.post_due()

    async def post_due(self) -> int:
        """Post today's puzzle wherever it is due; how many were posted."""
        now = self.clock.now()
        day = datetime.datetime.fromtimestamp(now, datetime.UTC).date()
        training = self.training
        posted = 0
        for guild_id, channel_id in await training.daily_due(day):
            channel = self.bot.get_channel(channel_id)
            if not isinstance(channel, discord.abc.Messageable):
                continue
            with for_everyone(self.bot, guild_id):
                text, view = daily_post(day)
            try:
                await channel.send(text, view=view, allowed_mentions=NOBODY)
            except discord.HTTPException as exc:
                log.warning("daily puzzle in %s: %s", channel_id, exc)
                continue
            await training.daily_posted(guild_id, day)
            posted += 1
        return posted


async def setup(bot: CrosshairsBot) -> None:
    add_commands(puzzle)
    env = bot.env
    await bot.add_cog(DailyPuzzles(bot, env.training, env.clock, env.config.clock_interval))
