"""Whose language the bot speaks (:mod:`i18n`): an answer that only its asker sees is
in their Discord language (``interaction.locale``); a message that everyone in the
channel sees (the challenge, the match thread, its board and turns) is in the server's
(its preferred locale, which Discord also sends as ``interaction.guild_locale``).

Every command and component handler starts speaking its asker's language
(:class:`SpeakingTree` for commands, :func:`bot.ui.errors.guarded` for buttons and
menus); the code that posts for everyone speaks the server's within it
(:func:`for_everyone`)."""

from __future__ import annotations

from contextlib import AbstractContextManager

import discord
from discord import app_commands

from i18n import current, speak, speaking


class SpeakingTree(app_commands.CommandTree[discord.Client]):
    """The command tree that answers every command in its asker's language."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        # runs in the task that then runs the command (and its error handler)
        speak(interaction.locale)
        return True


def server_locale(client: discord.Client, guild_id: int | None) -> discord.Locale | None:
    """The server's preferred locale; None (English) outside a server or one unknown."""
    guild = client.get_guild(guild_id) if guild_id is not None else None
    return guild.preferred_locale if guild is not None else None


def for_everyone(client: discord.Client, guild_id: int | None) -> AbstractContextManager[str]:
    """Speak the server's language within the block: what it posts everyone reads.
    Outside any server the bot is in (a DM, a group DM, a server without the bot:
    :mod:`bot.ui.anywhere`) there is no server's language, and what is shown there is
    shown in answer to someone: it keeps speaking theirs (English when nobody acted)."""
    locale = server_locale(client, guild_id)
    return speaking(current() if locale is None else locale)
