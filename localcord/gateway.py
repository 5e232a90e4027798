"""The gateway: the websocket over which the bot hears about the guild and interactions.

It speaks the subset discord.py uses: HELLO, HEARTBEAT/ACK, IDENTIFY → READY and a
GUILD_CREATE, RESUME → the missed events and RESUMED (or INVALID_SESSION for a session
it does not know), then dispatches. Frames are plain JSON text: discord.py asks for
compressed frames but decompresses only binary ones, so text frames are read as they are.

Every dispatched event is kept with its sequence number, so a bot that lost its
connection and resumes receives what it missed, as with Discord.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from dataclasses import dataclass, field

from aiohttp import WSMsgType, web

from localcord.state import Json, World

log = logging.getLogger(__name__)

HELLO, HEARTBEAT, IDENTIFY, RESUME = 10, 1, 2, 6
DISPATCH, INVALID_SESSION, HEARTBEAT_ACK = 0, 9, 11
HEARTBEAT_INTERVAL_MS = 41250


KEEP_EVENTS = 20000  # a bot away for longer than this many events must identify anew


@dataclass
class Session:
    id: str
    seq: int = 0
    sent: list[tuple[int, str, Json]] = field(default_factory=list)
    socket: web.WebSocketResponse | None = None
    # One writer per connection keeps frames in sequence order.
    outbox: asyncio.Queue[Json | None] | None = None

    def record(self, event: str, data: Json) -> Json:
        self.seq += 1
        self.sent.append((self.seq, event, data))
        if len(self.sent) > KEEP_EVENTS:
            del self.sent[: len(self.sent) - KEEP_EVENTS]
        return {"op": DISPATCH, "t": event, "s": self.seq, "d": data}

    def attach(self, socket: web.WebSocketResponse, frames: list[Json]) -> None:
        """Make ``socket`` this session's connection, sending ``frames`` first."""
        self.detach()
        outbox: asyncio.Queue[Json | None] = asyncio.Queue()
        for frame in frames:
            outbox.put_nowait(frame)
        self.socket, self.outbox = socket, outbox
        asyncio.get_running_loop().create_task(_pump(socket, outbox))

    def detach(self) -> None:
        if self.outbox is not None:
            self.outbox.put_nowait(None)
        self.socket = self.outbox = None


class Gateway:
    def __init__(self, world: World, url: str = "") -> None:
        self.world = world
        self.url = url  # ws://host:port/gateway, set once the server listens
        self.sessions: dict[str, Session] = {}
        self.current: Session | None = None
        self.identified = asyncio.Event()
        self.identifies = 0
        self.resumes = 0
        world.dispatch = self.dispatch

    def dispatch(self, event: str, data: Json) -> None:
        """Send an event to the bot, or keep it for its resume if it is away."""
        session = self.current
        if session is None:
            return
        frame = session.record(event, data)
        if session.outbox is not None:
            session.outbox.put_nowait(frame)

    async def drop(self, code: int = 4000, forget: bool = False) -> None:
        """Close the bot's connection the way a Discord gateway restart does. The
        session stays resumable unless ``forget``: then the bot's RESUME is refused and
        it must identify anew (and, as on Discord, misses what happened meanwhile)."""
        session = self.current
        if forget:
            self.sessions.clear()
            self.identified.clear()
        if session is not None and session.socket is not None:
            socket = session.socket
            session.detach()
            await socket.close(code=code, message=b"localcord: dropped")

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse(max_msg_size=0)
        await socket.prepare(request)
        await socket.send_json({"op": HELLO, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}})
        async for msg in socket:
            if msg.type != WSMsgType.TEXT:
                break
            frame = json.loads(msg.data)
            op, data = frame.get("op"), frame.get("d")
            if op == HEARTBEAT:
                await socket.send_json({"op": HEARTBEAT_ACK, "d": None})
            elif op == IDENTIFY:
                self._identify(socket)
            elif op == RESUME:
                await self._resume(socket, data)
        for session in self.sessions.values():
            if session.socket is socket:
                session.detach()
        return socket

    def _identify(self, socket: web.WebSocketResponse) -> None:
        if self.current is not None:
            self.current.detach()
        session = Session(secrets.token_hex(16))
        self.sessions = {session.id: session}
        self.current = session
        self.identifies += 1
        w = self.world
        ready = {
            "v": 10,
            "user": w.bot.payload() | {"verified": True, "mfa_enabled": False, "flags": 0},
            "guilds": [{"id": str(w.guild_id), "unavailable": True}],
            "session_id": session.id,
            "resume_gateway_url": self.url,
            "application": {"id": str(w.bot.id), "flags": 0},
            "private_channels": [],
            "relationships": [],
        }
        frames = [session.record("READY", ready), session.record("GUILD_CREATE", w.guild_payload())]
        session.attach(socket, frames)
        self.identified.set()

    async def _resume(self, socket: web.WebSocketResponse, data: Json) -> None:
        session = self.sessions.get(str(data.get("session_id")))
        after = int(data.get("seq") or 0)
        if session is None or (session.sent and session.sent[0][0] > after + 1):
            await socket.send_json({"op": INVALID_SESSION, "d": False})
            return
        self.resumes += 1
        missed = [
            {"op": DISPATCH, "t": event, "s": seq, "d": payload}
            for seq, event, payload in session.sent
            if seq > after
        ]
        # RESUMED is not kept: a later resume has nothing to replay it for.
        resumed = {"op": DISPATCH, "t": "RESUMED", "s": session.seq, "d": {}}
        session.attach(socket, [*missed, resumed])
        log.info("gateway: session resumed, %d missed events replayed", len(missed))


async def _pump(socket: web.WebSocketResponse, outbox: asyncio.Queue[Json | None]) -> None:
    while (frame := await outbox.get()) is not None:
        try:
            await socket.send_json(frame)
        except ConnectionError:
            return  # the bot went away; it gets these events again when it resumes
