"""The live board's web server, inside the bot's process (aiohttp, which discord.py
brings): the page and its files, the OAuth2 code exchange and one WebSocket per open
page. Discord's proxy serves it at ``https://<app_id>.discordsays.com`` through the URL
mapping (docs/activity.md); the page addresses everything relative to itself.

A socket is signed in by its first message, ``{"type": "hello", "access_token",
"instance_id"}``: the person is whoever Discord says the token belongs to (anything the
page says about itself is ignored), the instance must be one Discord knows for this
application, and the person must be in it. Only then is anything of a match sent.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from aiohttp import WSCloseCode, WSMsgType, web

from bot.live.board import LiveBoard, Viewer
from bot.live.discord_api import Discord
from bot.services.refusal import Refusal
from i18n import _, speaking

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
SDK = Path(__file__).resolve().parents[2] / "activity" / "sdk"  # scripts/setup puts it there
MOST_BYTES = 4096  # a tap is about a hundred bytes; more is refused, not read
SOCKET_LIMIT = 1 << 20  # beyond this aiohttp drops the connection without reading it
HELLO_SECONDS = 30.0
# Discord's CSP lets the page reach only its own origin; the page asks no more of itself.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self' ws: wss:; frame-ancestors *"
)


class LiveServer:
    def __init__(
        self, board: LiveBoard, discord: Discord, client_id: Callable[[], int | None]
    ) -> None:
        self.board = board
        self.discord = discord
        self.client_id = client_id  # the application's, which the page's SDK needs
        self._runner: web.AppRunner | None = None
        self._sockets: set[web.WebSocketResponse] = set()
        self.port: int | None = None

    def app(self) -> web.Application:
        app = web.Application(middlewares=[_headers])
        app.router.add_get("/", self._page)
        app.router.add_get("/api/config", self._config)
        app.router.add_post("/api/token", self._token)
        app.router.add_get("/api/live", self._socket)
        app.router.add_static("/static", STATIC)
        app.on_shutdown.append(self._going_away)
        if SDK.is_dir():
            app.router.add_static("/sdk", SDK)
        else:
            log.warning("the live board's SDK is missing (%s): run bash scripts/setup", SDK)
        return app

    async def start(self, host: str, port: int) -> None:
        self._runner = web.AppRunner(self.app(), access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        self.port = int(self._runner.addresses[0][1])  # the one chosen, for port 0

    async def _going_away(self, app: web.Application) -> None:
        """Close the pages' sockets as the bot stops: a page reconnects to the next
        process, and an open socket would hold the stop for aiohttp's minute."""
        for ws in list(self._sockets):
            await ws.close(code=WSCloseCode.GOING_AWAY, message=b"the bot is stopping")

    async def close(self) -> None:
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()
        await self.discord.close()

    async def _page(self, request: web.Request) -> web.FileResponse:
        return web.FileResponse(STATIC / "index.html")

    async def _config(self, request: web.Request) -> web.Response:
        return web.json_response({"client_id": str(self.client_id())})

    async def _token(self, request: web.Request) -> web.Response:
        """The page's OAuth2 code exchanged for an access token (the client secret
        never leaves the server)."""
        try:
            body = await request.json()
        except (ValueError, UnicodeDecodeError):
            body = None
        code = body.get("code") if isinstance(body, dict) else None
        if not isinstance(code, str) or not 0 < len(code) <= 200:
            return web.json_response({"error": _("no sign-in code was sent")}, status=400)
        try:
            token = await self.discord.exchange(code)
        except Refusal as exc:
            return web.json_response({"error": str(exc)}, status=401)
        return web.json_response({"access_token": token})

    async def _socket(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=SOCKET_LIMIT, heartbeat=30.0)
        await ws.prepare(request)
        self._sockets.add(ws)
        try:
            return await self._serve(ws)
        finally:
            self._sockets.discard(ws)

    async def _serve(self, ws: web.WebSocketResponse) -> web.WebSocketResponse:
        async def send(message: dict[str, Any]) -> None:
            if not ws.closed:
                await ws.send_json(message)

        viewer = await self._sign_in(ws, send)
        if viewer is None:
            await ws.close()
            return ws
        try:
            await self.board.joined(viewer)
            async for message in ws:
                if message.type is not WSMsgType.TEXT:
                    continue
                said = _read(message.data)
                if said is None:
                    with speaking(viewer.person.locale):
                        await send({"type": "refused", "text": _too_long_or_bad(message.data)})
                    continue
                # an action goes on to its end even if the page goes meanwhile: its
                # board is shown and its events published whatever became of the socket
                await asyncio.shield(self.board.handle(viewer, said))
        finally:
            await self.board.left(viewer)
        return ws

    async def _sign_in(self, ws: web.WebSocketResponse, send: Any) -> Viewer | None:
        try:
            first = await ws.receive(timeout=HELLO_SECONDS)
        except TimeoutError:
            return None
        hello = _read(first.data) if first.type is WSMsgType.TEXT else None
        try:
            if not isinstance(hello, dict) or hello.get("type") != "hello":
                raise Refusal(_("the live board did not understand that message"))
            token, instance_id = hello.get("access_token"), hello.get("instance_id")
            if not isinstance(token, str) or not isinstance(instance_id, str):
                raise Refusal(_("the live board did not understand that message"))
            person = await self.discord.person(token)
            instance = await self.discord.instance(instance_id)
            if person.id not in instance.users:
                raise Refusal(_("you are not in this live board; open it again from the game"))
        except Refusal as exc:
            await send({"type": "refused", "text": str(exc), "fatal": True})
            return None
        return Viewer(person, instance, send)


def _read(data: object) -> object:
    """A message as JSON, or None when it is too long or not JSON."""
    if not isinstance(data, str) or len(data.encode()) > MOST_BYTES:
        return None
    try:
        return json.loads(data)
    except ValueError:
        return None


def _too_long_or_bad(data: object) -> str:
    if isinstance(data, str) and len(data.encode()) > MOST_BYTES:
        return _("that message is too long for the live board: nothing was done")
    return _("the live board did not understand that message")


@web.middleware
async def _headers(request: web.Request, handler: Any) -> web.StreamResponse:
    response: web.StreamResponse = await handler(request)
    if response.prepared:  # a socket's answer went out as it opened
        return response
    response.headers["Content-Security-Policy"] = CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Cache-Control"] = "no-cache"
    return response
