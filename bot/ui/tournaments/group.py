"""Tournaments in Discord: ``/crosshairs-tournament …``, the registration message with
its buttons, and the desk that opens rounds and books results.

Who may organise: members with the **Manage Server** permission, or with a role named
``Tournament Organiser`` (:data:`ORGANISER_ROLE`, case-insensitive), so a server can
hand events to people it would not trust with its settings. Players need nothing.

The flow (docs/tournaments.md, "Running a tournament in Discord"): ``create`` posts a
registration message with Join, Leave and Check in buttons, and Close check-in and
Start for the organiser. Each round is posted with its pairings, pinging the players;
every pairing's series plays in its own thread through the series desk. When a series
ends, :class:`~bot.ui.tournaments.desk.TournamentDesk` records the result, and when the
round is complete it posts the standings (and the bracket) and opens the next round.

By phase: :mod:`bot.ui.tournaments.registration` (create, the registration buttons),
:mod:`bot.ui.tournaments.desk` (rounds) and :mod:`bot.ui.tournaments.controls` (the
organiser's commands). This module holds the command group, who may organise, and the
commands anyone may use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.services.records import Tournament, TournamentStatus
from bot.services.refusal import Refusal
from bot.services.tournaments.plan import ELIMINATION
from bot.ui.commands import top_level
from bot.ui.context import bot_of
from bot.ui.desks import desks_of
from bot.ui.language import for_everyone
from bot.ui.walls import of_this_server, the_one_here
from i18n import N_, _

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot

ORGANISER_ROLE = "tournament organiser"
# A format as players read it (the stored format is its code).
FORMAT_NAMES = {
    "swiss": N_("Swiss"),
    "round-robin": N_("round robin"),
    "double-round-robin": N_("double round robin"),
    "single": N_("single elimination"),
    "double": N_("double elimination"),
    "arena": N_("arena"),
}

tournament = top_level(
    "crosshairs-tournament", "Crosshairs tournaments: Swiss, round robin, knockout, arena"
)


def is_organiser(interaction: discord.Interaction) -> bool:
    user = interaction.user
    if interaction.permissions.manage_guild:
        return True
    roles = getattr(user, "roles", ())
    return any(role.name.lower() == ORGANISER_ROLE for role in roles)


def require_organiser(interaction: discord.Interaction) -> None:
    if not is_organiser(interaction):
        raise app_commands.CheckFailure(
            _(
                "organising a tournament needs the Manage Server permission "
                "or the Tournament Organiser role"
            )
        )


async def tournament_here(interaction: discord.Interaction, tid: int | None) -> Tournament:
    """The tournament meant: by number, or the one open or running in this server."""
    service = bot_of(interaction).env.tournaments
    if tid is not None:
        found = await service.registration.find(tid)
        return of_this_server(interaction, found, N_("tournament"), tid)
    live = await service.registration.in_guild(
        interaction.guild_id or 0, [TournamentStatus.OPEN, TournamentStatus.RUNNING]
    )
    return the_one_here(
        live,
        N_("no tournament is open or running here"),
        N_("several tournaments are on ({numbers}): give the tournament number"),
    )


@tournament.command(name="standings", description="The standings table as a picture")
@app_commands.describe(tournament_id="Tournament number (default: the one on here)")
async def standings_cmd(interaction: discord.Interaction, tournament_id: int | None = None) -> None:
    found = await tournament_here(interaction, tournament_id)
    await interaction.response.defer(thinking=True)
    desk = desks_of(bot_of(interaction)).tournaments
    with for_everyone(bot_of(interaction), found.guild_id):  # the table is posted for all
        text = await desk.standings_text(found.id)
        file = await desk.standings_file(found.id)
    await interaction.followup.send(text, file=file)


@tournament.command(name="bracket", description="The elimination bracket as a picture")
@app_commands.describe(tournament_id="Tournament number (default: the one on here)")
async def bracket_cmd(interaction: discord.Interaction, tournament_id: int | None = None) -> None:
    found = await tournament_here(interaction, tournament_id)
    if found.format not in ELIMINATION:
        raise Refusal(
            _(
                "{name} has no bracket: it is {format}",
                name=found.name,
                format=_(FORMAT_NAMES[found.format]),
            )
        )
    await interaction.response.defer(thinking=True)
    with for_everyone(bot_of(interaction), found.guild_id):
        file = await desks_of(bot_of(interaction)).tournaments.bracket_file(found.id)
        text = _("**{name}**: the bracket", name=found.name)
    assert file is not None
    await interaction.followup.send(text, file=file)


async def setup(bot: CrosshairsBot) -> None:
    bot.tree.add_command(tournament)
