"""The shape shared by aggregates stored as one parent row with child rows."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from storage import players
from storage.sql import Conn


async def insert_with_children(
    conn: Conn,
    parent_sql: str,
    parent_params: Sequence[Any],
    child_sql: str,
    child_rows: Callable[[int], Iterable[Sequence[Any]]],
    people: Iterable[tuple[int | None, str | None]] = (),
) -> int:
    """Inside a write transaction: remember the players (user id, display name; None is
    a computer), insert the parent row, then its children, which are given the parent's
    new id. Matches with their seats and series with their players are stored so."""
    for user_id, name in people:
        if user_id is not None:
            await players.remember(conn, user_id, name)
    parent_id = await conn.insert(parent_sql, parent_params)
    await conn.executemany(child_sql, child_rows(parent_id))
    return parent_id
