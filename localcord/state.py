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
import time
from collections.abc import Callable
from typing import Any

from bot.invite import PERMISSIONS as INVITE_PERMISSIONS
from localcord.emojis import AppEmojis
from localcord.records import (
    ANNOUNCEMENT_CHANNEL,
    ANNOUNCEMENT_THREAD,
    DM_CHANNEL,
    GROUP_DM,
    NONCE_WINDOW,
    PRIVATE,
    PUBLIC_THREAD,
    TEXT_CHANNEL,
    THREADS,
    Attachment,
    Channel,
    Interaction,
    Json,
    Message,
    Request,
    ScheduledEvent,
    Snowflakes,
    User,
    iso,
    numbered,
)
from localcord.roles import NEW_SERVER, Role, Server


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
        self.emojis = AppEmojis()  # the application's own (localcord/emojis.py)
        self.interactions: dict[str, Interaction] = {}
        self.requests: list[Request] = []
        self.departed: set[tuple[int, int]] = set()  # (guild, user) who left (moderators.py)
        self.removed_from: set[int] = set()  # guilds the bot was removed from
        # every guild's scheduled events by id (localcord/scheduled.py)
        self.scheduled_events: dict[int, ScheduledEvent] = {}
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
            "guild_scheduled_events": [
                e.payload(with_count=True)
                for e in self.scheduled_events.values()
                if e.guild_id == guild_id
            ],
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
