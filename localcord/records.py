"""The local Discord's records: users, channels and threads, messages with their
attachments, interactions and the bot's requests, with the constants Discord gives them.
:class:`~localcord.state.World` keeps them; nothing here does I/O."""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from aiohttp import web

from localcord.roles import Server

Json = dict[str, Any]

DISCORD_EPOCH_MS = 1420070400000
EPHEMERAL = 1 << 6
LOADING = 1 << 7
TEXT_CHANNEL = 0
DM_CHANNEL = 1
VOICE_CHANNEL = 2
GROUP_DM = 3
ANNOUNCEMENT_CHANNEL = 5
ANNOUNCEMENT_THREAD = 10
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
FORUM_CHANNEL = 15
THREADS = (ANNOUNCEMENT_THREAD, PUBLIC_THREAD, PRIVATE_THREAD)
PRIVATE = (DM_CHANNEL, GROUP_DM)
INTERACTION_DEADLINE = 3.0  # seconds Discord gives a bot to answer an interaction
TOKEN_LIFETIME = 15 * 60.0  # seconds an interaction's webhook token serves follow-ups
# seconds a message created with ``enforce_nonce`` answers for its nonce: Discord says
# "the past few minutes"
NONCE_WINDOW = 5 * 60.0


def as_json(data: object, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """A JSON response typed exactly ``application/json``: discord.py decodes a body
    only under that header, and aiohttp's own helper appends a charset."""
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={"Content-Type": "application/json"} | (headers or {}),
    )


def iso(at: float) -> str:
    return datetime.fromtimestamp(at, UTC).isoformat()


class Snowflakes:
    """Ids shaped like Discord's: milliseconds since 2015 in the high bits, so
    discord.py's ``created_at`` reads sensibly and later ids are larger."""

    def __init__(self) -> None:
        self._last = 0

    def next(self) -> int:
        now = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last = max(self._last + 1, now)
        return self._last

    def next_millisecond(self) -> int:
        """An id in a millisecond of its own. Discord routes a guild to shard
        ``(guild_id >> 22) % shard_count``, so guilds made one after another must not
        share the timestamp part or they would all land on one shard."""
        self._last = max((self._last >> 22) + 1 << 22, self.next())
        return self._last


@dataclass
class User:
    id: int
    name: str
    bot: bool = False
    locale: str = "en-GB"  # the language their Discord is set to, sent with each interaction

    def payload(self) -> Json:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
            "primary_guild": None,
        }

    def member(self, server: Server, with_user: bool = True) -> Json:
        """Their member object in ``server`` (an interaction's adds their permissions in
        its channel)."""
        data: Json = {
            "roles": [str(r) for r in server.roles_of(self.id)],
            "joined_at": iso(0),
            "deaf": False,
            "mute": False,
            "flags": 0,
            "nick": None,
        }
        if with_user:
            data["user"] = self.payload()
        return data

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass
class Channel:
    id: int
    guild_id: int
    name: str
    type: int = TEXT_CHANNEL
    parent_id: int | None = None
    owner_id: int | None = None
    # Discord's permission overwrites, for roles and members (localcord/permissions.py)
    overwrites: list[Json] = field(default_factory=list)
    slow_mode: int = 0  # rate_limit_per_user: seconds between a person's messages
    members: set[int] = field(default_factory=set)  # a private thread's: who was added
    archived: bool = False  # a thread's, set by moderators (localcord/moderators.py)
    locked: bool = False
    recipients: list[Json] = field(default_factory=list)  # a DM's or group DM's people
    # False in a DM or group DM between people: the bot is no member and may not post
    # there; a user-installed app answers interactions there (docs/anywhere.md)
    bot_member: bool = True

    def payload(self) -> Json:
        if self.type in PRIVATE:  # a DM or a group DM: no guild
            private: Json = {
                "id": str(self.id),
                "type": self.type,
                "last_message_id": None,
                "flags": 0,
                "recipients": self.recipients,
            }
            if self.type == GROUP_DM:
                private |= {"name": self.name, "icon": None, "owner_id": str(self.owner_id)}
            return private
        data: Json = {
            "id": str(self.id),
            "guild_id": str(self.guild_id),
            "name": self.name,
            "type": self.type,
            "last_message_id": None,
            "rate_limit_per_user": self.slow_mode,
            "flags": 0,
        }
        if self.type == VOICE_CHANNEL:
            data |= {"bitrate": 64000, "user_limit": 0, "rtc_region": None}
        if self.type == FORUM_CHANNEL:
            data |= {"available_tags": [], "default_reaction_emoji": None}
        if self.type not in THREADS:
            return data | {
                "position": 0,
                "permission_overwrites": self.overwrites,
                "nsfw": False,
                "topic": None,
            }
        if self.type == PRIVATE_THREAD:
            data["thread_metadata"] = {"invitable": False}
        return data | {
            "parent_id": str(self.parent_id),
            "owner_id": str(self.owner_id),
            "message_count": 0,
            "member_count": 1,
            "total_message_sent": 0,
            "thread_metadata": data.get("thread_metadata", {})
            | {
                "archived": self.archived,
                "auto_archive_duration": 10080,
                "archive_timestamp": iso(time.time()),
                "locked": self.locked,
            },
        }


@dataclass
class Attachment:
    id: int
    filename: str
    data: bytes
    content_type: str = "application/octet-stream"
    description: str = ""  # the alt text a screen reader reads for it

    @property
    def path(self) -> str:
        return f"/attachments/{self.id}/{self.filename}"


