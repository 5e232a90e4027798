"""The lease on a match's board, on both backends: one holder at a time, asked for at
once by many, renewed by its holder, given back only by it, and free once it ran out."""

from __future__ import annotations

import asyncio

from storage.boards import BoardMarkRepo
from storage.db import Database


async def test_one_holder_at_a_time_until_it_gives_back_or_runs_out(db: Database) -> None:
    boards = BoardMarkRepo(db)
    assert await boards.lease(1, "a", 100.0, 30.0)
    assert not await boards.lease(1, "b", 101.0, 30.0)
    assert await boards.lease(2, "b", 101.0, 30.0)  # another match's board: free
    assert await boards.lease(1, "a", 102.0, 30.0)  # its holder renews it
    await boards.release(1, "b")  # not b's to give back
    assert not await boards.lease(1, "b", 103.0, 30.0)
    await boards.release(1, "a")
    assert await boards.lease(1, "b", 103.0, 30.0)
    assert await boards.lease(1, "a", 133.0, 30.0)  # b's ran out at 133 (it died)


async def test_of_many_asking_at_once_one_holds_it(db: Database) -> None:
    boards = BoardMarkRepo(db)
    got = await asyncio.gather(*(boards.lease(1, f"p{i}", 100.0, 30.0) for i in range(6)))
    assert got.count(True) == 1
