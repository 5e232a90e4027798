"""The local Discord as one aiohttp server on loopback: REST, gateway and attachments.

server = LocalDiscord()
await server.start()            # a free port on 127.0.0.1
server.api_base                 # give the bot this as DISCORD_API_BASE
...
await server.stop()
"""

from __future__ import annotations

import os

from aiohttp import web

from localcord.activities import Activities
from localcord.checks import Checks
from localcord.faults import Faults
from localcord.gateway import HEARTBEAT_INTERVAL_MS, IDENTIFY_SPACING, Gateway
from localcord.ratelimit import RateLimits
from localcord.rest import Rest
from localcord.scheduled import Calendar
from localcord.state import World

HOST = "127.0.0.1"


class LocalDiscord:
    def __init__(
        self,
        world: World | None = None,
        shard_count: int = 1,
        heartbeat_interval_ms: int = HEARTBEAT_INTERVAL_MS,
        strict: bool = False,
        rate_limits: bool = True,
        rate_scale: float | None = None,
    ) -> None:
        self.world = world or World()
        self.faults = Faults()
        self.checks = Checks(strict)
        scale = rate_scale or float(os.environ.get("LOCALCORD_RATE_SCALE") or 1.0)
        self.limits = RateLimits(rate_limits, scale=scale)
        self.gateway = Gateway(
            self.world,
            shard_count=shard_count,
            heartbeat_interval_ms=heartbeat_interval_ms,
            identify_spacing=IDENTIFY_SPACING * scale,
        )
        self.activities = Activities(self.world)
        self.rest = Rest(
            self.world, self.gateway, self.faults, self.checks, self.limits, self.activities
        )
        self.app = web.Application(middlewares=[self.rest.middleware], client_max_size=64 << 20)
        self.app.router.add_get("/gateway", self.gateway.handle)
        self.app.add_routes(self.activities.routes())
        # the servers' scheduled events, before REST's catch-all answers unknown routes
        self.calendar = Calendar(self.world)
        self.app.add_routes(self.calendar.routes())
        self.app.add_routes(self.rest.routes())
        self._runner: web.AppRunner | None = None
        self.port = 0

    @property
    def base_url(self) -> str:
        return f"http://{HOST}:{self.port}"

    @property
    def api_base(self) -> str:
        return f"{self.base_url}/api/v10"

    async def start(self, port: int = 0) -> None:
        """Listen on loopback (``port`` 0: any free port)."""
        self._runner = web.AppRunner(self.app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, HOST, port)
        await site.start()
        self.port = self._runner.addresses[0][1]
        self.rest.base_url = self.base_url
        self.gateway.url = f"ws://{HOST}:{self.port}/gateway"

    async def stop(self) -> None:
        self.faults.release()
        await self.gateway.drop(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
