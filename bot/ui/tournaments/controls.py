"""The organiser's controls of a running tournament: pause, resume, drop a player, set or
correct a result, pair the round again, end it."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.services.records import TournamentStatus
from bot.services.tournaments.plan import Advance
from bot.ui.commands import add_commands
from bot.ui.context import bot_of
from bot.ui.desks import desks_of
from bot.ui.language import for_everyone
from bot.ui.text import Picked
from bot.ui.tournaments.group import require_organiser, tournament, tournament_here
from i18n import _

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot


@app_commands.command(name="pause", description="Organiser: open no new round until resumed")
@app_commands.describe(tournament_id="Tournament number")
async def pause(interaction: discord.Interaction, tournament_id: int | None = None) -> None:
    require_organiser(interaction)
    found = await tournament_here(interaction, tournament_id)
    await interaction.response.defer(thinking=True)  # before the write
    await bot_of(interaction).env.tournaments.set_paused(found.id, True)
    with for_everyone(bot_of(interaction), found.guild_id):
        said = _(
            "⏸️ **{name}** is paused: games in play go on, no new round opens.", name=found.name
        )
    await interaction.followup.send(said)


@app_commands.command(name="resume", description="Organiser: carry on a paused tournament")
@app_commands.describe(tournament_id="Tournament number")
async def resume(interaction: discord.Interaction, tournament_id: int | None = None) -> None:
    require_organiser(interaction)
    found = await tournament_here(interaction, tournament_id)
    await interaction.response.defer(thinking=True)
    tournaments = desks_of(bot_of(interaction)).tournaments
    advanced = await tournaments.service.set_paused(found.id, False)
    with for_everyone(bot_of(interaction), found.guild_id):
        said = _("▶️ **{name}** carries on.", name=found.name)
    await interaction.followup.send(said)
    await tournaments.publish(found.id, advanced)


@app_commands.command(name="drop", description="Organiser: take a player out of the tournament")
@app_commands.describe(player="Who is dropped", tournament_id="Tournament number")
async def drop(
    interaction: discord.Interaction, player: discord.User, tournament_id: int | None = None
) -> None:
    require_organiser(interaction)
    found = await tournament_here(interaction, tournament_id)
    await interaction.response.defer(thinking=True)
    tournaments = desks_of(bot_of(interaction)).tournaments
    updates = await tournaments.service.drop(found.id, player.id)
    with for_everyone(bot_of(interaction), found.guild_id):
        said = _(
            "{player} is dropped from **{name}**; an unfinished pairing is "
            "forfeited to their opponent.",
            player=player.mention,
            name=found.name,
        )
    await interaction.followup.send(said)
    await tournaments.after_results(found.id, updates)


@app_commands.command(name="result", description="Organiser: set or correct a pairing's result")
@app_commands.describe(
    player="One player of the pairing",
    opponent="The other player",
    outcome="Who won",
    tournament_id="Tournament number",
)
@app_commands.choices(
    outcome=[
        app_commands.Choice(name="player won", value="player"),
        app_commands.Choice(name="opponent won", value="opponent"),
        app_commands.Choice(name="draw", value="draw"),
    ]
)
async def result(
    interaction: discord.Interaction,
    player: discord.User,
    opponent: discord.User,
    outcome: Picked,
    tournament_id: int | None = None,
) -> None:
    require_organiser(interaction)
    found = await tournament_here(interaction, tournament_id)
    winner = {"player": player.id, "opponent": opponent.id}.get(outcome)
    await interaction.response.defer(thinking=True)
    tournaments = desks_of(bot_of(interaction)).tournaments
    round_no, updates = await tournaments.service.set_result(
        found.id, player.id, opponent.id, winner
    )
    with for_everyone(bot_of(interaction), found.guild_id):
        values = {"round": round_no, "player": player.mention, "opponent": opponent.mention}
        said = (
            _("📝 Round {round}: {player} v {opponent} is drawn.", **values)
            if winner is None
            else _(
                "📝 Round {round}: {player} v {opponent} is won by {winner}.",
                **values,
                winner=f"<@{winner}>",
            )
        )
    await interaction.followup.send(said)
    await tournaments.after_results(found.id, updates)


@app_commands.command(name="repair", description="Organiser: pair the current round again")
@app_commands.describe(tournament_id="Tournament number")
async def repair(interaction: discord.Interaction, tournament_id: int | None = None) -> None:
    require_organiser(interaction)
    found = await tournament_here(interaction, tournament_id)
    await interaction.response.defer(thinking=True)
    tournaments = desks_of(bot_of(interaction)).tournaments
    advanced = await tournaments.service.repair(found.id)
    with for_everyone(bot_of(interaction), found.guild_id):
        said = _("🔀 **{name}**: the round is paired again.", name=found.name)
    await interaction.followup.send(said)
    await tournaments.publish(found.id, advanced)


@app_commands.command(name="end", description="Organiser: end the tournament now")
@app_commands.describe(tournament_id="Tournament number")
async def end(interaction: discord.Interaction, tournament_id: int | None = None) -> None:
    require_organiser(interaction)
    found = await tournament_here(interaction, tournament_id)
    await interaction.response.defer(thinking=True)
    tournaments = desks_of(bot_of(interaction)).tournaments
    await tournaments.service.end(found.id)
    with for_everyone(bot_of(interaction), found.guild_id):
        said = _("🛑 **{name}** is over.", name=found.name)
    await interaction.followup.send(said)
    if found.status is TournamentStatus.RUNNING:
        await tournaments.publish(found.id, Advance([], True))


async def setup(bot: CrosshairsBot) -> None:
    add_commands(pause, resume, drop, result, repair, end, to=tournament)
