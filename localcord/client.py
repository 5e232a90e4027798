"""Simulated people: slash commands, autocomplete and button presses, as Discord's
client would send them to the bot, and ways to wait for what the bot answers.

    people = People(server)
    alice = people.join("alice")
    done = await people.slash(alice, channel, "crosshairs challenge", opponent=bob)
    board = await people.wait_for(thread, lambda m: bool(m.attachments))
    await people.click(bob, invite, "Accept")

Every interaction waits until the bot has answered it (a message, an update, or the
first follow-up or edit after a deferral); the time to the bot's first callback is
kept in ``latencies``.

Two ways Discord misbehaves can be asked for on any interaction, as on the real one:
``late=3.2`` delivers it 3.2 s after it was created (the bot has what is left of
Discord's three seconds to answer, here nothing), and ``twice=True`` delivers the same
interaction (same id, same token) twice, as Discord may; only one answer is accepted.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any, TypeVar

import aiohttp

from localcord import permissions, presets
from localcord.localised import named
from localcord.records import Channel, Interaction, Json, Message, User
from localcord.server import LocalDiscord

T = TypeVar("T")
COMMAND, COMPONENT, AUTOCOMPLETE = 2, 3, 4
GUILD_CONTEXT, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2  # where an interaction comes from
GUILD_INSTALL, USER_INSTALL = "0", "1"
# app_permissions where only a user-installed app's interactions reach (a DM or group DM
# between people): Attach Files, Embed Links, Mention Everyone (our reading of Discord's
# changelog of 2024; the bot needs only Attach Files there)
USER_INSTALL_PERMISSIONS = (1 << 15) | (1 << 14) | (1 << 17)
SUB_COMMAND, SUB_GROUP, STRING, INTEGER, BOOLEAN, USER, NUMBER = 1, 2, 3, 4, 5, 6, 10


class LocalcordError(AssertionError):
    """The bot did not do what a simulated person waited for."""


class People:
    def __init__(self, server: LocalDiscord, timeout: float = 30.0) -> None:
        self.server = server
        self.world = server.world
        self.timeout = timeout
        self.latencies: list[float] = []
        self.late = 0  # interactions the bot answered after Discord's deadline

    def join(self, name: str, locale: str = "en-GB", *, moderator: bool = False) -> User:
        """A person who can act; ``locale``, the language their Discord is set to;
        ``moderator``: they hold Manage Server in every guild (localcord/presets.py)."""
        # Interactions carry the member, so the bot needs no member event (nor the intent).
        user = self.world.add_user(name, locale)
        if moderator:
            for guild_id in self.world.guilds:
                presets.moderator(self.world, user, guild_id)
        return user

    # ------------------------------------------------------------ acting

    async def slash(
        self,
        user: User,
        channel: Channel,
        command: str,
        *,
        late: float = 0.0,
        twice: bool = False,
        **options: Any,
    ) -> Interaction:
        """Use a slash command: ``command`` is its full name, e.g. "crosshairs move", in
        the words ``user``'s Discord shows them ("crosshairs zug" in German) or the
        bot's own; the bot receives its own names, as from Discord."""
        data = self._command_data(command, options, channel, user.locale)
        return await self._send(COMMAND, user, channel, data, late=late, twice=twice)

    async def entry_point(self, user: User, channel: Channel) -> Interaction:
        """Open the app from the App Launcher when its entry point command (type 4) has
        handler 1: the app receives the command and answers it (callback 12 launches)."""
        entry = next((c for c in self.world.commands if c.get("type") == 4), None)
        if entry is None:
            raise LocalcordError("the app registered no entry point command")
        data = {"id": entry["id"], "name": entry["name"], "type": 4}
        return await self._send(COMMAND, user, channel, data)

    async def autocomplete(
        self, user: User, channel: Channel, command: str, focus: str, **options: Any
    ) -> list[str]:
        """The choices the bot offers while ``user`` types option ``focus``."""
        data = self._command_data(command, options, channel, user.locale, focus=focus)
        interaction = await self._send(AUTOCOMPLETE, user, channel, data)
        return [str(c["value"]) for c in interaction.choices]

    async def click(
        self, user: User, message: Message, button: str, *, late: float = 0.0, twice: bool = False
    ) -> Interaction:
        """Press the button labelled ``button`` (or with that custom id) on ``message``."""
        found = find_button(message, button)
        if found.get("disabled"):
            raise LocalcordError(f"button {button!r} is disabled")
        data = {"custom_id": found["custom_id"], "component_type": 2}
        return await self._send(
            COMPONENT, user, message.channel, data, message, late=late, twice=twice
        )

    async def choose(self, user: User, message: Message, select: str, *values: str) -> Interaction:
        """Pick ``values`` in the select menu ``select`` (its placeholder or custom id)
        on ``message``; a value may be given by its option's label too."""
        found = find_select(message, select)
        if found.get("disabled"):
            raise LocalcordError(f"select menu {select!r} is disabled")
        options = found.get("options") or []
        picked = []
        for value in values:
            option = next((o for o in options if value in (o.get("value"), o.get("label"))), None)
            if option is None:
                offered = [o.get("label") for o in options]
                raise LocalcordError(f"{select!r} offers no {value!r}; it offers {offered}")
            picked.append(option["value"])
        low, high = found.get("min_values", 1), found.get("max_values", 1)
        if not low <= len(picked) <= high:
            raise LocalcordError(f"{select!r} takes {low} to {high} values, not {len(picked)}")
        data = {"custom_id": found["custom_id"], "component_type": 3, "values": picked}
        return await self._send(COMPONENT, user, message.channel, data, message)

    async def _send(
        self,
        kind: int,
        user: User,
        channel: Channel,
        data: Json,
        message: Message | None = None,
        *,
        late: float = 0.0,
        twice: bool = False,
    ) -> Interaction:
        w = self.world
        interaction = w.new_interaction(kind, user, channel, data, message)
        # Delivered ``late`` seconds after its creation: Discord's deadline counts from then.
        interaction.created -= late
        payload = self._payload(interaction)
        for _ in range(2 if twice else 1):
            w.dispatch("INTERACTION_CREATE", payload)
        try:
            await asyncio.wait_for(interaction.settled.wait(), self.timeout)
        except TimeoutError:
            raise LocalcordError(
                f"the bot did not answer {describe(interaction)} within {self.timeout:g} s"
            ) from None
        finally:
            if interaction.latency is not None:
                self.latencies.append(interaction.latency)
            if interaction.late:
                self.late += 1
            if kind == AUTOCOMPLETE:
                w.forget(interaction)
        if interaction.late:
            raise LocalcordError(f"the bot answered {describe(interaction)} too late")
        return interaction

    def _payload(self, interaction: Interaction) -> Json:
        w = self.world
        user = interaction.user
        guild_id = interaction.channel.guild_id
        if not guild_id:
            return self._private_payload(interaction)
        data: Json = {
            "id": str(interaction.id),
            "application_id": str(w.bot.id),
            "type": interaction.type,
            "token": interaction.token,
            "version": 1,
            "guild_id": str(guild_id),
            "channel_id": str(interaction.channel.id),
            "channel": interaction.channel.payload(),
            "member": self._member(user, interaction.channel),
            "app_permissions": str(
                permissions.of_bot(w, interaction.channel)
                if interaction.channel.bot_member
                else USER_INSTALL_PERMISSIONS
            ),
            "locale": user.locale,
            "guild_locale": w.locale_of(guild_id),
            "entitlements": [],
            # a server that has not added the bot: only the user's own install answers
            "authorizing_integration_owners": (
                {GUILD_INSTALL: str(guild_id)}
                if interaction.channel.bot_member
                else {USER_INSTALL: str(user.id)}
            ),
            "context": GUILD_CONTEXT,
            "attachment_size_limit": 26214400,
            "data": interaction.data,
        }
        if interaction.message is not None:
            data["message"] = interaction.message.payload(self.server.base_url)
        return data

    def _member(self, user: User, channel: Channel, with_user: bool = True) -> Json:
        """``user`` as an interaction in ``channel`` shows them: a member of its server
        with their permissions there."""
        server = self.world.servers[channel.guild_id]
        granted = permissions.of(self.world, user.id, channel)
        return user.member(server, with_user) | {"permissions": str(granted)}

    def _private_payload(self, interaction: Interaction) -> Json:
        """An interaction from a DM or group DM: no guild, the ``user`` instead of a
        member; in the bot's own DM the guild install answers (owner "0"), elsewhere
        only the user's install of the app does (owner: the user)."""
        channel, user = interaction.channel, interaction.user
        own = channel.bot_member
        data: Json = {
            "id": str(interaction.id),
            "application_id": str(self.world.bot.id),
            "type": interaction.type,
            "token": interaction.token,
            "version": 1,
            "channel_id": str(channel.id),
            "channel": channel.payload(),
            "user": user.payload(),
            "app_permissions": str(
                permissions.of_bot(self.world, channel) if own else USER_INSTALL_PERMISSIONS
            ),
            "locale": user.locale,
            "entitlements": [],
            "authorizing_integration_owners": (
                {GUILD_INSTALL: "0"} if own else {USER_INSTALL: str(user.id)}
            ),
            "context": BOT_DM if own else PRIVATE_CHANNEL,
            "attachment_size_limit": 26214400,
            "data": interaction.data,
        }
        if interaction.message is not None:
            data["message"] = interaction.message.payload(self.server.base_url)
        return data

    def _command_data(
        self, command: str, options: dict[str, Any], channel: Channel, locale: str, focus: str = ""
    ) -> Json:
        guild_id = channel.guild_id
        top, *path = command.split()
        chat = [c for c in self.world.commands if c.get("type", 1) == 1]
        spec = named(chat, top, locale)
        if spec is None:
            raise LocalcordError(f"the bot has not synced a /{top} command")
        context = GUILD_CONTEXT if guild_id else BOT_DM if channel.bot_member else PRIVATE_CHANNEL
        # Discord's client offers a command only where its contexts allow it (without
        # any: a server and the bot's DM), and where the bot is not, only a command the
        # user may install
        if context not in (spec.get("contexts") or (GUILD_CONTEXT, BOT_DM)):
            raise LocalcordError(f"/{top} is not offered in context {context}")
        if not channel.bot_member and int(USER_INSTALL) not in spec["integration_types"]:
            raise LocalcordError(f"/{top} cannot be installed to a user")
        resolved: Json = {}
        data: Json = {"id": spec["id"], "name": spec["name"], "type": 1}
        if guild_id:
            data["guild_id"] = str(guild_id)
        level = data
        for name in path:
            sub = _option(spec, name, command, locale)
            node: Json = {"name": sub["name"], "type": sub["type"]}
            level["options"] = [node]
            level, spec = node, sub
        level["options"] = []
        for name, value in options.items():
            option = _option(spec, name, command, locale)
            focused = name == focus or option["name"] == focus
            level["options"].append(self._value(option, value, focused, resolved, channel))
        if resolved:
            data["resolved"] = resolved
        return data

    def _value(
        self, spec: Json, value: Any, focused: bool, resolved: Json, channel: Channel
    ) -> Json:
        guild_id = channel.guild_id
        kind, name = spec["type"], spec["name"]
        if isinstance(value, User):
            resolved.setdefault("users", {})[str(value.id)] = value.payload()
            if guild_id:  # a DM has no members, only users
                members = resolved.setdefault("members", {})
                members[str(value.id)] = self._member(value, channel, with_user=False)
            value = str(value.id)
        elif kind == INTEGER and not focused:
            value = int(value)
        option: Json = {"name": name, "type": kind, "value": value}
        if focused:
            option["focused"] = True
        return option

    # ------------------------------------------------------------ watching

    async def wait_for(
        self,
        channel: Channel,
        check: Callable[[Message], bool],
        viewer: User | None = None,
        timeout: float | None = None,
    ) -> Message:
        """The newest message in ``channel`` (as ``viewer`` sees it) passing ``check``,
        waiting for one to appear or be edited into shape."""

        def newest() -> Message | None:
            return next((m for m in reversed(self.read(channel, viewer)) if check(m)), None)

        failure = f"no message in #{channel.name} became what was waited for"
        return await self._until(channel.id, newest, timeout, failure)

    def read(self, channel: Channel, viewer: User | None = None) -> list[Message]:
        """``channel``'s messages as ``viewer`` reads them in Discord (None: all): none in
        a channel they cannot see, such as another team's private thread."""
        if viewer is not None and not permissions.sees(self.world, viewer.id, channel):
            return []
        return self.world.history(channel, viewer.id if viewer else None)

    async def wait_until(
        self, check: Callable[[], T | None], what: str, timeout: float | None = None
    ) -> T:
        """What ``check`` finds (anything but None) once anything in the world changed
        into it; ``what``, said if it never does."""
        return await self._until(None, check, timeout, f"{what} never happened")

    async def wait_thread(self, parent: Channel, timeout: float | None = None) -> Channel:
        """The newest thread under ``parent`` that has a message, once there is one."""

        def newest() -> Channel | None:
            threads = reversed(self.world.threads_of(parent))
            return next((t for t in threads if self.world.history(t)), None)

        return await self._until(None, newest, timeout, f"no thread opened under #{parent.name}")

    async def _until(
        self, key: int | None, found: Callable[[], T | None], timeout: float | None, failure: str
    ) -> T:
        """What ``found`` finds, asked again at each change of the world under ``key`` (a
        channel; None: any) until ``timeout``; else a :class:`LocalcordError` (``failure``)."""
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        while True:
            changed = self.world.changed(key)  # taken before looking: no change is missed
            hit = found()
            if hit is not None:
                return hit
            left = deadline - time.monotonic()
            if left <= 0:
                raise LocalcordError(failure)
            try:
                await asyncio.wait_for(changed.wait(), left)
            except TimeoutError:
                continue

    async def download(self, message: Message, index: int = 0) -> bytes:
        """Fetch an attachment over HTTP, as a Discord client would."""
        url = self.server.base_url + message.attachments[index].path
        async with aiohttp.ClientSession() as session, session.get(url) as response:
            response.raise_for_status()
            return await response.read()


