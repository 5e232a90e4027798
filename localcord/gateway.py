"""The gateway: the websocket over which the bot hears about the guild and interactions.

It speaks the subset discord.py uses: HELLO, HEARTBEAT/ACK, IDENTIFY → READY and a
GUILD_CREATE, RESUME → the missed events and RESUMED (or INVALID_SESSION for a session
it does not know), then dispatches. Frames are plain JSON text: discord.py asks for
compressed frames but decompresses only binary ones, so text frames are read as they are.

Every HEARTBEAT's arrival is recorded (``heartbeats``, monotonic seconds per shard):
a bot whose event loop stalls sends them late, which is what the tests watch for.
``heartbeat_interval_ms`` (in HELLO) can be shortened so that a test sees many.

Every dispatched event is kept with its sequence number, so a bot that lost its
connection and resumes receives what it missed, as with Discord.

Sharding follows Discord: the server is started with a shard count (``GET /gateway/bot``
tells it to a bot that asks), each connection IDENTIFYs with ``[shard_id, shard_count]``,
READY lists that shard's guilds, and an event about guild ``g`` goes only to shard
``(g >> 22) % shard_count``; events with no guild go to shard 0. Several bot processes
can therefore each hold some of the shards, as they would on Discord.

Identifies are limited as Discord limits them, per token: one per ``identify_spacing``
seconds (Discord's 5, times the rate scale the tests run at) in each bucket
``shard_id % max_concurrency``. An early one is answered INVALID_SESSION (``d`` false),
as Discord answers it, and counted in ``early_identifies``; every accepted identify is
kept in ``identify_log`` (monotonic time, shard).
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import Iterable
from dataclasses import dataclass, field

from aiohttp import WSMsgType, web

from localcord.records import Json
from localcord.state import World

log = logging.getLogger(__name__)

HELLO, HEARTBEAT, IDENTIFY, RESUME = 10, 1, 2, 6
DISPATCH, INVALID_SESSION, HEARTBEAT_ACK = 0, 9, 11
HEARTBEAT_INTERVAL_MS = 41250
INVALID_SHARD = 4010  # Discord's close code for a shard id or count it does not accept
IDENTIFY_SPACING = 5.0  # seconds between identifies of one bucket (Discord's rule)
MAX_CONCURRENCY = 1  # identify buckets, as GET /gateway/bot tells a bot of under 150k servers


GUILD_SCHEDULED_EVENTS = 1 << 16  # the intent: events and who is interested in them
KEEP_EVENTS = 20000  # a bot away for longer than this many events must identify anew


@dataclass
class Session:
    id: str
    shard: int = 0
    seq: int = 0
    intents: int = 0  # what IDENTIFY asked for
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

    def hears(self, event: str) -> bool:
        """Whether the intents this session asked for bring ``event`` (only the Guild
        Scheduled Events intent is told apart: localcord sends the rest to everyone)."""
        return not event.startswith("GUILD_SCHEDULED_EVENT_") or bool(
            self.intents & GUILD_SCHEDULED_EVENTS
        )

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
    def __init__(
        self,
        world: World,
        url: str = "",
        shard_count: int = 1,
        heartbeat_interval_ms: int = HEARTBEAT_INTERVAL_MS,
        identify_spacing: float = IDENTIFY_SPACING,
    ) -> None:
        self.world = world
        self.identify_spacing = identify_spacing
        self.identify_log: list[tuple[float, int]] = []
        self.early_identifies = 0
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.heartbeats: dict[int, list[float]] = {}  # shard -> arrival times
        self.url = url  # ws://host:port/gateway, set once the server listens
        self.shard_count = shard_count
        self.sessions: dict[str, Session] = {}  # resumable sessions by id
        self.current: dict[int, Session] = {}  # shard id -> its session, live or away
        self.identified = asyncio.Event()  # set at every IDENTIFY
        self.identifies = 0
        self.resumes = 0
        world.dispatch = self.dispatch

    def shard_of(self, guild_id: int) -> int:
        return (guild_id >> 22) % self.shard_count

    def dispatch(self, event: str, data: Json) -> None:
        """Send an event to the shard that owns its guild, or keep it for that shard's
        resume if it is away."""
        guild = (
            data.get("id") if event in ("GUILD_CREATE", "GUILD_DELETE") else data.get("guild_id")
        )
        session = self.current.get(self.shard_of(int(guild)) if guild else 0)
        if session is None or not session.hears(event):
            return
        frame = session.record(event, data)
        if session.outbox is not None:
            session.outbox.put_nowait(frame)

    async def wait_for_shards(self, shards: Iterable[int], timeout: float) -> None:
        """Wait until each of ``shards`` has identified (or resumed) and is connected."""
        wanted = set(shards)
        async with asyncio.timeout(timeout):
            while not all(
                (s := self.current.get(shard)) is not None and s.socket is not None
                for shard in wanted
            ):
                self.identified.clear()
                await self.identified.wait()

    async def drop(
        self, code: int = 4000, forget: bool = False, shards: Iterable[int] | None = None
    ) -> None:
        """Close the bot's connections (those of ``shards``; all by default) the way a
        Discord gateway restart does. The sessions stay resumable unless ``forget``:
        then the bot's RESUME is refused and it must identify anew (and, as on Discord,
        misses what happened meanwhile)."""
        chosen = [s for shard, s in self.current.items() if shards is None or shard in shards]
        for session in chosen:
            if forget:
                self.sessions.pop(session.id, None)
                self.identified.clear()
            if session.socket is not None:
                socket = session.socket
                session.detach()
                await socket.close(code=code, message=b"localcord: dropped")

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse(max_msg_size=0)
        await socket.prepare(request)
        await socket.send_json(
            {"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_interval_ms}}
        )
        async for msg in socket:
            if msg.type != WSMsgType.TEXT:
                break
            frame = json.loads(msg.data)
            op, data = frame.get("op"), frame.get("d")
            if op == HEARTBEAT:
                self.heartbeats.setdefault(self._shard_on(socket), []).append(time.monotonic())
                await socket.send_json({"op": HEARTBEAT_ACK, "d": None})
            elif op == IDENTIFY:
                if self._too_early(data or {}):
                    await socket.send_json({"op": INVALID_SESSION, "d": False})
                elif not self._identify(socket, data or {}):
                    await socket.close(code=INVALID_SHARD, message=b"Invalid shard")
                    break
            elif op == RESUME:
                await self._resume(socket, data)
        for session in self.sessions.values():
            if session.socket is socket:
                session.detach()
        return socket

    def _shard_on(self, socket: web.WebSocketResponse) -> int:
        """The shard a connection speaks for (-1 before it identified)."""
        return next((s.shard for s in self.current.values() if s.socket is socket), -1)

    def _too_early(self, data: Json) -> bool:
        """Whether an IDENTIFY comes less than ``identify_spacing`` after the last one
        accepted in its bucket."""
        shard = int((data.get("shard") or (0, 1))[0])
        now = time.monotonic()
        last = max(
            (at for at, s in self.identify_log if s % MAX_CONCURRENCY == shard % MAX_CONCURRENCY),
            default=None,
        )
        if last is not None and now - last < self.identify_spacing:
            self.early_identifies += 1
            log.warning("gateway: shard %s identified %.2f s after the last", shard, now - last)
            return True
        self.identify_log.append((now, shard))
        return False

    def _identify(self, socket: web.WebSocketResponse, data: Json) -> bool:
        shard, count = data.get("shard") or (0, 1)
        if count != self.shard_count or not 0 <= shard < count:
            log.warning("gateway: refused shard %s of %s (have %d)", shard, count, self.shard_count)
            return False
        old = self.current.get(shard)
        if old is not None:
            old.detach()
            self.sessions.pop(old.id, None)
        session = Session(secrets.token_hex(16), shard, intents=int(data.get("intents") or 0))
        self.sessions[session.id] = session
        self.current[shard] = session
        self.identifies += 1
        w = self.world
        mine = [g for g in w.bot_guilds if self.shard_of(g) == shard]
        ready = {
            "v": 10,
            "user": w.bot.payload() | {"verified": True, "mfa_enabled": False, "flags": 0},
            "guilds": [{"id": str(g), "unavailable": True} for g in mine],
            "session_id": session.id,
            "resume_gateway_url": self.url,
            "application": {"id": str(w.bot.id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "shard": [shard, count],
        }
        frames = [session.record("READY", ready)]
        frames += [session.record("GUILD_CREATE", w.guild_payload(g)) for g in mine]
        session.attach(socket, frames)
        self.identified.set()
        return True

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
        self.current[session.shard] = session
        session.attach(socket, [*missed, resumed])
        self.identified.set()
        log.info("gateway: session resumed, %d missed events replayed", len(missed))


async def _pump(socket: web.WebSocketResponse, outbox: asyncio.Queue[Json | None]) -> None:
    while (frame := await outbox.get()) is not None:
        try:
            await socket.send_json(frame)
        except ConnectionError:
            return  # the bot went away; it gets these events again when it resumes
