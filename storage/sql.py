"""What the repositories see of a database connection, the same for SQLite and PostgreSQL.

Repositories write their SQL once, with ``?`` placeholders and the SQL both dialects
share; each backend wraps its driver in a :class:`Conn` that translates placeholders
and driver errors, so no repository imports ``sqlite3`` or ``asyncpg``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Literal, Protocol

Dialect = Literal["sqlite", "postgresql"]
Row = tuple[Any, ...]


class Conn(Protocol):
    """A connection inside a transaction (or a read snapshot)."""

    dialect: Dialect

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; return how many rows it changed."""
        ...

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run an ``INSERT … RETURNING id``; return the new row's id."""
        ...


async def fetchone(conn: Conn, sql: str, params: Sequence[Any] = ()) -> Row | None:
    rows = await conn.fetchall(sql, params)
    return rows[0] if rows else None


def listed_ids(people: Iterable[int]) -> str:
    """A set of ids as one column's text, ``,1,2,``: a person is in it when it contains
    ``,id,``, so a conditional write can test (``LIKE``) and strike (``REPLACE``) one."""
    return "," + "".join(f"{p}," for p in sorted(people))


def ids_of(listed: str) -> frozenset[int]:
    """The ids of a :func:`listed_ids` text."""
    return frozenset(int(p) for p in listed.split(",") if p)
