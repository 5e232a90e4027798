"""Where the playground shows an Activity: a stand-in for ``https://<app_id>.discordsays.com``.

An origin of its own (another loopback port), as Discord gives each Activity, that

- proxies every path to the Activity's server (``activity_url``; HTTP and WebSockets, and
  ``/.proxy/…`` as Discord's proxy does), as the Developer Portal's root URL mapping;
- serves, under ``/.localcord/``, the frame that plays Discord's client around the
  Activity's iframe (``static/activity/frame.html`` and its RPC module ``rpc.js``) and the
  few calls that frame makes: a code for AUTHORIZE, the person of AUTHENTICATE, the
  instance's participants (a long poll).

The frame shares the Activity's origin because the SDK hears only messages from Discord's
own origins or from its page's: a playground page on another port would be ignored.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from pathlib import Path

import aiohttp
from aiohttp import web
from yarl import URL

from localcord.activities import Activities, Instance, expires
from localcord.records import PRIVATE, Json, User, as_json
from localcord.state import World

log = logging.getLogger(__name__)

FRAME = Path(__file__).with_name("static") / "activity"
HOST = "127.0.0.1"
POLL_SECONDS = 20.0
# headers that belong to one hop, not to the request or answer passed on
HOP = {
    "connection",
    "keep-alive",
    "transfer-encoding",
    "upgrade",
    "host",
    "content-length",
    "content-encoding",
}


class ActivityHost:
    def __init__(self, world: World, activities: Activities, activity_url: str = "") -> None:
        self.world = world
        self.activities = activities
        self.activity_url = activity_url.rstrip("/")
        self.app = web.Application()
        self.app.add_routes(
            [
                web.get("/.localcord/frame", self.frame),
                web.static("/.localcord/static", FRAME),
                web.post("/.localcord/authorize", self.authorize),
                web.post("/.localcord/authenticate", self.authenticate),
                web.get("/.localcord/participants", self.participants),
                web.post("/.localcord/leave", self.leave),
                web.route("*", "/{tail:.*}", self.proxy),
            ]
        )
        self._runner: web.AppRunner | None = None
        self._session: aiohttp.ClientSession | None = None
        self._sockets: set[aiohttp.ClientWebSocketResponse] = set()
        self.closing = False
        self.port = 0

    @property
    def base_url(self) -> str:
        return f"http://{HOST}:{self.port}"

    async def start(self, port: int = 0) -> None:
        self._session = aiohttp.ClientSession(auto_decompress=False)
        self._runner = web.AppRunner(self.app, access_log=None, handle_signals=False)
        await self._runner.setup()
        await web.TCPSite(self._runner, HOST, port).start()
        self.port = self._runner.addresses[0][1]

    async def stop(self) -> None:
        """Stop, answering the frames' pending polls and closing the sockets passed on
        first, or stopping would wait them out."""
        self.closing = True
        self.world.touch(None)
        for socket in list(self._sockets):
            await socket.close()
        if self._runner is not None:
            await self._runner.shutdown()
            await self._runner.cleanup()
            self._runner = None
        if self._session is not None:
            await self._session.close()

    def frame_url(self, instance: Instance, user: User, platform: str = "desktop") -> str:
        """The address of ``user``'s frame around ``instance`` (what the playground shows):
        what Discord's client knows of the launch, given to the frame in its query."""
        channel = instance.channel
        query = {
            "instance_id": instance.id,
            "user": str(user.id),
            "client_id": str(self.world.bot.id),
            "platform": platform,
            "channel_id": str(channel.id),
            "locale": user.locale,
        }
        if channel.type not in PRIVATE:
            query["guild_id"] = str(channel.guild_id)
        return str(URL(self.base_url + "/.localcord/frame").with_query(query))

    # ------------------------------------------------------------ the frame's calls

    async def frame(self, request: web.Request) -> web.StreamResponse:
        return web.FileResponse(FRAME / "frame.html")

    def _caller(self, body: Json | dict[str, str]) -> tuple[User | None, str]:
        key = str(body.get("user", ""))
        return self.world.users.get(int(key)) if key.isdigit() else None, str(
            body.get("instance_id", "")
        )

    async def authorize(self, request: web.Request) -> web.Response:
        """A code for the frame's person, if they are in the instance (Discord's consent
        is taken as given: the person asked for the Activity)."""
        body = await request.json()
        user, key = self._caller(body)
        instance = self.activities.instances.get(key)
        if user is None or instance is None or user not in instance.users:
            return as_json({"code": 4010, "message": "Not in this Activity instance"}, 403)
        if str(body.get("client_id")) != str(self.world.bot.id):
            return as_json({"code": 4007, "message": "Invalid client id"}, 400)
        scopes = [str(s) for s in body.get("scope") or []]
        return as_json({"code": self.activities.authorize(user, scopes)})

    async def authenticate(self, request: web.Request) -> web.Response:
        """AUTHENTICATE's answer for an access token of the frame's own person."""
        body = await request.json()
        user, _ = self._caller(body)
        grant = self.activities.tokens.get(str(body.get("access_token", "")))
        stale = grant is None or grant.until < time.monotonic()
        if grant is None or stale or user is None or grant.user is not user:
            return as_json({"code": 4009, "message": "Invalid access token"}, 401)
        bot = self.world.bot
        application = {"id": str(bot.id), "name": bot.name, "description": "", "icon": None}
        person = {
            k: v
            for k, v in user.payload().items()
            if k in ("id", "username", "discriminator", "avatar", "public_flags", "global_name")
        }
        return as_json(
            {
                "access_token": body["access_token"],
                "user": person,
                "scopes": grant.scopes,
                "expires": expires(grant),
                "application": application,
            }
        )

    async def participants(self, request: web.Request) -> web.Response:
        """The instance's participants once they differ from ``since`` (the world's
        version the frame last saw): a long poll, as the playground's page polls."""
        since = int(request.query.get("since", "-1"))
        deadline = time.monotonic() + POLL_SECONDS
        while self.world.version <= since and time.monotonic() < deadline and not self.closing:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.world.changed().wait(), deadline - time.monotonic())
        instance = self.activities.instances.get(request.query.get("instance_id", ""))
        people = instance.users if instance is not None else []
        return as_json(
            {
                "version": self.world.version,
                "participants": [u.payload() | {"flags": 0} for u in people],
            }
        )

    async def leave(self, request: web.Request) -> web.Response:
        """The Activity closed itself (the SDK's ``close``): its person leaves it."""
        user, key = self._caller(await request.json())
        instance = self.activities.instances.get(key)
        if user is not None and instance is not None:
            self.activities.leave(instance, user)
        return as_json({"ok": True})

    # ------------------------------------------------------------ the URL mapping

    async def proxy(self, request: web.Request) -> web.StreamResponse:
        """The request passed on to the Activity's server, as Discord's proxy does."""
        if not self.activity_url:
            return web.Response(
                status=502,
                text="No Activity is served here: start the playground with ACTIVITY_URL set.",
            )
        path = request.rel_url.path_qs
        if path.startswith("/.proxy/"):
            path = path.removeprefix("/.proxy")
        target = self.activity_url + path
        headers = {k: v for k, v in request.headers.items() if k.lower() not in HOP}
        assert self._session is not None
        if request.headers.get("Upgrade", "").lower() == "websocket":
            return await self._websocket(request, target, headers)
        try:
            async with self._session.request(
                request.method,
                target,
                headers=headers,
                data=await request.read() if request.can_read_body else None,
                allow_redirects=False,
            ) as answer:
                body = await answer.read()
                kept = {k: v for k, v in answer.headers.items() if k.lower() not in HOP}
                kept.pop("Content-Encoding", None)
                return web.Response(status=answer.status, body=body, headers=kept)
        except aiohttp.ClientError as exc:
            log.warning("activity host: %s %s failed: %s", request.method, target, exc)
            return web.Response(status=502, text=f"The Activity's server did not answer: {exc}")

    async def _websocket(
        self, request: web.Request, target: str, headers: dict[str, str]
    ) -> web.StreamResponse:
        assert self._session is not None
        protocols = [
            p.strip() for p in request.headers.get("Sec-WebSocket-Protocol", "").split(",") if p
        ]
        passed = {
            k: v
            for k, v in headers.items()
            if not k.lower().startswith("sec-websocket") and k.lower() != "origin"
        }
        url = "ws" + target.removeprefix("http")
        try:
            upstream = await self._session.ws_connect(
                url, headers=passed, protocols=protocols, origin=request.headers.get("Origin")
            )
        except aiohttp.ClientError as exc:
            return web.Response(status=502, text=f"The Activity's socket did not open: {exc}")
        self._sockets.add(upstream)
        downstream = web.WebSocketResponse(protocols=protocols)
        try:
            await downstream.prepare(request)
        except ConnectionResetError:  # the frame went while its socket was opened
            self._sockets.discard(upstream)
            await upstream.close()
            return downstream
        pumps = [
            asyncio.ensure_future(_pump(upstream, downstream)),
            asyncio.ensure_future(_pump(downstream, upstream)),
        ]
        try:
            await asyncio.wait(pumps, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for pump in pumps:
                pump.cancel()
            self._sockets.discard(upstream)
            await upstream.close()
            await downstream.close()
        return downstream


async def _pump(
    source: aiohttp.ClientWebSocketResponse | web.WebSocketResponse,
    sink: aiohttp.ClientWebSocketResponse | web.WebSocketResponse,
) -> None:
    async for message in source:
        if message.type == aiohttp.WSMsgType.TEXT:
            await sink.send_str(message.data)
        elif message.type == aiohttp.WSMsgType.BINARY:
            await sink.send_bytes(message.data)
        else:
            break
