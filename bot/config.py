"""The bot's configuration, from the environment (and ``.env``, read at start-up)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from bot.pacing import PER_SECOND
from bot.services.live_set import DEFAULT_SIZE
from bot.services.shards import Shards
from bot.services.workers import default_size
from render.geometry import MIN_WIDTH
from rules.ai.analysis import AnalysisDepth
from storage.config import database_path


class ConfigError(ValueError):
    """A setting that cannot be used; the message names it."""


@dataclass(frozen=True)
class Config:
    token: str | None
    database_path: Path
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    computer_pace: float = 1.5  # seconds between the computer's plane actions
    clock_interval: float = 20.0  # seconds between checks of the turn clocks
    api_base: str | None = None  # another Discord-compatible API, e.g. localcord's
    workers: int = 0  # worker processes for drawing and search; 0: threads (test bots)
    worker_niceness: int = 5  # how far below the event loop's priority the workers run
    shard_count: int | None = None  # None: one process, as many shards as Discord says
    shard_ids: tuple[int, ...] | None = None  # the shards this process runs
    metrics_port: int | None = None  # /metrics and /healthz on 127.0.0.1; None: off
    log_format: str = "text"  # or "json": one JSON object per line
    # Discord's one IDENTIFY per bucket per 5 s; a local Discord may run its limits faster
    identify_spacing: float = 5.0
    # matches kept in memory (least recently used go first; storage holds them all)
    matches_in_memory: int = DEFAULT_SIZE
    # the live board (docs/activity.md): served on this port when set, with the
    # application's OAuth2 client secret; its public address is logged for the URL mapping
    live_port: int | None = None
    live_host: str = "127.0.0.1"
    client_secret: str | None = None
    live_public_url: str | None = None
    # REST calls per second for the whole token (Discord's global limit is 50; it raises
    # it for large bots on request; a local Discord may run its limits faster)
    rest_per_second: int = int(PER_SECOND)
    # how long a call Discord could not take is tried again before the recovery has it
    discord_retry_seconds: float = 20.0
    board_pixels: int = 1024  # a board's width and height

    @property
    def preview_pixels(self) -> int:
        """A cockpit preview's width: beside the board, smaller (but never narrower than
        a board can be drawn: BOARD_PIXELS may be as small as 256)."""
        return max(MIN_WIDTH, self.board_pixels * 3 // 4)

    @property
    def drawn_sizes(self) -> tuple[int, ...]:
        """The sizes this bot draws boards at: what its workers warm up for."""
        return (self.board_pixels, self.preview_pixels)

    @property
    def shards(self) -> Shards:
        """The guilds this process owns (all of them unless sharding is set)."""
        if self.shard_count is None:
            return Shards()
        return Shards(self.shard_count, self.shard_ids or tuple(range(self.shard_count)))

    database_url: str | None = None  # DATABASE_URL: wins over database_path
    salvage_database: bool = False  # DATABASE_SALVAGE=1: start on a salvaged copy if damaged
    # /crosshairs analyse (tests look shallower)
    analysis_depth: AnalysisDepth = field(default_factory=AnalysisDepth)

    @property
    def database(self) -> str | Path:
        return self.database_url or self.database_path

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Config:
        env = os.environ if environ is None else environ
        guild = env.get("DEV_GUILD_ID", "").strip()
        if guild and not (guild.isascii() and guild.isdigit()):
            raise ConfigError("DEV_GUILD_ID must be a server id (digits only)")
        pace = env.get("COMPUTER_PACE", "").strip() or "1.5"
        try:
            computer_pace = float(pace)
        except ValueError:
            raise ConfigError("COMPUTER_PACE must be a number of seconds") from None
        level = (env.get("LOG_LEVEL", "").strip() or "INFO").upper()
        if level not in ("DEBUG", "INFO", "WARNING", "ERROR"):
            raise ConfigError("LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR")
        api_base = env.get("DISCORD_API_BASE", "").strip().rstrip("/") or None
        if api_base is not None and not api_base.startswith(("http://", "https://")):
            raise ConfigError(
                "DISCORD_API_BASE must be an http(s) URL, e.g. http://127.0.0.1:8765/api/v10"
            )
        shard_count, shard_ids = _shards(env)
        log_format = (env.get("LOG_FORMAT", "").strip() or "text").lower()
        if log_format not in ("text", "json"):
            raise ConfigError("LOG_FORMAT must be text or json")
        return cls(
            token=env.get("DISCORD_TOKEN", "").strip() or None,
            database_path=database_path(env),
            dev_guild_id=int(guild) if guild else None,
            log_level=level,
            computer_pace=max(0.0, computer_pace),
            api_base=api_base,
            workers=_count(env, "WORKERS", default_size(), 0, 64) or 0,
            worker_niceness=_count(env, "WORKER_NICENESS", 5, 0, 19) or 0,
            shard_count=shard_count,
            shard_ids=shard_ids,
            metrics_port=_count(env, "METRICS_PORT", None, 1, 65535),
            log_format=log_format,
            database_url=env.get("DATABASE_URL", "").strip() or None,
            salvage_database=env.get("DATABASE_SALVAGE", "").strip() in ("1", "yes", "true"),
            # 1 s to an hour: shorter only burns the CPU, longer lets a 10 s clock overrun
            clock_interval=float(_count(env, "TURN_CLOCK_CHECK_SECONDS", 20, 1, 3600) or 20),
            identify_spacing=_seconds(env, "IDENTIFY_SPACING_SECONDS", 5.0),
            matches_in_memory=_count(env, "MATCHES_IN_MEMORY", DEFAULT_SIZE, 1, 10_000_000)
            or DEFAULT_SIZE,
            live_port=_count(env, "LIVE_PORT", None, 0, 65535),
            live_host=env.get("LIVE_HOST", "").strip() or "127.0.0.1",
            client_secret=env.get("DISCORD_CLIENT_SECRET", "").strip() or None,
            live_public_url=_url(env, "LIVE_PUBLIC_URL"),
            rest_per_second=_count(env, "REST_PER_SECOND", int(PER_SECOND), 1, 100_000)
            or int(PER_SECOND),
            discord_retry_seconds=_seconds(env, "DISCORD_RETRY_SECONDS", 20.0),
            board_pixels=_count(env, "BOARD_PIXELS", 1024, 256, 2048) or 1024,
        )


def _count(
    env: Mapping[str, str], name: str, default: int | None, low: int, high: int
) -> int | None:
    text = env.get(name, "").strip()
    if not text:
        return default
    if not (text.isascii() and text.isdigit()) or not low <= int(text) <= high:
        raise ConfigError(f"{name} must be a whole number from {low} to {high}")
    return int(text)


def _url(env: Mapping[str, str], name: str) -> str | None:
    text = env.get(name, "").strip().rstrip("/")
    if text and not text.startswith(("http://", "https://")):
        raise ConfigError(f"{name} must be an http(s) URL, e.g. https://live.example.org")
    return text or None


def _seconds(env: Mapping[str, str], name: str, default: float) -> float:
    text = env.get(name, "").strip()
    if not text:
        return default
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0.0 <= seconds <= 60.0:
        raise ConfigError(f"{name} must be a number of seconds from 0 to 60")
    return seconds


def _shards(env: Mapping[str, str]) -> tuple[int | None, tuple[int, ...] | None]:
    """SHARD_COUNT (how many shards the whole bot has) and SHARD_IDS (those this process
    runs, comma-separated; default all of them)."""
    count = _count(env, "SHARD_COUNT", None, 1, 4096)
    text = env.get("SHARD_IDS", "").strip()
    if not text:
        return count, None
    if count is None:
        raise ConfigError("SHARD_IDS needs SHARD_COUNT (the bot's total number of shards)")
    parts = [p.strip() for p in text.split(",")]
    if not all(p.isascii() and p.isdigit() and int(p) < count for p in parts):
        raise ConfigError(
            f"SHARD_IDS must be shard numbers from 0 to {count - 1}, separated by commas"
        )
    return count, tuple(sorted({int(p) for p in parts}))
