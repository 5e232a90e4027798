"""What the bot must be allowed to do where a match is played, checked before it starts.

A match lives in a thread of the channel where it was asked for: the bot posts there,
opens a public thread, posts the board (a picture) in it and reads it back. If a server's
moderators took one of those away, the bot says so plainly — which permission, where, and
who can grant it — instead of half-starting a match it cannot show. ``/crosshairs setup
check`` (bot/ui/setup_check.py) lists, for an admin, what the bot lacks in each channel.
"""

from __future__ import annotations

import discord

from bot.services.live import MatchError
from bot.ui import anywhere
from i18n import N_, _

# attribute of discord.Permissions -> the name a server's settings show
# (English, marked for translation: Discord shows them in each reader's language)
NEEDED = {
    "view_channel": N_("View Channel"),
    "send_messages": N_("Send Messages"),
    "create_public_threads": N_("Create Public Threads"),
    "send_messages_in_threads": N_("Send Messages in Threads"),
    "attach_files": N_("Attach Files"),
    "embed_links": N_("Embed Links"),
    "read_message_history": N_("Read Message History"),
}
WHO_GRANTS = N_(
    "Someone who can manage this channel (a moderator, an admin or the server owner) can "
    "grant them under the channel's **Edit Channel → Permissions** for Crosshairs."
)


def lacking(granted: discord.Permissions) -> list[str]:
    """The permissions a match needs that ``granted`` does not include, by their names."""
    return [_(shown) for attr, shown in NEEDED.items() if not getattr(granted, attr)]


def require_play(interaction: discord.Interaction) -> None:
    """Refuse, before anything is posted or stored, to start a match where the bot could
    not show it."""
    if not anywhere.posts_on_its_own(interaction):  # it answers there: no thread, no post
        anywhere.require_attachments(interaction)
        return
    missing = lacking(interaction.app_permissions)
    if missing:
        where = getattr(interaction.channel, "mention", None) or _("this channel")
        said = _(
            "I can't run a match in {where}: I'm missing {missing}.",
            where=where,
            missing=", ".join(missing),
        )
        raise MatchError(f"{said} {_(WHO_GRANTS)}")
