"""Challenges in storage: numbered, listed per server while open and not lapsed, settled
once; of two answers racing through two connections (two processes) only one acts."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from storage.challenges import ChallengeRepo, NewChallenge
from storage.db import Database

ALICE, BOB = 11, 22
GUILD = 700
ASKED = NewChallenge(
    GUILD, 5, 6, ALICE, "alice", BOB, "bob", "classic", 4, "manual", "turbulence",
    "none", '{"per_turn": 300.0, "on_expiry": "claim"}', False, 1_000.0,
)  # fmt: skip


async def test_a_challenge_is_kept_listed_while_open_and_settled_once(db: Database) -> None:
    repo = ChallengeRepo(db)
    first = await repo.open(ASKED)
    elsewhere = await repo.open(replace(ASKED, guild_id=GUILD + 1))
    in_a_dm = await repo.open(replace(ASKED, guild_id=None))
    old = await repo.open(replace(ASKED, created=10.0))
    stored = await repo.get(first)
    assert stored is not None and stored.status == "open" and stored.message is None
    assert (stored.ruleset, stored.planes, stored.variants, stored.rated) == (
        "classic", 4, "turbulence", False,
    )  # fmt: skip
    assert [c.id for c in await repo.waiting(GUILD, since=100.0)] == [first]  # old lapsed
    assert [c.id for c in await repo.waiting(GUILD, since=0.0)] == [first, old]
    assert [c.id for c in await repo.waiting(None, since=0.0)] == [in_a_dm]
    assert elsewhere not in [c.id for c in await repo.waiting(GUILD, since=0.0)]

    await repo.placed(first, 5, 77)
    assert await repo.close(first, "accepted")
    assert not await repo.close(first, "withdrawn")  # settled already
    await repo.reopen(first)  # its match could not be made: it may be accepted again
    assert await repo.close(first, "accepted")
    await repo.made(first, 42)
    await repo.reopen(first)  # a made match stays: a late press is told it is on
    settled = await repo.get(first)
    assert settled is not None
    assert (settled.status, settled.match_id, settled.message) == ("accepted", 42, (5, 77))
    assert await repo.waiting(GUILD, since=100.0) == []


async def test_of_an_accept_and_a_withdrawal_racing_in_two_processes_one_acts(
    db: Database, target: str
) -> None:
    here = ChallengeRepo(db)
    async with await Database.open(target) as other_db:
        there = ChallengeRepo(other_db)
        for _ in range(5):
            number = await here.open(ASKED)
            accepted, withdrawn = await asyncio.gather(
                there.close(number, "accepted"), here.close(number, "withdrawn")
            )
            assert accepted != withdrawn  # exactly one of them acted
            stored = await there.get(number)
            assert stored is not None
            assert stored.status == ("accepted" if accepted else "withdrawn")
