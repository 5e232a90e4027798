"""What processes on one token share through the database, on both backends: identify
times spaced per bucket even when asked for at once, and leases that count the live
processes."""

from __future__ import annotations

import asyncio

from storage.db import Database
from storage.gateway import IdentifySlotRepo, RestLeaseRepo


async def test_identify_times_are_spaced_per_bucket(db: Database) -> None:
    slots = IdentifySlotRepo(db)
    assert await slots.reserve(0, 5.0, 100.0) == 100.0
    assert await slots.reserve(0, 5.0, 101.0) == 105.0  # five after the one before
    assert await slots.reserve(1, 5.0, 101.0) == 101.0  # another bucket: at once
    assert await slots.reserve(0, 5.0, 200.0) == 200.0  # long after: at once


async def test_identify_times_asked_for_at_once_are_all_different(db: Database) -> None:
    slots = IdentifySlotRepo(db)
    times = await asyncio.gather(*(slots.reserve(0, 5.0, 100.0) for _ in range(6)))
    assert sorted(times) == [100.0, 105.0, 110.0, 115.0, 120.0, 125.0]


async def test_leases_count_the_live_processes(db: Database) -> None:
    leases = RestLeaseRepo(db)
    assert await leases.renew("a", 100.0, 3.0) == 1
    assert await leases.renew("b", 100.5, 3.0) == 2
    assert await leases.renew("a", 101.0, 3.0) == 2
    # b stopped renewing: its lease ran out at 103.5
    assert await leases.renew("a", 104.0, 3.0) == 1
    await leases.renew("c", 104.0, 3.0)
    await leases.release("c")
    assert await leases.renew("a", 104.5, 3.0) == 1
