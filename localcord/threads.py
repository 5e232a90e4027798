"""Archived and locked threads as Discord treats the bot's calls in them.

A message posted in an archived thread that is not locked unarchives it (Discord does
the same for anyone who may send there); a locked thread refuses posts and edits with
``160005 Thread is locked`` unless the bot has Manage Threads; editing a message in an
archived thread is ``50083 Operation cannot be performed on an archived thread``.
Reopening a thread (``PATCH /channels/{thread}`` with ``archived``/``locked`` false)
takes Send Messages in Threads for an archived thread, Manage Threads for a locked one.
"""

from __future__ import annotations

import time

from aiohttp import web

from localcord import moderators
from localcord.permissions import BITS
from localcord.records import PRIVATE_THREAD, PUBLIC_THREAD, Channel, Json, as_json, iso
from localcord.state import World


def refusal(world: World, thread: Channel, method: str, granted: int) -> tuple[int, str] | None:
    """Discord's (code, message) for a message call in ``thread``, or None; a post in
    an archived, unlocked thread unarchives it first."""
    if not (thread.archived or thread.locked) or method not in ("POST", "PATCH"):
        return None
    if thread.locked and not granted & BITS["manage_threads"]:
        return 160005, "Thread is locked"
    if method == "PATCH" and thread.archived:
        return 50083, "Operation cannot be performed on an archived thread"
    if thread.archived:
        moderators.set_thread_state(world, thread, archived=False, locked=thread.locked)
    return None


def modify(world: World, thread: Channel, body: Json, granted: int) -> tuple[int, str] | None:
    """Apply a modify-thread body's ``archived``/``locked``; a refusal if not allowed."""
    archived = bool(body.get("archived", thread.archived))
    locked = bool(body.get("locked", thread.locked))
    needs = "manage_threads" if thread.locked or locked else "send_messages_in_threads"
    if not granted & BITS[needs]:
        return 50013, "Missing Permissions"
    moderators.set_thread_state(world, thread, archived=archived, locked=locked)
    return None


def create(
    world: World, parent: Channel, body: Json, granted: int, from_message: bool
) -> Channel | tuple[int, str]:
    """The thread a create-thread body asks for, or Discord's refusal: a private one
    needs Create Private Threads (and cannot start from a message)."""
    kind = PUBLIC_THREAD if from_message else int(body.get("type") or PRIVATE_THREAD)
    if kind == PRIVATE_THREAD and not granted & BITS["create_private_threads"]:
        return 50013, "Missing Permissions"
    return world.add_thread(parent, str(body.get("name", "thread")), world.bot, kind)


def add_member(world: World, thread: Channel, user_id: int) -> tuple[int, str] | None:
    """Add ``user_id`` to ``thread``; a refusal for an archived thread or a stranger."""
    if thread.parent_id is None:
        return 50024, "Cannot execute action on this channel type"
    if user_id not in world.users:
        return 10013, "Unknown User"
    if thread.archived:
        return 50083, "Operation cannot be performed on an archived thread"
    thread.members.add(user_id)
    if world.dispatch is not None:
        added = {"id": str(thread.id), "user_id": str(user_id), "join_timestamp": iso(time.time())}
        world.dispatch(
            "THREAD_MEMBERS_UPDATE",
            {
                "id": str(thread.id),
                "guild_id": str(thread.guild_id),
                "member_count": len(thread.members),
                "added_members": [added | {"flags": 0}],
            },
        )
    world.touch(thread.id)
    return None


def routes(world: World, api: str) -> list[web.RouteDef]:
    """``PUT /channels/{thread}/thread-members/{user}``: add someone to a thread."""

    async def add(request: web.Request) -> web.Response:
        thread = world.channels.get(int(request.match_info["channel"]))
        if thread is None:
            return as_json({"message": "Unknown Channel", "code": 10003}, status=404)
        refused = add_member(world, thread, int(request.match_info["user"]))
        if refused is None:
            return web.Response(status=204)
        return as_json({"message": refused[1], "code": refused[0]}, status=400)

    return [web.put(api + "/channels/{channel}/thread-members/{user:\\d+}", add)]
