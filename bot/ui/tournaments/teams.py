"""Entering a team event: ``/crosshairs-tournament team`` (the captain names the other
members) posts an invitation with Accept and Decline buttons; once every member has
accepted, the team is entered. The buttons' ids carry the event and the captain, so they
work after a restart; two presses at once are settled by the stored claim (the service's
conditional update), so a team is entered once."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.ui.commands import add_commands
from bot.ui.components import components
from bot.ui.context import bot_of
from bot.ui.errors import guarded
from bot.ui.language import for_everyone
from bot.ui.text import name_of
from bot.ui.tournaments.group import tournament, tournament_here
from i18n import _

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot


def invitation_view(tid: int, captain: int) -> discord.ui.View:
    view = components()
    for op in ("accept", "decline"):
        view.add_item(TeamButton(tid, captain, op))
    return view


class TeamButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"xh:tt:(?P<tid>\d+):(?P<captain>\d+):(?P<op>accept|decline)",
):
    def __init__(self, tid: int, captain: int, op: str) -> None:
        label, style = (
            (_("Accept"), discord.ButtonStyle.success)
            if op == "accept"
            else (_("Decline"), discord.ButtonStyle.secondary)
        )
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=f"xh:tt:{tid}:{captain}:{op}")
        )
        self.tid, self.captain, self.op = tid, captain, op

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TeamButton:
        return cls(int(match["tid"]), int(match["captain"]), match["op"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, self._press(interaction))

    async def _press(self, interaction: discord.Interaction) -> None:
        service = bot_of(interaction).env.tournaments
        user = interaction.user
        guild = interaction.guild_id
        if self.op == "decline":
            await service.decline_team(self.tid, guild, self.captain, user.id)
            with for_everyone(bot_of(interaction), guild):
                said = _(
                    "{who} declined: {captain}'s team is called off.",
                    who=user.mention,
                    captain=f"<@{self.captain}>",
                )
            await interaction.response.send_message(said)
            return
        entered = await service.accept_team(self.tid, guild, self.captain, user.id)
        if entered:
            t = await service.get(self.tid)
            with for_everyone(bot_of(interaction), guild):
                said = _(
                    "✅ {captain}'s team is complete and entered in **{name}**.",
                    captain=f"<@{self.captain}>",
                    name=t.name,
                )
            await interaction.response.send_message(said)
        else:
            await interaction.response.send_message(
                _("✅ Accepted. The team enters once everyone has."), ephemeral=True
            )


@app_commands.command(name="team", description="Captain: enter a team in a team event")
@app_commands.describe(
    partner="A team-mate", partner2="A third team-mate (3v3)", tournament_id="Tournament number"
)
async def team(
    interaction: discord.Interaction,
    partner: discord.User,
    partner2: discord.User | None = None,
    tournament_id: int | None = None,
) -> None:
    found = await tournament_here(interaction, tournament_id)
    others = [p for p in (partner, partner2) if p is not None]
    captain = interaction.user
    await bot_of(interaction).env.tournaments.form_team(
        found.id,
        interaction.guild_id,
        (captain.id, name_of(captain)),
        [(p.id, name_of(p)) for p in others],
    )
    invited = " ".join(p.mention for p in others)
    with for_everyone(bot_of(interaction), found.guild_id):  # the invitation is public
        said = _(
            "👥 {captain} invites {invited} to make a team for **{name}**: "
            "press **Accept** to join it.",
            captain=captain.mention,
            invited=invited,
            name=found.name,
        )
        view = invitation_view(found.id, captain.id)
    await interaction.response.send_message(said, view=view)


async def setup(bot: CrosshairsBot) -> None:
    add_commands(team, to=tournament)
    bot.add_dynamic_items(TeamButton)
