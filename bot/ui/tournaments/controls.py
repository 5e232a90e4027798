"""The organiser's controls of a running tournament: pause, resume, drop a player, set or
correct a result, pair the round again, end it; before it starts, move its start time."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.services.records import Tournament, TournamentStatus
from bot.services.tournaments.plan import Advance
from bot.ui.commands import add_commands
from bot.ui.context import bot_of
from bot.ui.desks import desks_of
from bot.ui.language import for_everyone
from bot.ui.text import Picked
from bot.ui.tournaments.group import require_organiser, tournament, tournament_here
from i18n import N_, _

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot
    from bot.ui.tournaments.desk import TournamentDesk


async def _organised(
    interaction: discord.Interaction, tournament_id: int | None
) -> tuple[Tournament, TournamentDesk]:
    """The tournament an organiser's command is about, once the command is answered
    (before it writes anything), and the desk that posts what it changes."""
    require_organiser(interaction)
    found = await tournament_here(interaction, tournament_id)
    await interaction.response.defer(thinking=True)
    return found, desks_of(bot_of(interaction)).tournaments


async def _tell(
    interaction: discord.Interaction, found: Tournament, said: str, **values: object
) -> None:
    """Answer the organiser with what changed (``said``, marked text, its ``{name}`` the
    tournament's), in the server's language: all see it."""
    with for_everyone(bot_of(interaction), found.guild_id):
        words = _(said, name=found.name, **values)
    await interaction.followup.send(words)


@app_commands.command(name="pause", description="Organiser: open no new round until resumed")
@app_commands.describe(tournament_id="Tournament number")
async def pause(interaction: discord.Interaction, tournament_id: int | None = None) -> None:
    found, tournaments = await _organised(interaction, tournament_id)
    await tournaments.service.controls.set_paused(found.id, True)
    await _tell(
        interaction,
        found,
        N_("⏸️ **{name}** is paused: games in play go on, no new round opens."),
    )


@app_commands.command(name="resume", description="Organiser: carry on a paused tournament")
@app_commands.describe(tournament_id="Tournament number")
async def resume(interaction: discord.Interaction, tournament_id: int | None = None) -> None:
    found, tournaments = await _organised(interaction, tournament_id)
    advanced = await tournaments.service.controls.set_paused(found.id, False)
    await _tell(interaction, found, N_("▶️ **{name}** carries on."))
    await tournaments.publish(found.id, advanced)


@app_commands.command(name="drop", description="Organiser: take a player out of the tournament")
@app_commands.describe(player="Who is dropped", tournament_id="Tournament number")
async def drop(
    interaction: discord.Interaction, player: discord.User, tournament_id: int | None = None
) -> None:
    found, tournaments = await _organised(interaction, tournament_id)
    updates = await tournaments.service.controls.drop(found.id, player.id)
    said = N_(
        "{player} is dropped from **{name}**; an unfinished pairing is forfeited to their opponent."
    )
    await _tell(interaction, found, said, player=player.mention)
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
    found, tournaments = await _organised(interaction, tournament_id)
    winner = {"player": player.id, "opponent": opponent.id}.get(outcome)
    round_no, updates = await tournaments.service.controls.set_result(
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
    found, tournaments = await _organised(interaction, tournament_id)
    advanced = await tournaments.service.controls.repair(found.id)
    await _tell(interaction, found, N_("🔀 **{name}**: the round is paired again."))
    await tournaments.publish(found.id, advanced)


@app_commands.command(name="end", description="Organiser: end the tournament now")
@app_commands.describe(tournament_id="Tournament number")
async def end(interaction: discord.Interaction, tournament_id: int | None = None) -> None:
    found, tournaments = await _organised(interaction, tournament_id)
    await tournaments.service.controls.end(found.id)
    await _tell(interaction, found, N_("🛑 **{name}** is over."))
    if found.status is TournamentStatus.RUNNING:
        await tournaments.publish(found.id, Advance([], True))


@app_commands.command(name="reschedule", description="Organiser: move the start time")
@app_commands.describe(
    start_in="Start in this many minutes from now", tournament_id="Tournament number"
)
async def reschedule(
    interaction: discord.Interaction,
    start_in: app_commands.Range[int, 1, 10080],
    tournament_id: int | None = None,
) -> None:
    require_organiser(interaction)
    found = await tournament_here(interaction, tournament_id)
    await interaction.response.defer(thinking=True)
    bot = bot_of(interaction)
    start_at = bot.env.clock.now() + start_in * 60
    moved = await bot.env.tournaments.controls.move_start(found.id, start_at)
    with for_everyone(bot, found.guild_id):
        said = _("📅 **{name}** now starts {when}.", name=moved.name, when=f"<t:{int(start_at)}:R>")
    await interaction.followup.send(said)


async def setup(bot: CrosshairsBot) -> None:
    add_commands(pause, resume, drop, result, repair, end, reschedule, to=tournament)
