"""The bot's permissions per channel, as a server's moderators set them, and Discord's
refusals when the bot lacks one.

Tests take a permission away with ``world.deny(channel, "attach_files", …)`` (and give it
back with ``world.allow``): the channel then carries a permission overwrite for the bot,
announced with CHANNEL_UPDATE so discord.py's cache computes the same permissions, and
interactions in it carry the bot's ``app_permissions``. A thread has the permissions of
its parent channel, as on Discord. The server's ``@everyone`` role grants everything but
Administrator (an administrator would ignore every overwrite).

A REST call the bot may not make is answered 403 as Discord answers it: ``50001 Missing
Access`` without View Channel, ``50013 Missing Permissions`` otherwise.
"""

from __future__ import annotations

import re

from localcord.records import EVERYONE_PERMISSIONS, PUBLIC_THREAD, Channel
from localcord.state import World

BITS = {
    "administrator": 1 << 3,
    "manage_guild": 1 << 5,
    "view_channel": 1 << 10,
    "send_messages": 1 << 11,
    "embed_links": 1 << 14,
    "attach_files": 1 << 15,
    "read_message_history": 1 << 16,
    "mention_everyone": 1 << 17,
    "manage_threads": 1 << 34,
    "create_public_threads": 1 << 35,
    "send_messages_in_threads": 1 << 38,
}
MEMBER = 1  # overwrite type: a member (0 is a role)

SEND = re.compile(r"^/channels/(\d+)/messages$")
HISTORY = re.compile(r"^/channels/(\d+)/messages(/\d+)?$")
THREAD = re.compile(r"^/channels/(\d+)(/messages/\d+)?/threads$")


def bits(*names: str) -> int:
    total = 0
    for name in names:
        total |= BITS[name]
    return total


def deny(world: World, channel: Channel, *names: str) -> None:
    """Take ``names`` away from the bot in ``channel`` (and its threads)."""
    _set(world, channel, channel.denied | bits(*names))


def allow(world: World, channel: Channel, *names: str) -> None:
    """Give ``names`` back to the bot in ``channel``."""
    _set(world, channel, channel.denied & ~bits(*names))


def _set(world: World, channel: Channel, denied: int) -> None:
    channel.denied = denied
    channel.overwrites = (
        [{"id": str(world.bot.id), "type": MEMBER, "allow": "0", "deny": str(denied)}]
        if denied
        else []
    )
    if world.dispatch is not None:
        world.dispatch("CHANNEL_UPDATE", channel.payload())


def of_bot(world: World, channel: Channel) -> int:
    """The bot's permissions in ``channel`` (a thread's are its parent's)."""
    parent = world.channels.get(channel.parent_id) if channel.parent_id else None
    where = parent if channel.type == PUBLIC_THREAD and parent is not None else channel
    return EVERYONE_PERMISSIONS & ~where.denied


def refusal(
    method: str, path: str, granted: int, in_thread: bool, files: bool
) -> tuple[int, str] | None:
    """Discord's (code, message) for a call the bot may not make with ``granted``, or
    None. ``files``: the call uploads files."""

    def lacks(*names: str) -> bool:
        return any(not granted & BITS[name] for name in names)

    if lacks("view_channel"):
        return 50001, "Missing Access"
    needed: list[str] = []
    if method == "POST" and SEND.match(path):
        needed.append("send_messages_in_threads" if in_thread else "send_messages")
    elif method == "GET" and HISTORY.match(path):
        needed.append("read_message_history")
    elif method == "POST" and THREAD.match(path):
        needed.append("create_public_threads")
    if files and method in ("POST", "PATCH"):
        needed.append("attach_files")
    return (50013, "Missing Permissions") if lacks(*needed) else None
