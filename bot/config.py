"""The bot's configuration, from the environment (and ``.env``, read at start-up)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

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
        if guild and not guild.isdigit():
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
        return cls(
            token=env.get("DISCORD_TOKEN", "").strip() or None,
            database_path=database_path(env),
            dev_guild_id=int(guild) if guild else None,
            log_level=level,
            computer_pace=max(0.0, computer_pace),
            api_base=api_base,
            database_url=env.get("DATABASE_URL", "").strip() or None,
            salvage_database=env.get("DATABASE_SALVAGE", "").strip() in ("1", "yes", "true"),
        )
