"""Servers as communities run them, for tests: moderators, a locked-down community, slow
mode, forum and announcement channels, a voice channel's chat, a private thread the bot
was not added to, and servers turning Activities or Use External Apps off.

Each changes the world as a moderator would in Discord's settings and announces it as
Discord does (GUILD_ROLE_CREATE/UPDATE, CHANNEL_CREATE/UPDATE, THREAD_CREATE), so a
running bot sees the same server discord.py would.
"""

from __future__ import annotations

from localcord import roles
from localcord.records import (
    ANNOUNCEMENT_CHANNEL,
    FORUM_CHANNEL,
    PRIVATE_THREAD,
    VOICE_CHANNEL,
    Channel,
    User,
)
from localcord.roles import Role, Server
from localcord.state import World

# what a community's moderators hold
MODERATING = roles.MANAGE_GUILD | roles.MANAGE_MESSAGES | roles.MANAGE_THREADS
# what a locked-down community takes from everyone (its own roles give some of it back)
LOCKED = (
    roles.ATTACH_FILES
    | roles.EMBED_LINKS
    | roles.CREATE_PUBLIC_THREADS
    | roles.CREATE_PRIVATE_THREADS
)


def _server(world: World, guild_id: int | None) -> Server:
    return world.servers[guild_id or world.guild_id]


def moderator(world: World, user: User, guild_id: int | None = None) -> None:
    """Make ``user`` a moderator (Manage Server, Messages and Threads) of the guild."""
    server = _server(world, guild_id)
    found = next((r for r in server.roles.values() if r.name == "Moderators"), None)
    if found is None:
        found = server.add_role(Role(world.ids.next(), "Moderators", MODERATING))
        _announce(world, server, found, "GUILD_ROLE_CREATE")
    server.give(user.id, found)


def take_from_everyone(world: World, taken: int, guild_id: int | None = None) -> None:
    """Take ``taken`` from every role that is not a moderator's or a bot's, as a server
    that locks itself down does (the bot's own role keeps its invite's permissions)."""
    server = _server(world, guild_id)
    for role in server.roles.values():
        if role.bot_id is None and role.name != "Moderators" and role.permissions & taken:
            role.permissions &= ~taken
            _announce(world, server, role, "GUILD_ROLE_UPDATE")


def locked_down(world: World, guild_id: int | None = None) -> None:
    """A community where people may not attach files, embed links or make threads."""
    take_from_everyone(world, LOCKED, guild_id)


def take_from_bot(world: World, taken: int, guild_id: int | None = None) -> None:
    """Take ``taken`` from the bot's own role, as an admin who unticks a permission of
    Crosshairs' role under Server Settings → Roles does."""
    server = _server(world, guild_id)
    for role in server.roles.values():
        if role.bot_id == world.bot.id:
            role.permissions &= ~taken
            _announce(world, server, role, "GUILD_ROLE_UPDATE")


def new_server(world: World, guild_id: int | None = None) -> None:
    """A server as Discord makes it: ``@everyone`` holds Discord's defaults."""
    server = _server(world, guild_id)
    server.everyone.permissions = roles.NEW_SERVER
    _announce(world, server, server.everyone, "GUILD_ROLE_UPDATE")


def slow_mode(world: World, channel: Channel, seconds: int) -> None:
    """Slow mode: a person may post once per ``seconds`` (bots are unaffected)."""
    channel.slow_mode = seconds
    if world.dispatch is not None:
        world.dispatch("CHANNEL_UPDATE", channel.payload())


def forum_post(world: World, owner: User, name: str = "matches") -> Channel:
    """A post in a new forum channel (a thread of it) opened by ``owner``."""
    forum = world.add_channel(f"{name}-forum", kind=FORUM_CHANNEL)
    return world.add_thread(forum, name, owner)


def announcement(world: World, name: str = "news") -> Channel:
    """An announcement channel."""
    return world.add_channel(name, kind=ANNOUNCEMENT_CHANNEL)


def voice_chat(world: World, name: str = "lounge") -> Channel:
    """A voice channel, whose chat people can use."""
    return world.add_channel(name, kind=VOICE_CHANNEL)


def private_thread(world: World, parent: Channel, owner: User, name: str = "secret") -> Channel:
    """A private thread of ``parent`` that only ``owner`` was added to (not the bot)."""
    return world.add_thread(parent, name, owner, PRIVATE_THREAD)


def _announce(world: World, server: Server, role: Role, event: str) -> None:
    if world.dispatch is not None:
        world.dispatch(event, {"guild_id": str(server.guild_id), "role": role.payload()})
