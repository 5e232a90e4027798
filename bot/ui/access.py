"""What the bot must be allowed to do where a match is played, checked before it starts.

A match lives in a thread of the text channel where it was asked for: the bot posts
there, opens a public thread, posts the board (a picture) in it and reads it back. If a
server's moderators took one of those away, the bot says so plainly — which permission,
what for, and who can grant it — and where the channel is of a kind that cannot hold a
match (a forum post, an announcement channel, a voice channel's chat, a private thread)
it names a text channel to use instead, instead of half-starting a match it cannot show.
``/crosshairs setup check`` (bot/ui/setup_check.py) lists, for an admin, what the bot
lacks in each channel. The permissions come from the invite link's list (bot/invite.py).
"""

from __future__ import annotations

import discord

from bot.invite import USES, Use
from bot.services.refusal import Refusal
from bot.ui import anywhere
from i18n import N_, _

# what a match needs where it is asked for (Manage Threads only reopens a closed thread;
# without Create Private Threads a team game has no team rooms; Create Events only lists
# tournaments in the server's events)
OPTIONAL = ("manage_threads", "create_private_threads", "create_events")
NEEDED: dict[str, Use] = {use.attr: use for use in USES if use.attr not in OPTIONAL}
ROOMS = next(use for use in USES if use.attr == "create_private_threads")
# lost with Send Messages (Discord's "implicit permissions"): granting it brings them back
IMPLIED_BY_SENDING = ("attach_files", "embed_links")
WHO_GRANTS = N_(
    "Someone who can manage this channel (a moderator, an admin or the server owner) can "
    "grant them under the channel's **Edit Channel → Permissions** for Crosshairs."
)


def lacking(granted: discord.Permissions, why: bool = False) -> list[str]:
    """The permissions a match needs that ``granted`` does not include, by their names
    (``why``: each followed by what the bot needs it for). Without View Channel nothing
    else counts, and without Send Messages neither do those it implies."""
    if not granted.view_channel:
        missing = ["view_channel"]
    else:
        missing = [attr for attr in NEEDED if not getattr(granted, attr)]
        if not granted.send_messages:
            missing = [attr for attr in missing if attr not in IMPLIED_BY_SENDING]
    if not why:
        return [_(NEEDED[attr].name) for attr in missing]
    return [
        _("{name} (to {what})", name=_(NEEDED[a].name), what=_(NEEDED[a].purpose)) for a in missing
    ]


def _kind_of_place(channel: object) -> str | None:
    """What kind of place ``channel`` is, said as a noun, if a match cannot live there;
    None for a text channel and a public thread of one."""
    if isinstance(channel, discord.TextChannel):
        return N_("an announcement channel") if channel.is_news() else None
    if isinstance(channel, discord.Thread):
        parent = channel.parent
        if isinstance(parent, discord.ForumChannel):
            return N_("a forum post")
        if channel.type is discord.ChannelType.private_thread:
            return N_("a private thread")
        if channel.type is discord.ChannelType.news_thread:
            return N_("an announcement channel")
        return None
    if isinstance(channel, discord.VoiceChannel | discord.StageChannel):
        return N_("a voice channel's chat")
    return N_("this kind of channel")


def _text_channel_for(interaction: discord.Interaction) -> discord.TextChannel | None:
    """A text channel of the server where the person and the bot could play now."""
    guild, user = interaction.guild, interaction.user
    if guild is None or not isinstance(user, discord.Member):
        return None
    for channel in sorted(guild.text_channels, key=lambda c: c.position):
        if channel.is_news() or not channel.permissions_for(user).view_channel:
            continue
        if not lacking(channel.permissions_for(guild.me)):
            return channel
    return None


def require_place(interaction: discord.Interaction) -> None:
    """Refuse a match in a place that cannot hold one, saying where to start it."""
    kind = _kind_of_place(interaction.channel)
    if kind is None:
        return
    said = _(
        "I can't run a match in {kind}: I play each match in a thread I open in a text channel.",
        kind=_(kind),
    )
    there = _text_channel_for(interaction)
    if there is not None:
        hint = _("Use this command in {channel}.", channel=there.mention)
    else:
        hint = _("Use this command in a text channel of this server.")
    raise Refusal(f"{said} {hint}")


def require_play(interaction: discord.Interaction) -> None:
    """Refuse, before anything is posted or stored, to start a match where the bot could
    not show it."""
    if not anywhere.posts_on_its_own(interaction):  # it answers there: no thread, no post
        anywhere.require_public(interaction)
        anywhere.require_attachments(interaction)
        return
    require_place(interaction)
    missing = lacking(interaction.app_permissions, why=True)
    if missing:
        where = getattr(interaction.channel, "mention", None) or _("this channel")
        said = _(
            "I can't run a match in {where}: I'm missing {missing}.",
            where=where,
            missing=", ".join(missing),
        )
        raise Refusal(f"{said} {_(WHO_GRANTS)}")
