"""The SQLite backend: one database file, through aiosqlite.

One writer connection, guarded by an :class:`asyncio.Lock`, runs every write as a short
``BEGIN IMMEDIATE`` … ``COMMIT`` transaction, so a step and the match row it changes
commit together or not at all and tasks never race each other for SQLite's write lock.
A second connection serves reads: in WAL mode it sees the last committed state and never
waits behind a write that is syncing to disk. A third copies the WAL back into the
database file (a checkpoint) in the background, because SQLite's automatic checkpoint
runs inside a commit and would add its own disk syncs to that step's latency.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Final

import aiosqlite

from storage import migrations
from storage.config import Target
from storage.db import Database
from storage.errors import Constraint, StorageError, Unreadable
from storage.sql import Dialect, Row

BUSY_TIMEOUT_MS: Final = 10_000
CHECKPOINT_EVERY: Final = 200  # commits; a few MB of WAL at most between checkpoints

_log = logging.getLogger(__name__)

# WAL lets readers run during a write. synchronous=FULL syncs the WAL at every commit:
# with NORMAL a commit the bot has acknowledged can vanish in a power cut.
_WRITER_PRAGMAS: Final = (
    f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}",
    "PRAGMA foreign_keys = ON",
    "PRAGMA synchronous = FULL",
    "PRAGMA wal_autocheckpoint = 0",
    # deleted rows (a forgotten person's name) are overwritten, not left in free pages;
    # some SQLite builds default to this, but a deletion request must not depend on it
    "PRAGMA secure_delete = ON",
)
_READER_PRAGMAS: Final = (
    f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}",
    "PRAGMA query_only = ON",
)


class SqliteConn:
    """An aiosqlite connection as :class:`storage.sql.Conn`: SQLite's errors become
    storage's."""

    dialect: Dialect = "sqlite"

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        try:
            # Not closed explicitly: closing is one more trip to the connection's thread
            # on every statement of a step, and a finished cursor holds nothing.
            cur = await self._conn.execute(sql, params)
        except sqlite3.Error as exc:
            raise _storage_error(exc) from exc
        return cur.rowcount

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        try:
            await self._conn.executemany(sql, rows)
        except sqlite3.Error as exc:
            raise _storage_error(exc) from exc

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        try:
            return [tuple(r) for r in await self._conn.execute_fetchall(sql, params)]
        except sqlite3.Error as exc:
            raise _storage_error(exc) from exc

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        rows = await self.fetchall(sql, params)
        if not rows or not isinstance(rows[0][0], int):
            raise StorageError(f"SQLite did not report the new row's id: {sql[:40]!r}")
        return rows[0][0]


def _storage_error(exc: sqlite3.Error) -> StorageError:
    if isinstance(exc, sqlite3.IntegrityError):
        return Constraint(str(exc))
    # A damaged page, undecodable text, a file that is not a database.
    return Unreadable(str(exc))


async def connect(target: Target, *, migrate: bool = True) -> SqliteDatabase:
    assert target.path is not None
    return await SqliteDatabase.open_file(target.path, migrate=migrate)


