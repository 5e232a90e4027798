"""Where the database lives."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Final

ENV_VAR: Final = "DATABASE_PATH"
DEFAULT_FILENAME: Final = "crosshairs.db"


def database_path(environ: Mapping[str, str] | None = None) -> Path:
    """``DATABASE_PATH`` if set and not empty, else ``crosshairs.db`` in the working
    directory."""
    env = os.environ if environ is None else environ
    value = env.get(ENV_VAR, "").strip()
    return Path(value) if value else Path.cwd() / DEFAULT_FILENAME
