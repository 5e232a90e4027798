"""The PostgreSQL backend, through asyncpg: one server shared by several bot processes.

The guarantees are SQLite's: a write is one transaction; a step's conditional update
(``WHERE ply = N - 1``) is re-checked by PostgreSQL against the committed row when two
writers race, so only one of them can append ply N; reads run in a REPEATABLE READ
snapshot; migrations take an advisory lock inside their transaction.
"""

from __future__ import annotations

import os
import re
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from functools import lru_cache
from typing import Any, Final

import asyncpg

from storage import migrations
from storage.config import Target
from storage.copy import copy_to_file
from storage.db import Database
from storage.errors import Constraint, StorageError, Unreadable
from storage.sql import Dialect, Row

POOL_SIZE: Final = 10
MIGRATION_LOCK: Final = 0x43524F5353  # any constant shared by every bot process
_PLACEHOLDER: Final = re.compile(r"\?")


@lru_cache(maxsize=512)
def _numbered(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$1, $2 …`` (the repositories' SQL has no
    question mark in a literal)."""
    count = 0

    def number(_: re.Match[str]) -> str:
        nonlocal count
        count += 1
        return f"${count}"

    return _PLACEHOLDER.sub(number, sql)


def _storage_error(exc: Exception) -> StorageError:
    if isinstance(exc, asyncpg.IntegrityConstraintViolationError | asyncpg.RaiseError):
        return Constraint(str(exc))
    if isinstance(exc, asyncpg.DataCorruptedError | asyncpg.IndexCorruptedError):
        return Unreadable(str(exc))
    return StorageError(f"PostgreSQL: {exc}")


_DRIVER_ERRORS: Final = (asyncpg.PostgresError, asyncpg.InterfaceError, OSError)


class PgConn:
    """An asyncpg connection as :class:`storage.sql.Conn`."""

    dialect: Dialect = "postgresql"

    def __init__(self, conn: asyncpg.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        try:
            status: str = await self._conn.execute(_numbered(sql), *params)
        except _DRIVER_ERRORS as exc:
            raise _storage_error(exc) from exc
        # "UPDATE 1", "INSERT 0 1", "CREATE TABLE": the count is the last word, if any.
        last = status.rsplit(" ", 1)[-1]
        return int(last) if last.isdigit() else 0

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        batch = [tuple(r) for r in rows]
        if not batch:
            return
        try:
            await self._conn.executemany(_numbered(sql), batch)
        except _DRIVER_ERRORS as exc:
            raise _storage_error(exc) from exc

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        try:
            records = await self._conn.fetch(_numbered(sql), *params)
        except _DRIVER_ERRORS as exc:
            raise _storage_error(exc) from exc
        return [tuple(r) for r in records]

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        rows = await self.fetchall(sql, params)
        return int(rows[0][0])


async def connect(target: Target, *, migrate: bool = True) -> PostgresDatabase:
    try:
        pool = await asyncpg.create_pool(target.url, min_size=1, max_size=POOL_SIZE)
    except (*_DRIVER_ERRORS, ValueError) as exc:
        raise StorageError(f"{target}: cannot connect to PostgreSQL: {exc}") from exc
    db = PostgresDatabase(target, pool)
    return await db.migrated() if migrate else db


class PostgresDatabase(Database):
    dialect: Dialect = "postgresql"

    def __init__(self, target: Target, pool: asyncpg.Pool) -> None:
        self.target = target
        self._pool = pool

    async def close(self) -> None:
        await self._pool.close()

    @asynccontextmanager
    async def _transaction(self, **options: Any) -> AsyncIterator[PgConn]:
        try:
            async with self._pool.acquire() as conn, conn.transaction(**options):
                yield PgConn(conn)
        except _DRIVER_ERRORS as exc:  # connecting, or the COMMIT itself
            raise _storage_error(exc) from exc

    def transaction(self) -> AbstractAsyncContextManager[PgConn]:
        # READ COMMITTED: an UPDATE that waited for a concurrent one re-checks its WHERE
        # against the committed row, which is what makes the ply check safe.
        return self._transaction()

    def read(self) -> AbstractAsyncContextManager[PgConn]:
        return self._transaction(isolation="repeatable_read", readonly=True)

    async def migrate(self, target: int = migrations.LATEST) -> tuple[int, int]:
        async with self._transaction() as conn:
            await conn.execute(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
            return await migrations.apply(conn, self.name, target)

    async def integrity_check(self, *, quick: bool = False) -> list[str]:
        """PostgreSQL checks its own pages as it reads them (and with data checksums,
        if the cluster has them); this asks the server to read every table."""
        problems = []
        async with self.read() as conn:
            tables = await conn.fetchall(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
                "ORDER BY tablename"
            )
        for (table,) in tables:
            try:
                async with self.read() as conn:
                    await conn.fetchall(f'SELECT COUNT(*) FROM "{table}"')
            except StorageError as exc:
                problems.append(f"table {table}: {exc}")
        return problems

    async def foreign_key_problems(self) -> list[str]:
        return []  # the server enforces every reference at each write

    async def backup(self, target: str | os.PathLike[str]) -> None:
        """Into a new SQLite file, from one REPEATABLE READ snapshot; ``crosshairs db
        copy`` moves it back into a PostgreSQL database."""
        await copy_to_file(self, target)
