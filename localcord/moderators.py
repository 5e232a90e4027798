"""What a server's moderators and members do that the bot only hears about: deleting a
message, a thread or a channel, archiving or locking a thread, a member leaving, the bot
removed from the server.

Each changes the world as Discord would and sends the bot Discord's gateway event
(MESSAGE_DELETE, THREAD_DELETE, CHANNEL_DELETE, THREAD_UPDATE, GUILD_BAN_ADD,
GUILD_MEMBER_REMOVE, GUILD_DELETE); the REST side then answers as Discord does: a
deleted channel or thread is ``404 10003 Unknown Channel``, a server the bot was removed
from ``403 50001 Missing Access``, a locked thread ``160005 Thread is locked``
(localcord/threads.py).
"""

from __future__ import annotations

from localcord.state import THREADS, Channel, Message, User, World


def delete_message(world: World, message: Message) -> None:
    world.delete(message)


def delete_channel(world: World, channel: Channel) -> None:
    """Delete a channel (with its threads) or a thread."""
    for thread in world.threads_of(channel):
        delete_channel(world, thread)
    world.channels.pop(channel.id, None)
    if world.dispatch is not None:
        if channel.type in THREADS:
            world.dispatch(
                "THREAD_DELETE",
                {
                    "id": str(channel.id),
                    "guild_id": str(channel.guild_id),
                    "parent_id": str(channel.parent_id),
                    "type": channel.type,
                },
            )
        else:
            world.dispatch("CHANNEL_DELETE", channel.payload())
    world.touch(channel.id)


def archive_thread(world: World, thread: Channel, *, locked: bool = False) -> None:
    """Archive ``thread`` (and lock it: then only Manage Threads may reopen it)."""
    set_thread_state(world, thread, archived=True, locked=locked)


def set_thread_state(world: World, thread: Channel, *, archived: bool, locked: bool) -> None:
    thread.archived, thread.locked = archived, locked
    if world.dispatch is not None:
        world.dispatch("THREAD_UPDATE", thread.payload())
    world.touch(thread.id)


def remove_member(world: World, user: User, guild_id: int | None = None) -> None:
    """``user`` leaves the server (or is kicked or banned: the bot hears the same)."""
    guild = guild_id or world.guild_id
    world.departed.add((guild, user.id))
    if world.dispatch is not None:
        world.dispatch("GUILD_MEMBER_REMOVE", {"guild_id": str(guild), "user": user.payload()})


def ban_member(world: World, user: User, guild_id: int | None = None) -> None:
    """``user`` is banned: Discord sends GUILD_BAN_ADD, then removes them as a member."""
    guild = guild_id or world.guild_id
    if world.dispatch is not None:
        world.dispatch("GUILD_BAN_ADD", {"guild_id": str(guild), "user": user.payload()})
    remove_member(world, user, guild)


def remove_bot(world: World, guild_id: int | None = None) -> None:
    """The bot is removed from the server: it hears GUILD_DELETE and may no longer
    reach any of its channels."""
    guild = guild_id or world.guild_id
    world.removed_from.add(guild)
    if world.dispatch is not None:
        world.dispatch("GUILD_DELETE", {"id": str(guild), "unavailable": False})
