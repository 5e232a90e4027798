"""What the local Discord knows: its guilds (one unless a test adds more), their channels
and threads, users, messages with their attachments, the bot's application commands and
every interaction.

The server (``rest``, ``gateway``), the simulated players (``client``) and the
playground all read and change this one object, inside one event loop; nothing here
does I/O. Changes are announced per channel so waiters wake only for their channel.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from aiohttp import web

from bot.invite import PERMISSIONS as INVITE_PERMISSIONS
from localcord.roles import NEW_SERVER, Role, Server

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
    deliveries: int = 0  # times the gateway delivered it (Discord may deliver one twice)
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


class World:
    """The guilds, their members and everything said in them."""

    def __init__(self, guild_name: str = "Crosshairs Local") -> None:
        self.ids = Snowflakes()
        self.bot = User(self.ids.next(), "Crosshairs", bot=True)
        self.owner = User(self.ids.next(), "Owner")
        self.users: dict[int, User] = {self.bot.id: self.bot, self.owner.id: self.owner}
        self.guilds: dict[int, str] = {}  # id -> name; the first is the default guild
        # servers that have not added the bot: only a user-installed app reaches them
        self.without_bot: set[int] = set()
        self.guild_locales: dict[int, str] = {}  # id -> preferred locale, when not en-US
        self.servers: dict[int, Server] = {}  # each guild's roles (localcord/roles.py)
        self.guild_id = self.add_guild(guild_name)
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.channel_log: dict[int, list[Message]] = {}
        self.commands: list[Json] = []
        self.interactions: dict[str, Interaction] = {}
        self.requests: list[Request] = []
        self.departed: set[tuple[int, int]] = set()  # (guild, user) who left (moderators.py)
        self.removed_from: set[int] = set()  # guilds the bot was removed from
        self.version = 0  # bumped by every visible change, for the playground's polling
        self._changed: dict[int | None, asyncio.Event] = {}
        self._tokens = itertools.count(1)
        # Set by the gateway: how the bot hears about events.
        self.dispatch: Any = None
        # Told of each message the moment it exists, before the bot that posted it has
        # its answer: a test may kill the bot there (posted, but the bot never knew).
        self.on_post: list[Callable[[Message], None]] = []
        self.commands_synced = asyncio.Event()
        # what NONCE_WINDOW is counted on (a test may wind it on instead of waiting)
        self.clock: Callable[[], float] = time.monotonic
        # (channel, author, nonce) -> when, and the message created with enforce_nonce;
        # oldest first, so expired ones are dropped from the front
        self._nonces: dict[tuple[int, int, str | int], tuple[float, Message]] = {}

    # ------------------------------------------------------------ people and places

    @property
    def guild_name(self) -> str:
        return self.guilds[self.guild_id]

    def add_guild(self, name: str, with_bot: bool = True, locale: str = "en-US") -> int:
        """Another guild the bot is in (a bot that joins it at run time is not modelled:
        guilds are added before the bot identifies), or, ``with_bot=False``, one that
        has not added the bot: its people reach it only through their own install of
        the app, and it may post nowhere there. ``locale``: its preferred locale (the
        language of its community, which the bot speaks in public there)."""
        guild_id = self.ids.next_millisecond()
        self.guilds[guild_id] = name
        self.guild_locales[guild_id] = locale
        server = self.servers[guild_id] = Server(guild_id, self.owner.id)
        # A community that lets people in through a role: @everyone may do nothing, the
        # Members role everyone is given holds what a new server's @everyone holds, and
        # so the bot holds exactly what its invite link asked for (its managed role).
        server.add_role(Role(guild_id, "@everyone", 0))
        members = server.add_role(Role(self.ids.next(), "Members", NEW_SERVER))
        for user in self.users.values():
            if not user.bot:
                server.give(user.id, members)
        if with_bot:
            bot = Role(self.ids.next(), self.bot.name, INVITE_PERMISSIONS, bot_id=self.bot.id)
            server.give(self.bot.id, server.add_role(bot))
        else:
            self.without_bot.add(guild_id)
        return guild_id

    def locale_of(self, guild_id: int) -> str:
        """The guild's preferred locale."""
        return self.guild_locales.get(guild_id, "en-US")

    @property
    def bot_guilds(self) -> list[int]:
        """The guilds the bot is a member of."""
        return [g for g in self.guilds if g not in self.without_bot]

    def add_user(self, name: str, locale: str = "en-GB") -> User:
        user = User(self.ids.next(), name, locale=locale)
        self.users[user.id] = user
        for server in self.servers.values():
            members = next((r for r in server.roles.values() if r.name == "Members"), None)
            if members is not None:
                server.give(user.id, members)
        return user

    def dm_channel(self, user: User) -> Channel:
        """The DM channel between the bot and ``user`` (one each, made on first use)."""
        found = next(
            (
                c
                for c in self.channels.values()
                if c.type == DM_CHANNEL and c.bot_member and c.owner_id == user.id
            ),
            None,
        )
        if found is None:
            found = Channel(
                self.ids.next(),
                0,
                f"dm-{user.name}",
                DM_CHANNEL,
                owner_id=user.id,
                recipients=[user.payload()],
            )
            self.channels[found.id] = found
            self.channel_log[found.id] = []
        return found

    def private_channel(self, *people: User) -> Channel:
        """A DM between two people (a group DM between more), which the bot is not in:
        only a user-installed app's interactions reach it (docs/anywhere.md)."""
        kind = DM_CHANNEL if len(people) == 2 else GROUP_DM
        found = Channel(
            self.ids.next(),
            0,
            "-".join(p.name for p in people),
            kind,
            owner_id=people[0].id,
            recipients=[p.payload() for p in people],
            bot_member=False,
        )
        self.channels[found.id] = found
        self.channel_log[found.id] = []
        return found

    def add_channel(
        self, name: str, guild_id: int | None = None, kind: int = TEXT_CHANNEL
    ) -> Channel:
        """A channel of ``kind`` (text, voice, announcement or forum)."""
        guild = guild_id or self.guild_id
        channel = Channel(
            self.ids.next(), guild, name, kind, bot_member=guild not in self.without_bot
        )
        self.channels[channel.id] = channel
        self.channel_log[channel.id] = []
        if self.dispatch is not None and channel.bot_member:
            self.dispatch("CHANNEL_CREATE", channel.payload())
        return channel

    def add_thread(
        self, parent: Channel, name: str, owner: User, kind: int = PUBLIC_THREAD
    ) -> Channel:
        """A thread of ``parent`` (a forum's post, when it is a forum); a private one
        has only its owner as member until someone is added."""
        if kind == PUBLIC_THREAD and parent.type == ANNOUNCEMENT_CHANNEL:
            kind = ANNOUNCEMENT_THREAD
        thread = Channel(
            self.ids.next(),
            parent.guild_id,
            name,
            kind,
            parent_id=parent.id,
            owner_id=owner.id,
            members={owner.id},
        )
        self.channels[thread.id] = thread
        self.channel_log[thread.id] = []
        if self.dispatch is not None:
            self.dispatch("THREAD_CREATE", thread.payload() | {"newly_created": True})
        self.touch(parent.id)
        return thread

    def threads_of(self, channel: Channel) -> list[Channel]:
        return [c for c in self.channels.values() if c.parent_id == channel.id]

    def guild_payload(self, guild_id: int | None = None) -> Json:
        guild_id = guild_id or self.guild_id
        here = [c for c in self.channels.values() if c.guild_id == guild_id]
        text = [c for c in here if c.type not in THREADS]
        threads = [c for c in here if c.type in THREADS]
        server = self.servers[guild_id]
        members = [u.member(server) for u in self.users.values()]
        return {
            "id": str(guild_id),
            "name": self.guilds[guild_id],
            "icon": None,
            "owner_id": str(self.owner.id),
            "features": [],
            "roles": [r.payload() for r in server.roles.values()],
            "emojis": [],
            "stickers": [],
            "channels": [c.payload() for c in text],
            "threads": [t.payload() for t in threads],
            "members": members,
            "member_count": len(members),
            "large": False,
            "unavailable": False,
            "joined_at": iso(0),
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "premium_tier": 0,
            "preferred_locale": self.locale_of(guild_id),
            "nsfw_level": 0,
            "mfa_level": 0,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "system_channel_flags": 0,
        }

    # ------------------------------------------------------------ messages

    def post(
        self,
        channel: Channel,
        author: User,
        *,
        content: str = "",
        attachments: list[Attachment] | None = None,
        components: list[Json] | None = None,
        embeds: list[Json] | None = None,
        flags: int = 0,
        visible_to: int | None = None,
        interaction: Interaction | None = None,
        allowed_mentions: Json | None = None,
        nonce: str | int | None = None,
        enforce_nonce: bool = False,
    ) -> Message:
        """A new message; or, with ``enforce_nonce`` and a ``nonce``, the one this
        author created in this channel with that nonce in the last NONCE_WINDOW seconds
        (if it still exists), and nothing new: no second message, no MESSAGE_CREATE."""
        key = (channel.id, author.id, nonce) if enforce_nonce and nonce is not None else None
        if key is not None:
            earlier = self._earlier(key)
            if earlier is not None:
                return earlier
        message = Message(
            self.ids.next(),
            channel,
            author,
            content=content,
            attachments=attachments or [],
            components=numbered(components or []),
            embeds=embeds or [],
            flags=flags,
            visible_to=visible_to,
            interaction_id=interaction.id if interaction else None,
            webhook_id=self.bot.id if interaction else None,
            allowed_mentions=allowed_mentions,
            nonce=nonce,
        )
        self.messages[message.id] = message
        self.channel_log.setdefault(channel.id, []).append(message)
        if key is not None:
            self._nonces.pop(key, None)  # re-inserted last: the front stays the oldest
            self._nonces[key] = (self.clock(), message)
        self._announce("MESSAGE_CREATE", message)
        for observer in list(self.on_post):
            observer(message)
        return message

    def _earlier(self, key: tuple[int, int, str | int]) -> Message | None:
        """The live message created under ``key`` within the window, forgetting every
        nonce older than that."""
        horizon = self.clock() - NONCE_WINDOW
        while self._nonces:
            oldest = next(iter(self._nonces))
            if self._nonces[oldest][0] > horizon:
                break
            del self._nonces[oldest]
        found = self._nonces.get(key)
        return None if found is None or found[1].deleted else found[1]

    def edit(
        self,
        message: Message,
        *,
        content: str | None = None,
        attachments: list[Attachment] | None = None,
        components: list[Json] | None = None,
        embeds: list[Json] | None = None,
        flags: int | None = None,
        allowed_mentions: Json | None = None,
    ) -> Message:
        if allowed_mentions is not None:
            message.allowed_mentions = allowed_mentions
        if content is not None:
            message.content = content
        if attachments is not None:
            message.attachments = attachments
        if components is not None:
            message.components = numbered(components)
        if embeds is not None:
            message.embeds = embeds
        if flags is not None:
            message.flags = flags
        message.edited = time.time()
        message.version += 1
        self._announce("MESSAGE_UPDATE", message)
        return message

    def delete(self, message: Message) -> None:
        message.deleted = True
        message.version += 1
        if message.visible_to is None and message.channel.bot_member and self.dispatch is not None:
            channel = message.channel
            self.dispatch(
                "MESSAGE_DELETE",
                {
                    "id": str(message.id),
                    "channel_id": str(channel.id),
                    "guild_id": str(channel.guild_id),
                },
            )
        self._announce(None, message)

    def history(self, channel: Channel, viewer: int | None = None) -> list[Message]:
        return [m for m in self.channel_log.get(channel.id, []) if m.visible(viewer)]

    def _announce(self, event: str | None, message: Message) -> None:
        channel = message.channel
        heard = message.visible_to is None and channel.bot_member  # not where it is no member
        if event is not None and heard and self.dispatch is not None:
            # discord.py only needs the ids here; the attachments' URLs are not used.
            # The gateway's messages carry their guild; REST's do not.
            extra = {"guild_id": str(channel.guild_id)} if channel.type not in PRIVATE else {}
            self.dispatch(event, message.payload("") | extra)
        self.touch(message.channel.id)

    # ------------------------------------------------------------ interactions

    def new_interaction(
        self, type_: int, user: User, channel: Channel, data: Json, message: Message | None = None
    ) -> Interaction:
        token = f"lc-{next(self._tokens)}-{self.ids.next()}"
        interaction = Interaction(self.ids.next(), token, type_, user, channel, data, message)
        self.interactions[token] = interaction
        return interaction

    def forget(self, interaction: Interaction) -> None:
        """Drop a finished interaction (the load test makes many thousands)."""
        self.interactions.pop(interaction.token, None)

    # ------------------------------------------------------------ change notices

    def touch(self, channel_id: int | None) -> None:
        self.version += 1
        for key in (channel_id, None):
            event = self._changed.pop(key, None)
            if event is not None:
                event.set()

    def changed(self, channel_id: int | None = None) -> asyncio.Event:
        """An event set at the next change in ``channel_id`` (None: anywhere)."""
        event = self._changed.get(channel_id)
        if event is None:
            event = self._changed[channel_id] = asyncio.Event()
        return event
