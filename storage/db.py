"""The database the repositories work over, whatever the backend.

:meth:`Database.open` takes a SQLite path or URL (:mod:`storage.sqlite`, the default) or
a ``postgresql://`` URL (:mod:`storage.postgres`). Both give the same guarantees: every
write is one short transaction, committed whole or not at all; a read block sees one
committed state; migrations run in one transaction under a lock, so two bots starting
together cannot both apply one.
"""

from __future__ import annotations

import importlib
import os
from abc import ABC, abstractmethod
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from types import TracebackType
from typing import Any, Final, Self, cast

from storage import migrations
from storage.config import Target, parse_target
from storage.sql import Conn, Dialect, Row

# The backends import this module, so it finds them by name, and only when asked: a bot
# on the SQLite default never loads the PostgreSQL driver.
_BACKENDS: Final[dict[Dialect, str]] = {
    "sqlite": "storage.sqlite",
    "postgresql": "storage.postgres",
}


class Database(ABC):
    """An open database. Create with :meth:`open`, end with :meth:`close`."""

    dialect: Dialect
    target: Target

    @staticmethod
    async def open(target: str | os.PathLike[str] | Target, *, migrate: bool = True) -> Database:
        """Open (creating a missing SQLite file) the database; with ``migrate`` bring its
        schema up to date, raising :class:`~storage.errors.SchemaTooNew` for one written
        by a newer bot."""
        found = target if isinstance(target, Target) else parse_target(target)
        backend = importlib.import_module(_BACKENDS[found.dialect])
        return cast(Database, await backend.connect(found, migrate=migrate))

    @property
    def name(self) -> str:
        """How messages name the database (a path, or a URL without its password)."""
        return str(self.target)

    @abstractmethod
    async def close(self) -> None: ...

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    @abstractmethod
    async def migrate(self, target: int = migrations.LATEST) -> tuple[int, int]:
        """Apply pending migrations up to ``target``; return (version before, after)."""

    async def migrated(self) -> Self:
        """This database with every migration applied; closed if that fails, so that
        nothing is left open by a database that could not be brought up to date."""
        try:
            await self.migrate()
        except BaseException:
            await self.close()
            raise
        return self

    async def schema_version(self) -> int:
        async with self.read() as conn:
            return await migrations.current_version(conn)

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Conn]:
        """A write transaction: committed when the block ends, rolled back if it raises.
        Keep the block short and free of anything but SQL."""

    @abstractmethod
    def read(self) -> AbstractAsyncContextManager[Conn]:
        """A read transaction: every query in the block sees the same committed state."""

    async def rows_in(self, sql: str, keys: Sequence[Any], *more: Any) -> list[Row]:
        """The rows of ``sql``, whose ``IN ({marks})`` takes ``keys`` (then ``more``'s
        parameters), in one read; none for no keys, without asking."""
        if not keys:
            return []
        async with self.read() as conn:
            return await conn.fetchall(sql.format(marks=", ".join("?" * len(keys))), (*keys, *more))

    @abstractmethod
    async def integrity_check(self, *, quick: bool = False) -> list[str]:
        """The backend's own check of the stored data; an empty list means sound.
        ``quick`` skips what costs more than one pass over the data (SQLite's check
        that indexes match their tables), as at start-up."""

    @abstractmethod
    async def foreign_key_problems(self) -> list[str]: ...

    async def scrub(self) -> bool:
        """Push deleted data out of the backend's side files (SQLite's write-ahead log);
        True when done. PostgreSQL keeps no such file the project controls: nothing to do
        (its dead rows go at the next VACUUM, docs/admins.md)."""
        return True

    @abstractmethod
    async def backup(self, target: str | os.PathLike[str]) -> None:
        """A consistent copy, taken while the bot keeps playing, in a new SQLite file."""
