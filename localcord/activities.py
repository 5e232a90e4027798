"""Discord's side of an Activity: instances, OAuth2 codes and tokens, and their REST routes.

An instance is launched in a channel by an interaction answered with callback type 12
(``LAUNCH_ACTIVITY``; discord.py's ``InteractionResponse.launch_activity``), or by the App
Launcher's entry point (a ``PRIMARY_ENTRY_POINT`` command, type 4, whose handler 2 has
Discord launch it without asking the app). One runs per channel: a second launch there
joins it. Its participants are the people who have it open; it ends when the last leaves.

The Activity's page asks for a code (the RPC's ``AUTHORIZE``, ``localcord/activity_host.py``),
its server trades it once for an access token (``POST /oauth2/token`` with the client
secret), reads the person with ``GET /users/@me`` and the instance with
``GET /applications/{id}/activity-instances/{instance}`` and the bot token.
"""

from __future__ import annotations

import base64
import binascii
import secrets
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from aiohttp import web

from localcord import permissions, roles
from localcord.bodies import error
from localcord.records import PRIVATE, THREADS, Channel, Interaction, Json, User, as_json
from localcord.state import World

LAUNCH_ACTIVITY = 12  # the interaction callback type
DISCORD_LAUNCH_ACTIVITY = 2  # an entry point's handler: Discord launches, the app is not asked
CODE_LIFETIME = 10 * 60.0  # seconds an authorization code may be traded (Discord: ten minutes)
TOKEN_LIFETIME = 7 * 24 * 3600  # seconds an access token lasts, Discord's expires_in
CLIENT_SECRET = "localcord-client-secret"  # the application's secret, unless given another


@dataclass
class Instance:
    """One running Activity in one channel."""

    id: str
    launch_id: int
    channel: Channel
    users: list[User] = field(default_factory=list)  # who has it open, in order of joining

    def location(self) -> Json:
        channel = self.channel
        where = location_id(channel)
        if channel.type in PRIVATE:
            return {"id": where, "kind": "pc", "channel_id": str(channel.id)}
        return {
            "id": where,
            "kind": "gc",
            "channel_id": str(channel.id),
            "guild_id": str(channel.guild_id),
        }


@dataclass
class Grant:
    """What a code or an access token stands for."""

    user: User
    scopes: list[str]
    until: float


