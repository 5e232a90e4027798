"""The REST API under ``/api/v10``: the routes the bot calls, answered from the world.

Login and application info, the gateway's address, command sync, interaction
callbacks (with file uploads), follow-ups and edits through the interaction webhook,
channel messages and threads. Attachments are served under ``/attachments/`` so
``Attachment.read()`` and the playground's browser can fetch them. A request for a
route it does not know gets a Discord-style 404 and a warning in the log, so a gap
shows up in the test output instead of as a hang.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from aiohttp import web

from localcord import emojis, permissions, threads
from localcord.activities import Activities
from localcord.bodies import Messages, error, invalid, read_body
from localcord.checks import Checks, unauthorized
from localcord.faults import Faults
from localcord.gateway import MAX_CONCURRENCY, Gateway
from localcord.interaction_routes import InteractionRoutes, message_body
from localcord.ratelimit import RateLimits
from localcord.records import (
    DM_CHANNEL,
    TOKEN_LIFETIME,
    Attachment,
    Message,
    Request,
    as_json,
)
from localcord.state import World

log = logging.getLogger(__name__)

API = "/api/v10"
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class Rest:
    def __init__(
        self,
        world: World,
        gateway: Gateway,
        faults: Faults,
        checks: Checks | None = None,
        limits: RateLimits | None = None,
        activities: Activities | None = None,
    ) -> None:
        self.world = world
        self.gateway = gateway
        self.faults = faults
        self.checks = checks or Checks()
        self.limits = limits or RateLimits()
        self.messages = Messages(world)
        self.activities = activities or Activities(world)
        self.interactions = InteractionRoutes(world, self.messages, self.checks, self.activities)

    @property
    def base_url(self) -> str:
        return self.messages.base_url

    @base_url.setter
    def base_url(self, url: str) -> None:
        self.messages.base_url = url

    @property
    def attachments(self) -> dict[int, Attachment]:
        return self.messages.attachments

    def routes(self) -> list[web.RouteDef]:
        hook = self.interactions
        r = [
            ("GET", "/users/@me", self.me),
            ("POST", "/users/@me/channels", self.open_dm),
            ("GET", "/users/{user}", self.get_user),
            ("GET", "/oauth2/applications/@me", self.application),
            ("GET", "/applications/@me", self.application),
            ("GET", "/gateway", self.gateway_url),
            ("GET", "/gateway/bot", self.gateway_url),
            ("PUT", "/applications/{app}/commands", self.put_commands),
            ("GET", "/applications/{app}/commands", self.get_commands),
            ("PUT", "/applications/{app}/guilds/{guild}/commands", self.put_commands),
            ("GET", "/applications/{app}/guilds/{guild}/commands", self.get_commands),
            ("POST", "/interactions/{id}/{token}/callback", hook.callback),
            ("POST", "/webhooks/{app}/{token}", hook.followup),
            ("GET", "/webhooks/{app}/{token}/messages/{message}", hook.webhook_get),
            ("PATCH", "/webhooks/{app}/{token}/messages/{message}", hook.webhook_edit),
            (
                "DELETE",
                "/webhooks/{app}/{token}/messages/{message}",
                self.interactions.webhook_delete,
            ),
            ("GET", "/channels/{channel}", self.get_channel),
            ("PATCH", "/channels/{channel}", self.modify_channel),
            ("POST", "/channels/{channel}/messages", self.send),
            ("GET", "/channels/{channel}/messages", self.history),
            ("GET", "/channels/{channel}/messages/{message}", self.get_message),
            ("PATCH", "/channels/{channel}/messages/{message}", self.edit),
            ("DELETE", "/channels/{channel}/messages/{message}", self.delete),
            ("POST", "/channels/{channel}/threads", self.thread),
            ("POST", "/channels/{channel}/messages/{message}/threads", self.thread),
            ("PUT", "/channels/{channel}/thread-members/@me", self.no_content),
            ("POST", "/channels/{channel}/typing", self.no_content),
        ]
        defs = [web.route(method, API + path, handler) for method, path, handler in r]
        defs += threads.routes(self.world, API)
        defs += emojis.routes(self.world.emojis, self.world.ids, self.world.bot, API)
        defs.append(web.get("/attachments/{id}/{filename}", self.attachment))
        defs.append(web.route("*", API + "/{tail:.*}", self.unknown))
        return defs

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Record every API call; the faults answer first, then Discord's rate limits."""
        if not request.path.startswith(API):
            return await handler(request)
        if self.faults.latency:
            await asyncio.sleep(self.faults.latency)
        response: web.StreamResponse | None = await self.faults.take(request.method, request.path)
        if response is None:
            limited, headers = self.limits.take(request.method, request.path.removeprefix(API))
            response = limited or await self._checked(request, handler)
            response.headers.update(headers)
        operation = self.checks.operation(request)
        if operation is not None and isinstance(response, web.Response):
            self.checks.answer(request, operation, response)
        self.world.requests.append(
            Request(request.method, request.path, response.status, time.time())
        )
        return response

    async def _checked(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """The route's answer, unless Discord would have refused the call first."""
        if not self.checks.authorised(request):
            return unauthorized()
        token = request.match_info.get("token")
        webhook = request.path.startswith(f"{API}/webhooks/")
        found = self.world.interactions.get(token) if token and webhook else None
        if found is not None and time.monotonic() - found.created > TOKEN_LIFETIME:
            return error(401, 50027, "Invalid Webhook Token")
        operation = self.checks.operation(request)
        if operation is None:
            return await handler(request)
        files = 0
        if operation.request is not None and request.can_read_body:
            body, uploaded = await read_body(request)
            files = len(uploaded)
            if problems := self.checks.request(operation, body):
                return self.checks.refused(request, problems)
        if (refused := self._forbidden(request, files)) is not None:
            return refused
        return await handler(request)

    def _forbidden(self, request: web.Request, files: int) -> web.Response | None:
        """Discord's 403 for a channel call the bot's permissions do not allow."""
        key = request.match_info.get("channel")
        channel = self.world.channels.get(int(key)) if key and key.isdigit() else None
        if channel is not None and not channel.bot_member:
            # a DM or group DM between people: only interactions' answers reach it
            return error(403, 50001, "Missing Access")
        if channel is None or channel.type == DM_CHANNEL:  # a DM has no permissions to lack
            return None
        if channel.guild_id in self.world.removed_from:
            return error(403, 50001, "Missing Access")
        granted = permissions.of_bot(self.world, channel)
        path = request.path.removeprefix(API)
        found = permissions.refusal(request.method, path, granted, channel, files=files > 0)
        if found is not None:
            return error(*found)
        if channel.parent_id is not None and permissions.HISTORY.match(path):
            # Discord answers these with 400, as it does other refused operations
            moved = threads.refusal(self.world, channel, request.method, granted)
            return None if moved is None else error(400, *moved)
        return None

    # ------------------------------------------------------------ the application

    async def me(self, request: web.Request) -> web.Response:
        if (grant := self.activities.bearer(request)) is not None:
            return self.activities.me(grant)
        if not request.headers.get("Authorization", "").startswith("Bot "):
            return unauthorized()
        return as_json(
            self.world.bot.payload() | {"verified": True, "mfa_enabled": False, "locale": "en-US"}
        )

    async def open_dm(self, request: web.Request) -> web.Response:
        body, _ = await read_body(request)
        user = self.world.users.get(int(body.get("recipient_id") or 0))
        if user is None or user.bot:
            return error(400, 50007, "Cannot send messages to this user")
        return as_json(self.world.dm_channel(user).payload())

    async def get_user(self, request: web.Request) -> web.Response:
        key = request.match_info["user"]
        user = self.world.users.get(int(key)) if key.isdigit() else None
        if user is None:
            return error(404, 10013, "Unknown User")
        return as_json(user.payload())

    async def application(self, request: web.Request) -> web.Response:
        w = self.world
        return as_json(
            {
                "id": str(w.bot.id),
                "name": w.bot.name,
                "icon": None,
                "description": "Crosshairs on a local Discord",
                "rpc_origins": [],
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": w.owner.payload(),
                "team": None,
                "verify_key": "0" * 64,
                "flags": 0,
                "flags_new": "0",
                "type": None,
                "redirect_uris": [],
                "interactions_endpoint_url": None,
                "role_connections_verification_url": None,
                "approximate_guild_count": len(w.bot_guilds),
                "approximate_user_install_count": 0,
                "approximate_user_authorization_count": 0,
                "explicit_content_filter": 0,
                "eligible_oauth2_scopes": ["applications.commands", "bot"],
            }
        )

    async def gateway_url(self, request: web.Request) -> web.Response:
        return as_json(
            {
                "url": self.gateway.url,
                "shards": self.gateway.shard_count,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 1000,
                    "reset_after": 0,
                    "max_concurrency": MAX_CONCURRENCY,
                },
            }
        )

    async def put_commands(self, request: web.Request) -> web.Response:
        w = self.world
        w.commands = [
            command
            | {
                "id": str(w.ids.next()),
                "application_id": str(w.bot.id),
                "version": str(w.ids.next()),
                "type": command.get("type", 1),
                "integration_types": command.get("integration_types") or [0],
            }
            for command in await request.json()
        ]
        w.commands_synced.set()
        w.touch(None)
        return as_json(w.commands)

    async def get_commands(self, request: web.Request) -> web.Response:
        return as_json(self.world.commands)

    # ------------------------------------------------------------ channels

    async def get_channel(self, request: web.Request) -> web.Response:
        channel = self.world.channels.get(int(request.match_info["channel"]))
        if channel is None:
            return error(404, 10003, "Unknown Channel")
        return as_json(channel.payload())

    async def modify_channel(self, request: web.Request) -> web.Response:
        """Only what the bot does with it: reopen (or archive, or lock) a thread."""
        channel = self.world.channels.get(int(request.match_info["channel"]))
        if channel is None:
            return error(404, 10003, "Unknown Channel")
        if channel.parent_id is None:
            return error(400, 50024, "Cannot execute action on this channel type")
        granted = permissions.of_bot(self.world, channel)
        refused = threads.modify(self.world, channel, await request.json(), granted)
        return as_json(channel.payload()) if refused is None else error(403, *refused)

    async def send(self, request: web.Request) -> web.Response:
        channel = self.world.channels.get(int(request.match_info["channel"]))
        if channel is None:
            return error(404, 10003, "Unknown Channel")
        read = await message_body(request, self.checks)
        if isinstance(read, web.Response):
            return read
        body, files = read
        message = self.world.post(
            channel,
            self.world.bot,
            content=str(body.get("content") or ""),
            attachments=self.messages.attachments_of(body, files, []),
            components=body.get("components") or [],
            embeds=body.get("embeds") or [],
            flags=int(body.get("flags") or 0),
            allowed_mentions=body.get("allowed_mentions"),
            nonce=body.get("nonce"),
            enforce_nonce=bool(body.get("enforce_nonce")),
        )
        return as_json(self.messages.payload(message))

    async def history(self, request: web.Request) -> web.Response:
        channel = self.world.channels.get(int(request.match_info["channel"]))
        if channel is None:
            return error(404, 10003, "Unknown Channel")
        limit = int(request.query.get("limit", "50"))
        newest = list(reversed(self.world.history(channel)))[:limit]
        return as_json([self.messages.payload(m) for m in newest])

    def _channel_message(self, request: web.Request) -> Message | None:
        message = self.world.messages.get(int(request.match_info["message"]))
        if (
            message is None
            or message.deleted
            or message.ephemeral
            or str(message.channel.id) != request.match_info["channel"]
        ):
            return None
        return message

    async def get_message(self, request: web.Request) -> web.Response:
        message = self._channel_message(request)
        if message is None:
            return error(404, 10008, "Unknown Message")
        return as_json(self.messages.payload(message))

    async def edit(self, request: web.Request) -> web.Response:
        message = self._channel_message(request)
        if message is None:
            return error(404, 10008, "Unknown Message")
        if message.author is not self.world.bot:
            return error(403, 50005, "Cannot edit a message authored by another user")
        body, files = await read_body(request)
        if refused := invalid(body):
            return refused
        return as_json(self.messages.payload(self.messages.edit(message, body, files)))

    async def delete(self, request: web.Request) -> web.Response:
        message = self._channel_message(request)
        if message is None:
            return error(404, 10008, "Unknown Message")
        self.world.delete(message)
        return web.Response(status=204)

    async def thread(self, request: web.Request) -> web.Response:
        parent = self.world.channels.get(int(request.match_info["channel"]))
        if parent is None:
            return error(404, 10003, "Unknown Channel")
        granted = permissions.of_bot(self.world, parent)
        made = threads.create(
            self.world, parent, await request.json(), granted, "message" in request.match_info
        )
        return error(403, *made) if isinstance(made, tuple) else as_json(made.payload(), status=201)

    async def no_content(self, request: web.Request) -> web.Response:
        return web.Response(status=204)

    async def attachment(self, request: web.Request) -> web.Response:
        found = self.attachments.get(int(request.match_info["id"]))
        if found is None or found.filename != request.match_info["filename"]:
            raise web.HTTPNotFound()
        return web.Response(body=found.data, content_type=found.content_type)

    async def unknown(self, request: web.Request) -> web.Response:
        log.warning("localcord: no route for %s %s", request.method, request.path)
        return error(404, 0, f"localcord does not implement {request.method} {request.path}")
