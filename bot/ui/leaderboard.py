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

from bot.services import workers
from bot.services.pictures import cards_words
from bot.services.rating_service import RatingService, describe_rating, shown_rating
from bot.ui.commands import add_commands
from bot.ui.context import bot_of
from bot.ui.files import picture
from competition.ratings import FAMILIES, FAMILY_TITLES
from render.cards import cards_png
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
    title = "Crosshairs achievement cards"
    png = await workers.current().run(cards_png, list(CARDS.values()), title=title)
    lines = [f"**{c.name}** ({c.points}) — {c.rule}" for c in CARDS.values()]
    lines.append(
        "In a series the first to meet an unclaimed card's condition claims it; the game's "
        "winner keeps their claims and the others go back to the pool. Most points wins."
    )
    await interaction.followup.send(
        "\n".join(lines), file=picture(png, "cards.png", cards_words(CARDS.values(), title))
    )


@app_commands.command(name="leaderboard", description="The best rated players of a mode family")
@app_commands.describe(mode="Duels (default), free-for-all, Circle of Death or team games")
@app_commands.choices(mode=FAMILY_CHOICES)
async def leaderboard(interaction: discord.Interaction, mode: str = "duel") -> None:
    entries = await _ratings(interaction).leaderboard(mode, limit=15, guild_id=interaction.guild_id)
    embed = discord.Embed(
        title=f"🏆 Leaderboard · {FAMILY_TITLES[mode]}", colour=discord.Colour.gold()
    )
    where = "this server" if interaction.guild_id is not None else "anywhere"
    if not entries:
        embed.description = f"Nobody has played a rated game on {where} yet."
    else:
        lines = []
        for place, entry in enumerate(entries, start=1):
            medal = (
                MEDALS[place - 1] if place <= 3 and not entry.rating.provisional else f"{place}."
            )
            games = entry.rating.games
            lines.append(
                f"{medal} **{entry.name}** — {shown_rating(entry.rating)} "
                f"({games} game{'s' if games != 1 else ''})"
            )
        embed.description = "\n".join(lines)
        embed.set_footer(
            text=f"Players with a rated game on {where}. A rating is one skill estimate "
            "counting rated games on every server; everyone starts at 1500. '?' marks a "
            "provisional rating (too few games yet), listed after the settled ones."
        )
    await interaction.response.send_message(embed=embed)


@app_commands.command(name="profile", description="A player's ratings, results and achievements")
@app_commands.describe(player="Whose profile (default: yours)")
async def profile(interaction: discord.Interaction, player: discord.User | None = None) -> None:
    who = player or interaction.user
    found = await _ratings(interaction).profile(who.id, interaction.guild_id)
    embed = discord.Embed(title=f"✈️ {who.display_name}", colour=discord.Colour.blurple())
    for family in FAMILIES:
        rating = found.ratings.get(family)
        if rating is not None:
            embed.add_field(name=FAMILY_TITLES[family], value=describe_rating(rating), inline=False)
    if not found.ratings:
        embed.add_field(name="Rating", value="No rated game yet", inline=False)
    losses = found.games - found.wins - found.draws
    embed.add_field(
        name="Games",
        value=f"{found.games} played · {found.wins} won · {found.draws} drawn · {losses} lost",
        inline=False,
    )
    if interaction.guild_id is not None:
        embed.add_field(
            name="Where games count",
            value=f"Ratings and results count rated games on every server; "
            f"{found.games_here} of these {found.games} games were played on this server.",
            inline=False,
        )
    earned = ", ".join(CARDS[c].name for c in found.cards)
    points = sum(CARDS[c].points for c in found.cards)
    embed.add_field(
        name="Cards earned",
        value=f"{earned} ({points} points)" if earned else "None yet",
        inline=False,
    )
    flown = ", ".join(f"{name} ×{n}" for name, n in found.manoeuvres)
    embed.add_field(name="Favourite manoeuvres", value=flown or "None flown yet", inline=False)
    await interaction.response.send_message(embed=embed)


async def setup(bot: CrosshairsBot) -> None:
    add_commands(cards, leaderboard, profile)