class Activities:
    def __init__(self, world: World, client_secret: str = CLIENT_SECRET) -> None:
        self.world = world
        self.client_secret = client_secret
        self.instances: dict[str, Instance] = {}
        self.codes: dict[str, Grant] = {}
        self.tokens: dict[str, Grant] = {}
        self.launches: list[Instance] = []  # every launch, for tests

    # ------------------------------------------------------------ instances

    def refusal(self, user: User, channel: Channel) -> web.Response | None:
        """Discord's refusal to launch an Activity for ``user`` in ``channel``, or None.

        A thread: Discord's documentation names no Activity location but a guild channel
        or a private one (``gc``, ``pc``) and its clients offer no App Launcher in a
        thread; the code is our reading (50024, "Cannot execute action on this channel
        type"). A server that denies the person Use Embedded Activities: 50013."""
        if channel.type in THREADS:
            return error(400, 50024, "Cannot execute action on this channel type")
        if channel.type not in PRIVATE:
            granted = permissions.of(self.world, user.id, channel)
            if not granted & roles.USE_EMBEDDED_ACTIVITIES:
                return error(403, 50013, "Missing Permissions")
        return None

    def launch(self, user: User, channel: Channel) -> Instance:
        """Open the channel's instance for ``user``, starting one if none runs there."""
        found = self.running_in(channel)
        if found is None:
            launch_id = self.world.ids.next()
            found = Instance(f"i-{launch_id}-{location_id(channel)}", launch_id, channel)
            self.instances[found.id] = found
        self.launches.append(found)
        self.join(found, user)
        return found

    def running_in(self, channel: Channel) -> Instance | None:
        return next((i for i in self.instances.values() if i.channel is channel), None)

    def join(self, instance: Instance, user: User) -> None:
        """``user`` opens ``instance``, closing the one they had open: as in Discord's
        client, a person has one Activity open at a time."""
        for other in list(self.instances.values()):
            if other is not instance:
                self.leave(other, user)
        if user not in instance.users:
            instance.users.append(user)
            self._changed()

    def leave(self, instance: Instance, user: User) -> None:
        """``user`` closes it; the instance ends with its last participant."""
        if user in instance.users:
            instance.users.remove(user)
            if not instance.users:
                del self.instances[instance.id]
            self._changed()

    def _changed(self) -> None:
        self.world.touch(None)

    async def launched(self, request: web.Request, interaction: Interaction) -> web.Response:
        """Callback type 12 on ``interaction``: refused where Discord refuses, else the
        channel's instance opened for the person who acted."""
        refused = self.refusal(interaction.user, interaction.channel)
        if refused is not None:
            return refused
        instance = self.launch(interaction.user, interaction.channel)
        interaction.response_type, interaction.responded = LAUNCH_ACTIVITY, time.monotonic()
        interaction.settled.set()
        if request.query.get("with_response") not in ("1", "true", "True"):
            return web.Response(status=204)
        answer = {
            "id": str(interaction.id),
            "type": interaction.type,
            "activity_instance_id": instance.id,
        }
        resource = {"type": LAUNCH_ACTIVITY, "activity_instance": {"id": instance.id}}
        return as_json({"interaction": answer, "resource": resource})

    # ------------------------------------------------------------ OAuth2

    def authorize(self, user: User, scopes: list[str]) -> str:
        """A code for ``user`` (the RPC's AUTHORIZE: the consent is taken as given)."""
        code = secrets.token_urlsafe(20)
        self.codes[code] = Grant(user, scopes, time.monotonic() + CODE_LIFETIME)
        return code

    def bearer(self, request: web.Request) -> Grant | None:
        """The grant of the request's ``Authorization: Bearer`` token, if it is one."""
        given = request.headers.get("Authorization", "")
        if not given.startswith("Bearer "):
            return None
        grant = self.tokens.get(given.removeprefix("Bearer ").strip())
        return grant if grant is not None and grant.until > time.monotonic() else None

    def routes(self) -> list[web.RouteDef]:
        return [
            # Discord's own examples post to /api/oauth2/token, without a version
            web.post("/api/oauth2/token", self.token),
            web.post("/api/v10/oauth2/token", self.token),
            web.get("/api/v10/applications/{app}/activity-instances/{instance}", self.get_instance),
        ]

    async def token(self, request: web.Request) -> web.Response:
        """The authorization-code grant, as Discord's OAuth2 documentation gives it:
        a form body, the client's id and secret (or HTTP Basic), a code used once."""
        form = dict(await request.post()) if request.can_read_body else {}
        client_id, secret = str(form.get("client_id", "")), str(form.get("client_secret", ""))
        if request.headers.get("Authorization", "").startswith("Basic "):
            client_id, secret = _basic(request.headers["Authorization"])
        if client_id != str(self.world.bot.id) or secret != self.client_secret:
            return _oauth_error(401, "invalid_client")
        if form.get("grant_type") != "authorization_code":
            return _oauth_error(400, "unsupported_grant_type")
        grant = self.codes.pop(str(form.get("code", "")), None)  # a code serves once
        if grant is None or grant.until < time.monotonic():
            return _oauth_error(400, "invalid_grant", 'Invalid "code" in request.')
        access = secrets.token_urlsafe(24)
        self.tokens[access] = Grant(grant.user, grant.scopes, time.monotonic() + TOKEN_LIFETIME)
        return as_json(
            {
                "access_token": access,
                "token_type": "Bearer",
                "expires_in": TOKEN_LIFETIME,
                "refresh_token": secrets.token_urlsafe(24),
                "scope": " ".join(grant.scopes),
            }
        )

    async def get_instance(self, request: web.Request) -> web.Response:
        """The instance as the bot reads it: Discord's EmbeddedActivityInstance."""
        if request.match_info["app"] != str(self.world.bot.id):
            return error(403, 50001, "Missing Access")
        instance = self.instances.get(request.match_info["instance"])
        if instance is None:
            return error(404, 10070, "Unknown Activity Instance")  # our reading of the code
        return as_json(
            {
                "application_id": str(self.world.bot.id),
                "instance_id": instance.id,
                "launch_id": str(instance.launch_id),
                "location": instance.location(),
                "users": [str(u.id) for u in instance.users],
            }
        )

    def me(self, grant: Grant) -> web.Response:
        """``GET /users/@me`` with an access token: the person who authorized."""
        user = grant.user
        body = user.payload() | {"locale": user.locale, "mfa_enabled": False}
        if "email" in grant.scopes:
            body |= {"email": None, "verified": True}
        return as_json(body)


def location_id(channel: Channel) -> str:
    if channel.type in PRIVATE:
        return f"pc-{channel.id}"
    return f"gc-{channel.guild_id}-{channel.id}"


def expires(grant: Grant) -> str:
    """When ``grant`` ends, as the RPC's AUTHENTICATE says it: an ISO date."""
    left = max(0.0, grant.until - time.monotonic())
    return (datetime.now(UTC) + timedelta(seconds=left)).isoformat()


def _basic(header: str) -> tuple[str, str]:
    try:
        decoded = base64.b64decode(header.removeprefix("Basic ").strip()).decode()
    except (binascii.Error, UnicodeDecodeError):
        return "", ""
    client_id, _, secret = decoded.partition(":")
    return client_id, secret


def _oauth_error(status: int, code: str, description: str = "") -> web.Response:
    """OAuth2's error body (RFC 6749 §5.2), which Discord's token endpoint answers with."""
    body = {"error": code} | ({"error_description": description} if description else {})
    return as_json(body, status=status)
