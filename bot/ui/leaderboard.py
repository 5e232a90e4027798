"""``/crosshairs cards``, ``/crosshairs leaderboard`` and ``/crosshairs profile``.

Ratings come from :class:`bot.services.rating_service.RatingService`; every number a
player sees is the display rating (the skill estimate, 1500 to start), with a ``?`` while
it is provisional; only the profile adds μ and σ for the curious (docs/ratings.md).
Ratings are global; the leaderboard lists the players of the server it is asked in.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.services import jobs, workers
from bot.services.pictures import cards_words
from bot.services.rating_service import (
    BoardEntry,
    Profile,
    RatingService,
    describe_rating,
    shown_rating,
)
from bot.ui.commands import add_commands
from bot.ui.context import bot_of
from bot.ui.files import picture
from bot.ui.language import for_everyone
from bot.ui.text import Picked, name_of
from competition.ratings import FAMILIES, FAMILY_TITLES
from i18n import _, current, n_
from rules import steps
from rules.achievements import CARDS

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot
FAMILY_CHOICES = [app_commands.Choice(name=FAMILY_TITLES[f], value=f) for f in FAMILIES]
MEDALS = ("🥇", "🥈", "🥉")


def _ratings(interaction: discord.Interaction) -> RatingService:
    return bot_of(interaction).env.ratings


@app_commands.command(
    name="cards", description="The eight achievement cards, their points and rules"
)
async def cards(interaction: discord.Interaction) -> None:
    await interaction.response.defer(thinking=True)
    with for_everyone(bot_of(interaction), interaction.guild_id):
        title = _("Crosshairs achievement cards")
        lines = [f"**{_(c.name)}** ({c.points}) — {_(c.rule)}" for c in CARDS.values()]
        lines.append(
            _(
                "In a series the first to meet an unclaimed card's condition claims it; the "
                "game's winner keeps their claims and the others go back to the pool. Most "
                "points wins."
            )
        )
        words = cards_words(CARDS.values(), title)
        language = current()
    png = await workers.current().run(jobs.draw_cards, list(CARDS.values()), title, language)
    await interaction.followup.send("\n".join(lines), file=picture(png, "cards.png", words))


@app_commands.command(name="leaderboard", description="The best rated players of a mode family")
@app_commands.describe(mode="Duels (default), free-for-all, Circle of Death or team games")
@app_commands.choices(mode=FAMILY_CHOICES)
async def leaderboard(interaction: discord.Interaction, mode: Picked = "duel") -> None:
    entries = await _ratings(interaction).leaderboard(mode, limit=15, guild_id=interaction.guild_id)
    with for_everyone(bot_of(interaction), interaction.guild_id):
        embed = leaderboard_embed(mode, entries, here=interaction.guild_id is not None)
    await interaction.response.send_message(embed=embed)


def leaderboard_embed(mode: str, entries: list[BoardEntry], here: bool) -> discord.Embed:
    embed = discord.Embed(
        title="🏆 " + _("Leaderboard · {family}", family=_(FAMILY_TITLES[mode])),
        colour=discord.Colour.gold(),
    )
    if not entries:
        embed.description = (
            _("Nobody has played a rated game on this server yet.")
            if here
            else _("Nobody has played a rated game anywhere yet.")
        )
    else:
        lines = []
        for place, entry in enumerate(entries, start=1):
            medal = (
                MEDALS[place - 1] if place <= 3 and not entry.rating.provisional else f"{place}."
            )
            games = entry.rating.games
            played = n_("{n} game", "{n} games", games)
            lines.append(f"{medal} **{entry.name}** — {shown_rating(entry.rating)} ({played})")
        embed.description = "\n".join(lines)
        who = (
            _("Players with a rated game on this server.")
            if here
            else _("Players with a rated game anywhere.")
        )
        how = _(
            "A rating is one skill estimate counting rated games on every server; everyone "
            "starts at 1500. '?' marks a provisional rating (too few games yet), listed after "
            "the settled ones."
        )
        embed.set_footer(text=f"{who} {how}")
    return embed


@app_commands.command(name="profile", description="A player's ratings, results and achievements")
@app_commands.describe(player="Whose profile (default: yours)")
async def profile(interaction: discord.Interaction, player: discord.User | None = None) -> None:
    who = player or interaction.user
    found = await _ratings(interaction).profile(who.id, interaction.guild_id)
    with for_everyone(bot_of(interaction), interaction.guild_id):
        embed = profile_embed(name_of(who), found, here=interaction.guild_id is not None)
    await interaction.response.send_message(embed=embed)


def profile_embed(name: str, found: Profile, here: bool) -> discord.Embed:
    embed = discord.Embed(title=f"✈️ {name}", colour=discord.Colour.blurple())
    for family in FAMILIES:
        rating = found.ratings.get(family)
        if rating is not None:
            embed.add_field(
                name=_(FAMILY_TITLES[family]), value=describe_rating(rating), inline=False
            )
    if not found.ratings:
        embed.add_field(name=_("Rating"), value=_("No rated game yet"), inline=False)
    losses = found.games - found.wins - found.draws
    embed.add_field(
        name=_("Games"),
        value=_(
            "{games} played · {wins} won · {draws} drawn · {losses} lost",
            games=found.games,
            wins=found.wins,
            draws=found.draws,
            losses=losses,
        ),
        inline=False,
    )
    if here:
        embed.add_field(
            name=_("Where games count"),
            value=n_(
                "Ratings and results count rated games on every server: {n} game, "
                "{here} of them on this server.",
                "Ratings and results count rated games on every server: {n} games, "
                "{here} of them on this server.",
                found.games,
                here=found.games_here,
            ),
            inline=False,
        )
    earned = ", ".join(_(CARDS[c].name) for c in found.cards)
    points = sum(CARDS[c].points for c in found.cards)
    embed.add_field(
        name=_("Cards earned"),
        value=n_("{cards} ({n} point)", "{cards} ({n} points)", points, cards=earned)
        if earned
        else _("None yet"),
        inline=False,
    )
    flown = ", ".join(times_flown(kind, n) for kind, n in found.manoeuvres)
    embed.add_field(
        name=_("Favourite manoeuvres"), value=flown or _("None flown yet"), inline=False
    )
    return embed


def times_flown(kind: str, n: int) -> str:
    """``12 swoops``: how often a manoeuvre (a step kind of :mod:`rules.steps`) was flown."""
    if kind == steps.CLIMB:
        return n_("{n} climb", "{n} climbs", n)
    if kind == steps.LEVEL:
        return n_("{n} level flight", "{n} level flights", n)
    if kind == steps.LEVEL1:
        return n_("{n} one-cell flight", "{n} one-cell flights", n)
    if kind == steps.SWOOP:
        return n_("{n} swoop", "{n} swoops", n)
    if kind == steps.POWER:
        return n_("{n} power dive", "{n} power dives", n)
    return n_("{n} Immelmann", "{n} Immelmanns", n)


async def setup(bot: CrosshairsBot) -> None:
    add_commands(cards, leaderboard, profile)
