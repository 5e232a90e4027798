"""Permissions in a channel, computed as Discord computes them (localcord/roles.py), and
Discord's refusals of what the bot may not do.

Each guild has its ``@everyone`` role, a Members role and the bot's managed role holding
exactly its invite link's permissions (localcord/state.py). Tests change a channel as a
server's moderators do: ``deny(world, channel, "attach_files", …)`` (and ``allow``) sets
the bot's own member overwrite there, ``overwrite(world, channel, role, deny=…)`` a
role's; either is announced with CHANNEL_UPDATE so discord.py's cache computes the same
permissions, and interactions carry the bot's ``app_permissions`` and the member's own.
A thread has its parent channel's permissions, with Send Messages in Threads for sending;
a private thread is seen only by those added to it and by Manage Threads.

A REST call the bot may not make is answered 403 as Discord answers it: ``50001 Missing
Access`` without View Channel, ``50013 Missing Permissions`` otherwise; a call the
channel's type does not take, 400 ``50008``/``50024``.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from localcord import roles
from localcord.records import (
    ANNOUNCEMENT_CHANNEL,
    FORUM_CHANNEL,
    PRIVATE_THREAD,
    THREADS,
    VOICE_CHANNEL,
    Channel,
)
from localcord.roles import MEMBER, ROLE, Role
from localcord.state import World

BITS = {
    "administrator": roles.ADMINISTRATOR,
    "manage_guild": roles.MANAGE_GUILD,
    "add_reactions": 1 << 6,
    "view_channel": roles.VIEW_CHANNEL,
    "send_messages": roles.SEND_MESSAGES,
    "embed_links": roles.EMBED_LINKS,
    "attach_files": roles.ATTACH_FILES,
    "read_message_history": 1 << 16,
    "mention_everyone": roles.MENTION_EVERYONE,
    "manage_threads": roles.MANAGE_THREADS,
    "create_public_threads": roles.CREATE_PUBLIC_THREADS,
    "create_private_threads": roles.CREATE_PRIVATE_THREADS,
    "send_messages_in_threads": roles.SEND_MESSAGES_IN_THREADS,
    "use_embedded_activities": roles.USE_EMBEDDED_ACTIVITIES,
    "use_external_apps": roles.USE_EXTERNAL_APPS,
    "manage_events": roles.MANAGE_EVENTS,
    "create_events": roles.CREATE_EVENTS,
}


class Route(NamedTuple):
    method: str
    path: re.Pattern[str]
    channel: tuple[str, ...]  # what Discord asks of a caller in a channel (and View Channel)
    thread: tuple[str, ...]  # in a thread


def _route(method: str, path: str, channel: tuple[str, ...] = (), thread: str = "") -> Route:
    return Route(method, re.compile(path), channel, (thread,) if thread else channel)


SENDS = ("send_messages",)
IN_THREADS = "send_messages_in_threads"
# Every channel route localcord answers. Editing or deleting its own message needs only
# View Channel; PATCH of a thread reopens it (localcord/threads.py asks Send Messages in
# Threads or Manage Threads, as the thread is archived or locked).
ROUTES = (
    _route("POST", r"^/channels/\d+/messages$", SENDS, IN_THREADS),
    _route("GET", r"^/channels/\d+/messages(/\d+)?$", ("read_message_history",)),
    _route("PATCH", r"^/channels/\d+/messages/\d+$"),
    _route("DELETE", r"^/channels/\d+/messages/\d+$"),
    _route("POST", r"^/channels/\d+(/messages/\d+)?/threads$", ("create_public_threads",)),
    _route("PATCH", r"^/channels/\d+$"),
    _route("GET", r"^/channels/\d+$"),
    _route("PUT", r"^/channels/\d+/thread-members/@me$"),
    _route("PUT", r"^/channels/\d+/thread-members/\d+$", thread=IN_THREADS),
    _route("POST", r"^/channels/\d+/typing$", SENDS, IN_THREADS),
)
HISTORY = ROUTES[1].path
THREAD = ROUTES[4].path


def bits(*names: str) -> int:
    total = 0
    for name in names:
        total |= BITS[name]
    return total


def names_of(granted: int) -> set[str]:
    return {name for name, bit in BITS.items() if granted & bit}


def needed(method: str, path: str, in_thread: bool) -> tuple[str, ...] | None:
    """What Discord asks of a caller of this channel route (None: not a channel route
    localcord knows)."""
    for route in ROUTES:
        if route.method == method and route.path.match(path):
            return route.thread if in_thread else route.channel
    return None


def deny(world: World, channel: Channel, *names: str) -> None:
    """Take ``names`` away from the bot in ``channel`` (and its threads)."""
    allowed, denied = roles.overwrite_of(channel.overwrites, world.bot.id)
    _set(world, channel, world.bot.id, MEMBER, allowed & ~bits(*names), denied | bits(*names))


def allow(world: World, channel: Channel, *names: str) -> None:
    """Give ``names`` back to the bot in ``channel`` (its overwrite no longer denies them)."""
    allowed, denied = roles.overwrite_of(channel.overwrites, world.bot.id)
    _set(world, channel, world.bot.id, MEMBER, allowed, denied & ~bits(*names))


def overwrite(world: World, channel: Channel, role: Role, *, allow: int = 0, deny: int = 0) -> None:
    """Set ``role``'s overwrite in ``channel``, as a moderator does in its settings."""
    _set(world, channel, role.id, ROLE, allow, deny)