class SqliteDatabase(Database):
    """An open database file."""

    dialect: Dialect = "sqlite"

    def __init__(self, path: Path, writer: aiosqlite.Connection) -> None:
        self.path = path
        self.target = Target("sqlite", f"sqlite:///{path}", path)
        self._writer = writer
        self._reader: aiosqlite.Connection | None = None
        self._checkpointer: aiosqlite.Connection | None = None
        self._checkpointing: asyncio.Task[None] | None = None
        self._commits = 0
        self._write_lock = asyncio.Lock()
        self._read_lock = asyncio.Lock()

    @classmethod
    async def open_file(
        cls, path: str | os.PathLike[str], *, migrate: bool = True
    ) -> SqliteDatabase:
        """Open (creating if needed) the file at ``path``."""
        file = Path(path)
        writer = await _connect(file, _WRITER_PRAGMAS)
        db = cls(file, writer)
        try:
            await db._enable_wal()
            if migrate:
                await db.migrate()
            db._reader = await _connect(file, _READER_PRAGMAS)
            db._checkpointer = await _connect(file, _WRITER_PRAGMAS)
        except BaseException:
            await db.close()
            raise
        return db

    async def _enable_wal(self) -> None:
        try:
            async with self._writer.execute("PRAGMA journal_mode = WAL") as cur:
                row = await cur.fetchone()
        except sqlite3.DatabaseError as exc:
            raise StorageError(f"{self.path}: cannot open the database: {exc}") from exc
        mode = str(row[0]) if row else "?"
        if mode.lower() != "wal":
            raise StorageError(f"{self.path}: cannot use the WAL journal (got {mode!r})")

    async def close(self) -> None:
        """Close the connections; the last one to close folds the WAL into the file."""
        if self._checkpointing is not None:
            await self._checkpointing
        for conn in (self._checkpointer, self._reader, self._writer):
            if conn is not None:
                await conn.close()
        self._reader = self._checkpointer = None

    async def migrate(self, target: int = migrations.LATEST) -> tuple[int, int]:
        # BEGIN IMMEDIATE takes the write lock before the version is read, so two bots
        # starting on one file cannot both apply the same migration.
        async with self._write_lock:
            conn = self._writer
            await _begin(conn, "BEGIN IMMEDIATE")
            try:
                found = await migrations.apply(SqliteConn(conn), self.name, target)
                await _commit(conn)
            except BaseException:
                await _rollback(conn)
                raise
            return found

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[SqliteConn]:
        """One writer: every other write waits for this block."""
        async with self._write_lock:
            conn = self._writer
            await _begin(conn, "BEGIN IMMEDIATE")
            try:
                yield SqliteConn(conn)
                await _commit(conn)
            except BaseException:
                await _rollback(conn)
                raise
        self._commits += 1
        if self._commits % CHECKPOINT_EVERY == 0:
            self._start_checkpoint()

    def _start_checkpoint(self) -> None:
        running = self._checkpointing is not None and not self._checkpointing.done()
        if self._checkpointer is not None and not running:
            self._checkpointing = asyncio.create_task(self._checkpoint(self._checkpointer))

    async def _checkpoint(self, conn: aiosqlite.Connection) -> None:
        """Copy the WAL into the database file without holding up writes for long.

        The first pass runs beside the writer and copies the bulk, but steps committed
        meanwhile stay in the WAL, and SQLite only starts the WAL over once all of it is
        copied. The second pass holds the write lock to copy that remainder, which is
        short, so the WAL stays small even under a steady stream of steps."""
        try:
            await _copy_wal(conn)
            async with self._write_lock:
                await _copy_wal(conn)
        except sqlite3.Error as exc:
            _log.warning("%s: checkpoint failed, will retry: %s", self.path, exc)

    async def scrub(self) -> bool:
        """Copy the whole WAL into the file and empty it (``wal_checkpoint(TRUNCATE)``),
        so that what was deleted leaves the ``-wal`` file too; False when a reader in
        another process kept it from finishing."""
        async with (
            self._write_lock,
            self._writer.execute("PRAGMA wal_checkpoint(TRUNCATE)") as cur,
        ):
            row = await cur.fetchone()
        return row is not None and row[0] == 0

    @asynccontextmanager
    async def read(self) -> AsyncIterator[SqliteConn]:
        if self._reader is None:
            raise StorageError(f"{self.path}: the database is closed")
        async with self._read_lock:
            conn = self._reader
            await _begin(conn, "BEGIN")
            try:
                yield SqliteConn(conn)
            finally:
                await _rollback(conn)

    async def integrity_check(self, *, quick: bool = False) -> list[str]:
        """SQLite's own check of every page of the file."""
        pragma = "PRAGMA quick_check" if quick else "PRAGMA integrity_check"
        async with self.read() as conn:
            rows = await conn.fetchall(pragma)
        problems = [str(r[0]) for r in rows]
        return [] if problems == ["ok"] else problems

    async def foreign_key_problems(self) -> list[str]:
        async with self.read() as conn:
            rows = await conn.fetchall("PRAGMA foreign_key_check")
        return [f"{r[0]} row {r[1]} refers to a missing {r[2]} row" for r in rows]

    async def backup(self, target: str | os.PathLike[str]) -> None:
        """Through SQLite's online backup API."""
        dest = Path(target)
        if dest.exists():
            raise StorageError(f"{dest} already exists; choose a new file for the backup")
        if self._reader is None:
            raise StorageError(f"{self.path}: the database is closed")
        try:
            async with self._read_lock, aiosqlite.connect(dest) as out:
                await self._reader.backup(out)
                async with out.execute("PRAGMA quick_check") as cur:
                    row = await cur.fetchone()
        except sqlite3.Error as exc:
            raise StorageError(f"cannot back up to {dest}: {exc}") from exc
        if row is None or row[0] != "ok":
            raise StorageError(f"the backup in {dest} failed its check: {row}")


async def _connect(path: Path, pragmas: tuple[str, ...]) -> aiosqlite.Connection:
    try:
        # isolation_level=None: transactions are begun and ended explicitly, never
        # implicitly by the sqlite3 module.
        conn = await aiosqlite.connect(path, isolation_level=None)
    except sqlite3.Error as exc:
        raise StorageError(f"{path}: cannot open the database: {exc}") from exc
    try:
        for pragma in pragmas:
            await conn.execute(pragma)
    except sqlite3.Error as exc:
        await conn.close()
        raise StorageError(f"{path}: cannot open the database: {exc}") from exc
    return conn


async def _begin(conn: aiosqlite.Connection, sql: str) -> None:
    try:
        await conn.execute(sql)
    except sqlite3.Error as exc:
        raise _storage_error(exc) from exc


async def _commit(conn: aiosqlite.Connection) -> None:
    # The COMMIT is where a full disk shows (the WAL is written then): it is a storage
    # failure like any other, not a driver error for the caller to know.
    try:
        await conn.execute("COMMIT")
    except sqlite3.Error as exc:
        raise _storage_error(exc) from exc


async def _copy_wal(conn: aiosqlite.Connection) -> None:
    # PASSIVE never waits for the writer or readers: frames it cannot copy yet are
    # copied by a later checkpoint.
    async with conn.execute("PRAGMA wal_checkpoint(PASSIVE)") as cur:
        await cur.fetchall()


async def _rollback(conn: aiosqlite.Connection) -> None:
    """End the open transaction without keeping its changes.

    The connection runs statements in order on its own thread, so a COMMIT whose caller
    was cancelled may already have ended the transaction by the time this runs."""
    try:
        await conn.execute("ROLLBACK")
    except sqlite3.OperationalError as exc:
        if "no transaction is active" not in str(exc):
            raise _storage_error(exc) from exc