def find_button(message: Message, button: str) -> Json:
    return _component(message.buttons(), button, "label", "button")


def find_select(message: Message, select: str) -> Json:
    return _component(message.selects(), select, "placeholder", "select menu")


def _component(found: list[Json], wanted: str, named: str, kind: str) -> Json:
    """The component of ``found`` whose ``named`` field or custom id is ``wanted``."""
    for candidate in found:
        if wanted in (candidate.get(named), candidate.get("custom_id")):
            return candidate
    names = [c.get(named) for c in found]
    raise LocalcordError(f"no {kind} {wanted!r} on the message; there are {names}")


def answer(interaction: Interaction) -> Message | None:
    """The bot's last message in answer to the interaction."""
    return interaction.followups[-1] if interaction.followups else interaction.original


def reply(interaction: Interaction) -> str:
    """What the bot last said in answer to the interaction."""
    message = answer(interaction)
    return message.content if message else ""


def describe(interaction: Interaction) -> str:
    data = interaction.data
    if interaction.type == COMPONENT:
        return f"the press of {data.get('custom_id')}"
    names = [data.get("name", "?")]
    options = data.get("options") or []
    while options and options[0].get("type") in (SUB_COMMAND, SUB_GROUP):
        names.append(options[0]["name"])
        options = options[0].get("options") or []
    return "/" + " ".join(names)


def _option(spec: Json, name: str, command: str, locale: str) -> Json:
    """The option or subcommand ``name`` (in ``locale``'s words or the bot's own)."""
    found = named(spec.get("options", []), name, locale)
    if found is not None:
        return dict(found)
    raise LocalcordError(f"/{command} has no option {name!r}")
