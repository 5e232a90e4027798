"""Where the database lives: ``DATABASE_URL``, else the SQLite file ``DATABASE_PATH``."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from storage.errors import StorageError
from storage.sql import Dialect

URL_VAR: Final = "DATABASE_URL"
ENV_VAR: Final = "DATABASE_PATH"
DEFAULT_FILENAME: Final = "crosshairs.db"
SQLITE_PREFIX: Final = "sqlite:///"
_POSTGRES_PREFIXES: Final = ("postgresql://", "postgres://")


@dataclass(frozen=True)
class Target:
    """A database to open: a SQLite file or a PostgreSQL server's database."""

    dialect: Dialect
    url: str
    path: Path | None = None  # the file, for SQLite

    def __str__(self) -> str:
        if self.path is not None:
            return str(self.path)
        # Never print a password into logs or error messages.
        return re.sub(r"://([^:/@]*):[^@]*@", r"://\1:***@", self.url)


def database_path(environ: Mapping[str, str] | None = None) -> Path:
    """``DATABASE_PATH`` if set and not empty, else ``crosshairs.db`` in the working
    directory."""
    env = os.environ if environ is None else environ
    value = env.get(ENV_VAR, "").strip()
    return Path(value) if value else Path.cwd() / DEFAULT_FILENAME


def database_url(environ: Mapping[str, str] | None = None) -> str:
    """``DATABASE_URL`` if set, else the SQLite file of :func:`database_path`."""
    env = os.environ if environ is None else environ
    url = env.get(URL_VAR, "").strip()
    return url if url else SQLITE_PREFIX + str(database_path(env))


def parse_target(value: str | os.PathLike[str]) -> Target:
    """A ``postgresql://`` URL, a ``sqlite:///PATH`` URL (``sqlite:////abs/path`` for an
    absolute path, as SQLAlchemy writes it) or a plain file path."""
    text = os.fspath(value)
    if text.startswith(_POSTGRES_PREFIXES):
        return Target("postgresql", text)
    if text.startswith(SQLITE_PREFIX):
        path = Path(text.removeprefix(SQLITE_PREFIX))
    elif "://" in text:
        scheme = text.split("://", 1)[0]
        raise StorageError(
            f"unknown database URL scheme {scheme!r}: use sqlite:///PATH or postgresql://…"
        )
    else:
        path = Path(text)
    return Target("sqlite", SQLITE_PREFIX + str(path), path)