def _set(world: World, channel: Channel, target: int, kind: int, allowed: int, denied: int) -> None:
    roles.set_overwrite(channel.overwrites, target, kind, allowed, denied)
    if world.dispatch is not None:
        world.dispatch("CHANNEL_UPDATE", channel.payload())


def of(world: World, user_id: int, channel: Channel) -> int:
    """``user_id``'s permissions in ``channel`` (a thread's come from its parent)."""
    server = world.servers.get(channel.guild_id)
    if server is None:  # a DM has no permissions to lack (nor an administrator)
        return roles.ALL & ~roles.ADMINISTRATOR
    parent = world.channels.get(channel.parent_id) if channel.parent_id else None
    if channel.type not in THREADS or parent is None:
        return server.in_channel(user_id, channel.overwrites)
    granted = server.in_channel(user_id, parent.overwrites, thread=True)
    if channel.type == PRIVATE_THREAD and not (
        user_id in channel.members or granted & roles.MANAGE_THREADS
    ):
        return 0
    return granted


def sees(world: World, user_id: int, channel: Channel) -> bool:
    """Whether ``user_id`` may see ``channel`` and read it (a private thread: a member,
    or Manage Threads)."""
    return bool(of(world, user_id, channel) & roles.VIEW_CHANNEL)


def of_bot(world: World, channel: Channel) -> int:
    """The bot's permissions in ``channel``."""
    return of(world, world.bot.id, channel)


def refusal(
    method: str, path: str, granted: int, channel: Channel, files: bool
) -> tuple[int, int, str] | None:
    """Discord's (status, code, message) for a call the bot may not make in ``channel``
    with ``granted``, or None. ``files``: the call uploads files."""
    if not granted & roles.VIEW_CHANNEL:
        return 403, 50001, "Missing Access"
    if method == "POST" and path.endswith("/messages") and channel.type == FORUM_CHANNEL:
        return 400, 50008, "Cannot send messages in a non-text channel"
    if method == "POST" and THREAD.match(path) and _no_threads(channel):
        return 400, 50024, "Cannot execute action on this channel type"
    names = list(needed(method, path, channel.type in THREADS) or ())
    if files and method in ("POST", "PATCH"):
        names.append("attach_files")
    if any(not granted & BITS[name] for name in names):
        return 403, 50013, "Missing Permissions"
    return None


def _no_threads(channel: Channel) -> bool:
    """A public thread cannot be made in a thread or a voice channel's chat, nor in an
    announcement channel (its threads are announcement threads, type 10)."""
    return channel.type in (*THREADS, VOICE_CHANNEL, ANNOUNCEMENT_CHANNEL)
