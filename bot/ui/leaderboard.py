"""``/crosshairs cards``, ``/crosshairs leaderboard`` and ``/crosshairs profile``.

Ratings come from :class:`bot.services.rating_service.Ratings`; every number a
player sees is the display rating (the skill estimate, 1500 to start), with a ``?`` while
it is provisional; only the profile adds μ and σ for the curious (docs/ratings.md).
Ratings are global; the leaderboard lists the players of the server it is asked in.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.services import jobs
from bot.services.palettes import person_theme
from bot.services.pictures import cards_words
from bot.services.rating_service import (
    BoardEntry,
    Profile,
    Ratings,
    describe_rating,
    shown_rating,
)
from bot.services.rating_story import Story, head_to_head, story
from bot.ui.commands import add_commands
from bot.ui.context import bot_of
from bot.ui.files import picture
from bot.ui.language import for_everyone
from bot.ui.text import Picked, name_of
from competition.ratings import FAMILIES, FAMILY_TITLES
from i18n import _, current, n_
from rules.achievements import CARDS
from rules.words import manoeuvres

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot
FAMILY_CHOICES = [app_commands.Choice(name=FAMILY_TITLES[f], value=f) for f in FAMILIES]
MEDALS = ("🥇", "🥈", "🥉")


def _ratings(interaction: discord.Interaction) -> Ratings:
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
    png = await bot_of(interaction).workers.run(
        jobs.draw_cards, tuple(CARDS.values()), title, language
    )
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
@app_commands.describe(
    player="Whose profile (default: yours)", opponent="Their record against this player"
)
async def profile(
    interaction: discord.Interaction,
    player: discord.User | None = None,
    opponent: discord.User | None = None,
) -> None:
    who = player or interaction.user
    await interaction.response.defer(thinking=True)
    bot = bot_of(interaction)
    found = await _ratings(interaction).profile(who.id, interaction.guild_id)
    told = await story(bot.env.db, who.id)
    against = None if opponent is None else await head_to_head(bot.env.db, who.id, opponent.id)
    theme = await person_theme(bot.env.stores.palettes, interaction.user.id, interaction.guild_id)
    with for_everyone(bot, interaction.guild_id):
        embed = profile_embed(name_of(who), found, here=interaction.guild_id is not None)
        tell_story(embed, told)
        if opponent is not None and against is not None:
            embed.add_field(
                name=_("Against {name}", name=name_of(opponent)),
                value=_(
                    "{won} won · {lost} lost · {other} drawn or won by neither",
                    won=against.won,
                    lost=against.lost,
                    other=against.other,
                ),
                inline=False,
            )
        if not told.history:
            await interaction.followup.send(embed=embed)
            return
        title = _("{name}'s rating", name=name_of(who))
        lines = [(_(FAMILY_TITLES[f]), points) for f, points in told.history.items()]
        words = history_words(title, lines)
        language = current()
    png = await bot.workers.run(jobs.draw_rating_chart, title, lines, language, theme)
    embed.set_image(url="attachment://rating.png")
    await interaction.followup.send(embed=embed, file=picture(png, "rating.png", words))


def history_words(title: str, lines: Sequence[tuple[str, Sequence[int]]]) -> str:
    """The rating picture in words: each kind of game's first and latest rating."""
    told = [
        n_(
            "{kind}: {first} to {last} over {n} rated game",
            "{kind}: {first} to {last} over {n} rated games",
            len(points) - 1,
            kind=kind,
            first=points[0],
            last=points[-1],
        )
        for kind, points in lines
    ]
    return f"{title}. " + "; ".join(told) + "."


def tell_story(embed: discord.Embed, told: Story) -> None:
    """The best win and the win streaks, under the profile's other fields."""
    best = told.best_win
    embed.add_field(
        name=_("Best win"),
        value=_(
            "{name} ({rating}) in match #{id}", name=best.name, rating=best.rating, id=best.match_id
        )
        if best is not None
        else _("No rated win yet"),
        inline=False,
    )
    embed.add_field(
        name=_("Win streak"),
        value=_("{now} now · longest {longest}", now=told.streak, longest=told.longest),
        inline=False,
    )


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
    flown = ", ".join(manoeuvres.times_flown(kind, n) for kind, n in found.manoeuvres)
    embed.add_field(
        name=_("Favourite manoeuvres"), value=flown or _("None flown yet"), inline=False
    )
    return embed


async def setup(bot: CrosshairsBot) -> None:
    add_commands(cards, leaderboard, profile)
