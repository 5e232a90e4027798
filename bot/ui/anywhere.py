"""Playing where the bot cannot post on its own: a DM or group DM between people, or a
server that has not added the bot, reached through a person's own install of the app
(Discord's user install). There the bot may only answer interactions, so a match lives
in one message — the answer to the challenge — which every press on it brings up to
date: the board, the turn in words and the cockpit of the player to move
(:mod:`bot.ui.anywhere_board`). What needs the bot to post on its own is refused here with
its reason (docs/anywhere.md).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.services.live import LiveMatch
from bot.services.refusal import Refusal
from i18n import N_, _

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot

log = logging.getLogger(__name__)

HERE = N_("Here (a DM, a group DM or a server that has not added me) I can only answer you")
ON_THE_BOARD = N_(
    "{here}, not post on my own: a match here is flown, drawn, resigned and read with "
    "the board message's own menus and buttons."
)
# command (a /crosshairs subcommand or group, or a top-level command) -> why it cannot
# work where the bot cannot post
REFUSED = {
    "move": ON_THE_BOARD,
    "board": ON_THE_BOARD,
    "resign": ON_THE_BOARD,
    "record": ON_THE_BOARD,
    "abort": ON_THE_BOARD,
    "draw": ON_THE_BOARD,
    "takeback": N_("{here}: a takeback needs a message of its own for the others to answer."),
    "replay": N_("{here}: replays are for matches in servers that added me."),
    "analyse": N_("{here}: an analysis is posted in the match's thread, which I cannot open here."),
    "crosshairs-series": N_(
        "{here}: a series starts its next game on its own, so it needs a server that added me."
    ),
    "crosshairs-tournament": N_(
        "{here}: a tournament posts its rounds and standings on its own, so it needs a "
        "server that added me."
    ),
    "play": N_(
        "{here}: quick pairing starts a match on its own when an opponent comes, so it "
        "needs a server that added me."
    ),
    "setup": N_("{here}: the setup check looks at a server's channels."),
}
NO_CLOCK = N_(
    "{here}: a turn clock must post on its own when time runs out, so matches here "
    "have none — leave out `clock`."
)
NO_DAILY = N_("{here}: a daily puzzle is posted on its own, so it needs a server that added me.")


def _refusal(reason: str) -> str:
    return _(reason, here=_(HERE))


def in_guild(client: discord.Client, guild_id: int | None) -> bool:
    """Whether the bot is a member of server ``guild_id``: only there may it post, open
    threads and edit its messages. (The bot's own DM counts as elsewhere: the opponent
    could not see a match there.) Read from the bot's servers rather than the
    interaction's ``authorizing_integration_owners``: the same answer wherever both are
    known, and it holds for a stored match after a restart too."""
    return guild_id is not None and client.get_guild(guild_id) is not None


def posts_on_its_own(interaction: discord.Interaction) -> bool:
    """Whether the bot may post on its own where ``interaction`` comes from."""
    return in_guild(interaction.client, interaction.guild_id)


def is_anywhere(bot: CrosshairsBot, live: LiveMatch) -> bool:
    """Whether ``live`` is played in one message through interactions: it was started
    outside any server the bot is in."""
    return not in_guild(bot, live.record.guild_id)


async def allowed(interaction: discord.Interaction) -> bool:
    """The command tree's check: a command that needs the bot to post on its own is
    refused, with its reason, where the bot cannot."""
    command = interaction.command
    if command is None or posts_on_its_own(interaction):
        return True
    if interaction.type is discord.InteractionType.autocomplete:
        return True  # suggestions take no answer but choices; the command itself is refused
    # "crosshairs setup check" -> "setup", "crosshairs-series start" -> "crosshairs-series":
    # a whole group is refused with one reason
    top, *below = command.qualified_name.split()
    reason = REFUSED.get(top) or (REFUSED.get(below[0]) if below else None)
    if reason is not None:
        raise app_commands.CheckFailure(_refusal(reason))
    return True


def refuse_option(interaction: discord.Interaction, used: bool, reason: str) -> None:
    """Refuse an option (a clock, a daily puzzle) that needs the bot to post on its own,
    where it cannot."""
    if used and not posts_on_its_own(interaction):
        raise Refusal(_refusal(reason))


def refuse_press(interaction: discord.Interaction, command: str) -> None:
    """Refuse a button that does what ``command`` does (an Analyse button is
    ``/crosshairs analyse``), with the command's reason, where the bot cannot post."""
    if not posts_on_its_own(interaction):
        raise app_commands.CheckFailure(_refusal(REFUSED[command]))


def require_attachments(interaction: discord.Interaction) -> None:
    """The board is a picture: where the bot only answers, that is all it needs."""
    if not interaction.app_permissions.attach_files:
        raise Refusal(_refusal(N_("{here}, and here I may not attach the board's picture.")))


def require_public(interaction: discord.Interaction) -> None:
    """In a server that has not added the bot, Discord makes its answers ephemeral for
    someone without Use External Apps there: nobody else would see the match."""
    if interaction.guild_id is not None and not interaction.permissions.use_external_apps:
        raise Refusal(
            _(
                "This server does not let apps it has not added answer for everyone "
                "(**Use External Apps** is off for you here), so nobody else could see "
                "the match. Play in a DM or a group DM, or ask the server's moderators "
                "to add Crosshairs to the server or to allow Use External Apps."
            )
        )


@dataclass(frozen=True)
class Board:
    """A handle that can edit a match's board message for its interaction's 15 minutes:
    the interaction's own message (a press on it, or the answer that became it), or
    ``message_id``, a board the interaction posted as a follow-up (a rematch's)."""

    interaction: discord.Interaction
    message_id: int | None = None

    async def edit(self, **fields: Any) -> discord.Message:
        if self.message_id is None:
            return await self.interaction.edit_original_response(**fields)
        return await self.interaction.followup.edit_message(self.message_id, **fields)


async def setup(bot: CrosshairsBot) -> None:
    # after the tree's own check, which sets the language the refusal is said in
    spoken = bot.tree.interaction_check

    async def check(interaction: discord.Interaction[CrosshairsBot]) -> bool:
        return await spoken(interaction) and await allowed(interaction)

    bot.tree.interaction_check = check  # type: ignore[method-assign]
