"""A server's roles and how Discord computes someone's permissions in a channel from them.

Discord's developer docs (topics/permissions, "Permission Overwrites") are the oracle:
the owner holds everything; otherwise the ``@everyone`` role's permissions OR those of
the member's roles, everything with Administrator; then, in a channel, the ``@everyone``
overwrite (deny, then allow), the member's role overwrites together (deny, then allow),
and the member's own overwrite (deny, then allow). Without View Channel nothing else
counts, and without Send Messages neither do Mention Everyone, Send TTS, Attach Files and
Embed Links ("Implicit Permissions"). A thread has its parent channel's permissions.

Nothing here knows the world (localcord/state.py holds one ``Server`` per guild).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

Json = dict[str, Any]

ALL = (1 << 53) - 1
ADMINISTRATOR = 1 << 3
MANAGE_GUILD = 1 << 5
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
SEND_TTS = 1 << 12
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
MENTION_EVERYONE = 1 << 17
MANAGE_THREADS = 1 << 34
SEND_MESSAGES_IN_THREADS = 1 << 38
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
MANAGE_EVENTS = 1 << 33
CREATE_EVENTS = 1 << 44
USE_EMBEDDED_ACTIVITIES = 1 << 39
USE_EXTERNAL_APPS = 1 << 50
# What ``@everyone`` holds in a server made today: the permissions Discord's docs show
# for a member with no role of consequence (components/reference, a resolved member):
# View Channel, Send Messages, Attach Files, Embed Links, Create Public and Private
# Threads, Send Messages in Threads, Use Activities, Use External Apps among them.
NEW_SERVER = 2248473465835073
# lost with Send Messages ("Implicit Permissions")
NEEDS_SEND = MENTION_EVERYONE | SEND_TTS | ATTACH_FILES | EMBED_LINKS
ROLE, MEMBER = 0, 1  # an overwrite's type


@dataclass
class Role:
    id: int
    name: str
    permissions: int
    position: int = 0
    bot_id: int | None = None  # the role Discord makes for a bot added with an invite link

    def payload(self) -> Json:
        data: Json = {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "managed": self.bot_id is not None,
            "mentionable": False,
            "flags": 0,
            "icon": None,
            "unicode_emoji": None,
        }
        if self.bot_id is not None:
            data["tags"] = {"bot_id": str(self.bot_id)}
        return data


@dataclass
class Server:
    """One guild's owner, roles and who holds which."""

    guild_id: int
    owner_id: int
    roles: dict[int, Role] = field(default_factory=dict)
    held: dict[int, list[int]] = field(default_factory=dict)  # user -> role ids

    @property
    def everyone(self) -> Role:
        return self.roles[self.guild_id]  # @everyone's id is the guild's

    def add_role(self, role: Role) -> Role:
        role.position = role.position or len(self.roles)
        self.roles[role.id] = role
        return role

    def give(self, user_id: int, *roles: Role) -> None:
        held = self.held.setdefault(user_id, [])
        held += [r.id for r in roles if r.id not in held]

    def roles_of(self, user_id: int) -> list[int]:
        return list(self.held.get(user_id, []))

    def base(self, user_id: int) -> int:
        """Guild-level permissions: the owner's are all, as are an administrator's."""
        if user_id == self.owner_id:
            return ALL
        granted = self.everyone.permissions
        for role_id in self.held.get(user_id, []):
            granted |= self.roles[role_id].permissions
        return ALL if granted & ADMINISTRATOR else granted

    def in_channel(self, user_id: int, overwrites: Iterable[Json], thread: bool = False) -> int:
        """Permissions in a channel with these overwrites (Discord's order); in a
        ``thread`` of it, sending is Send Messages in Threads, so the implicit denials
        follow that one."""
        granted = self.base(user_id)
        if granted == ALL:
            return ALL
        found = {(int(o["id"]), int(o["type"])): o for o in overwrites}
        everyone = found.get((self.guild_id, ROLE))
        if everyone is not None:
            granted = granted & ~int(everyone["deny"]) | int(everyone["allow"])
        allow = deny = 0
        for role_id in self.held.get(user_id, []):
            overwrite = found.get((role_id, ROLE))
            if overwrite is not None:
                allow |= int(overwrite["allow"])
                deny |= int(overwrite["deny"])
        granted = granted & ~deny | allow
        own = found.get((user_id, MEMBER))
        if own is not None:
            granted = granted & ~int(own["deny"]) | int(own["allow"])
        if not granted & VIEW_CHANNEL:
            return 0
        if not granted & (SEND_MESSAGES_IN_THREADS if thread else SEND_MESSAGES):
            granted &= ~NEEDS_SEND
        return granted


def set_overwrite(overwrites: list[Json], target: int, kind: int, allow: int, deny: int) -> None:
    """Put ``target``'s overwrite in ``overwrites`` (none left when both are empty)."""
    overwrites[:] = [o for o in overwrites if int(o["id"]) != target]
    if allow or deny:
        overwrites.append({"id": str(target), "type": kind, "allow": str(allow), "deny": str(deny)})


def overwrite_of(overwrites: Iterable[Json], target: int) -> tuple[int, int]:
    """``target``'s (allow, deny) in ``overwrites``."""
    for o in overwrites:
        if int(o["id"]) == target:
            return int(o["allow"]), int(o["deny"])
    return 0, 0
