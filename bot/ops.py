"""What operators see of a running bot process: ``/metrics``, ``/healthz``, JSON logs.

:class:`Operations` is created with the bot. It counts interactions by kind, times each
answer (from the interaction's creation, which its snowflake id records, to the
bot's first reply reaching Discord — the span Discord's three-second deadline is
about), watches the event loop's lag, and, when ``METRICS_PORT`` is set, serves the
figures on 127.0.0.1 at that port in Prometheus' text format, with ``/healthz`` saying
whether every shard of the process is connected.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import sys
import time
import traceback
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord
from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from bot.services.metrics import ANSWER_SECONDS, INTERACTIONS, LIVE_MATCHES, LOOP_LAG, LOOP_LAG_MAX

log = logging.getLogger(__name__)

HOST = "127.0.0.1"  # operators scrape it on the machine (or through their own proxy)
LAG_PERIOD = 0.25  # seconds between the loop-lag probe's wake-ups
CALLBACK = re.compile(r"/interactions/(\d+)/[^/]+/callback$")
KINDS = {t.value: t.name for t in discord.InteractionType}


class Operations:
    def __init__(self, bot: discord.Client) -> None:
        self.bot = bot
        self.live_count: Callable[[], int] = lambda: 0
        self.trace = aiohttp.TraceConfig()
        self.trace.on_request_end.append(self._answered)
        self.worst_lag = 0.0
        self._runner: web.AppRunner | None = None
        self._probe: asyncio.Task[None] | None = None
        self.port: int | None = None

    def received(self, interaction: discord.Interaction) -> None:
        INTERACTIONS.labels(KINDS.get(interaction.type.value, "other")).inc()

    async def _answered(
        self, session: aiohttp.ClientSession, context: SimpleNamespace, params: Any
    ) -> None:
        found = CALLBACK.search(params.url.path)
        if found is not None:
            created = discord.utils.snowflake_time(int(found.group(1))).timestamp()
            ANSWER_SECONDS.observe(max(0.0, time.time() - created))

    async def start(self, port: int | None, live_count: Callable[[], int]) -> None:
        """When a port is given: the HTTP endpoints and the lag probe (off otherwise:
        nothing is watching). ``live_count`` tells how many matches are being played."""
        self.live_count = live_count
        LIVE_MATCHES.set_function(live_count)
        if port is None:
            return
        self._probe = asyncio.get_running_loop().create_task(self._watch_loop())
        app = web.Application()
        app.router.add_get("/metrics", self._metrics)
        app.router.add_get("/healthz", self._health)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        await web.TCPSite(self._runner, HOST, port).start()
        self.port = port
        log.info("metrics on http://%s:%d/metrics", HOST, port)

    async def close(self) -> None:
        if self._probe is not None:
            self._probe.cancel()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _watch_loop(self) -> None:
        """Sleep a fixed time, again and again: how much later than asked the loop wakes
        is how long something else held it."""
        loop = asyncio.get_running_loop()
        while True:
            asked = loop.time() + LAG_PERIOD
            await asyncio.sleep(LAG_PERIOD)
            lag = max(0.0, loop.time() - asked)
            LOOP_LAG.observe(lag)
            if lag > self.worst_lag:
                self.worst_lag = lag
                LOOP_LAG_MAX.set(lag)

    async def _metrics(self, request: web.Request) -> web.Response:
        return web.Response(body=generate_latest(), headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def _health(self, request: web.Request) -> web.Response:
        """200 when the bot is ready and each of its shards is connected; 503 else."""
        bot = self.bot
        shards = {str(s.id): not s.is_closed() for s in getattr(bot, "shards", {}).values()}
        healthy = bot.is_ready() and not bot.is_closed() and all(shards.values())
        body = {
            "status": "ok" if healthy else "unavailable",
            "ready": bot.is_ready(),
            "shards": shards,
            "guilds": len(bot.guilds),
            "live_matches": self.live_count(),
            "worst_loop_lag_seconds": round(self.worst_lag, 4),
        }
        return web.json_response(body, status=200 if healthy else 503)


class JsonLines(logging.Formatter):
    """One JSON object per log record, for log collectors (``LOG_FORMAT=json``)."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["exception"] = "".join(traceback.format_exception(*record.exc_info))
        return json.dumps(entry, ensure_ascii=False)


def configure_logging(level: str, log_format: str) -> None:
    handler = logging.StreamHandler(sys.stderr)
    if log_format == "json":
        handler.setFormatter(JsonLines())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logging.basicConfig(level=level, handlers=[handler])