@dataclass
class Message:
    id: int
    channel: Channel
    author: User
    content: str = ""
    attachments: list[Attachment] = field(default_factory=list)
    components: list[Json] = field(default_factory=list)
    embeds: list[Json] = field(default_factory=list)
    flags: int = 0
    visible_to: int | None = None  # an ephemeral message: only this user sees it
    interaction_id: int | None = None
    webhook_id: int | None = None
    created: float = field(default_factory=time.time)
    edited: float | None = None
    version: int = 0  # bumped by every edit, so waiters can tell a fresh state
    deleted: bool = False
    # what the bot asked may be pinged (None: Discord's default, everything mentioned)
    allowed_mentions: Json | None = None
    nonce: str | int | None = None  # as the poster gave it; echoed in the payload

    @property
    def ephemeral(self) -> bool:
        return self.visible_to is not None

    def visible(self, user_id: int | None) -> bool:
        return not self.deleted and (self.visible_to is None or self.visible_to == user_id)

    def payload(self, base_url: str) -> Json:
        return {
            "id": str(self.id),
            "channel_id": str(self.channel.id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": iso(self.created),
            "edited_timestamp": iso(self.edited) if self.edited else None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [
                {
                    "id": str(a.id),
                    "filename": a.filename,
                    "size": len(a.data),
                    "url": base_url + a.path,
                    "proxy_url": base_url + a.path,
                    "content_type": a.content_type,
                    **({"description": a.description} if a.description else {}),
                }
                for a in self.attachments
            ],
            # Discord fills in an embed's type: a bot's are "rich"
            "embeds": [{"type": "rich"} | e for e in self.embeds],
            "components": self.components,
            "pinned": False,
            "type": 0 if self.interaction_id is None else 20,
            "flags": self.flags,
            **({"webhook_id": str(self.webhook_id)} if self.webhook_id else {}),
            **({"nonce": self.nonce} if self.nonce is not None else {}),
        }

    def buttons(self) -> list[Json]:
        """Every button on the message, row by row."""
        return self._components(2)

    def selects(self) -> list[Json]:
        """Every string select menu on the message, row by row."""
        return self._components(3)

    def _components(self, kind: int) -> list[Json]:
        return [
            c for row in self.components for c in row.get("components", []) if c["type"] == kind
        ]


@dataclass
class Interaction:
    """One press or command, from creation to the bot's answers."""

    id: int
    token: str
    type: int  # 2 command, 3 component, 4 autocomplete
    user: User
    channel: Channel
    data: Json
    message: Message | None = None  # the message a pressed component is on
    created: float = field(default_factory=time.monotonic)
    response_type: int | None = None
    responded: float | None = None  # monotonic time of the first callback
    original: Message | None = None  # what "@original" refers to
    choices: list[Json] = field(default_factory=list)  # autocomplete results
    followups: list[Message] = field(default_factory=list)
    late: bool = False  # answered after Discord's deadline, so Discord refused it
    refused: int = 0  # callbacks refused: too late, or the interaction already answered
    settled: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def latency(self) -> float | None:
        return None if self.responded is None else self.responded - self.created


@dataclass
class Request:
    """One REST call the bot made, kept for tests and the playground's log."""

    method: str
    path: str
    status: int
    at: float


def numbered(components: list[Json]) -> list[Json]:
    """Components as Discord keeps them: each with an ``id`` (given in order, from 1, to
    those sent without one) and a Unicode emoji without the null ``id`` a bot may send."""
    taken = {c["id"] for c in _walk(components) if isinstance(c.get("id"), int)}
    counter = itertools.count(1)
    copied: list[Json] = json.loads(json.dumps(components))
    for component in _walk(copied):
        if not isinstance(component.get("id"), int):
            component["id"] = next(n for n in counter if n not in taken)
        component.pop("required", None)  # a modal's field: a message's menus never show it
        emoji = component.get("emoji")
        if isinstance(emoji, dict) and emoji.get("id") is None:
            emoji.pop("id", None)
        for option in component.get("options") or ():
            emoji = option.get("emoji")
            if isinstance(emoji, dict) and emoji.get("id") is None:
                emoji.pop("id", None)
    return copied


def _walk(components: list[Json]) -> list[Json]:
    found = []
    for component in components:
        found.append(component)
        found += _walk(component.get("components") or [])
    return found


# Discord's scheduled events (localcord/scheduled.py answers their routes)
GUILD_ONLY, EXTERNAL = 2, 3
SCHEDULED, ACTIVE, COMPLETED, CANCELED = 1, 2, 3, 4


@dataclass
class ScheduledEvent:
    id: int
    guild_id: int
    creator: User
    name: str
    description: str | None
    start: str  # ISO 8601, as given
    end: str | None
    location: str
    status: int = SCHEDULED
    interested: list[int] = field(default_factory=list)  # user ids, in the order they came

    def payload(self, with_count: bool = False) -> Json:
        data: Json = {
            "id": str(self.id),
            "guild_id": str(self.guild_id),
            "name": self.name,
            "description": self.description,
            "channel_id": None,
            "creator_id": str(self.creator.id),
            "creator": self.creator.payload(),
            "image": None,
            "scheduled_start_time": self.start,
            "scheduled_end_time": self.end,
            "status": self.status,
            "entity_type": EXTERNAL,
            "entity_id": None,
            "recurrence_rule": None,
            "privacy_level": GUILD_ONLY,
            "guild_scheduled_event_exceptions": [],
            "entity_metadata": {"location": self.location},
        }
        if with_count:
            data["user_count"] = len(self.interested)
        return data
