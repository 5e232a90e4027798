"""Rematch offers in storage: one per match, answered only by those still asked, settled
once; of two answers racing through two connections (two processes) only one acts."""

from __future__ import annotations

import asyncio

from storage_testkit import duel

from storage.db import Database
from storage.matches import MatchRepo
from storage.rematches import RematchRepo

ALICE, BOB, CARL = 11, 22, 33


async def test_an_offer_is_one_per_match_and_settled_by_the_last_yes(db: Database) -> None:
    match_id = await MatchRepo(db).create(duel())
    repo = RematchRepo(db)
    offer = await repo.open(match_id, ALICE, "alice", True, {BOB, CARL})
    assert offer is not None and offer.status == "open" and offer.waiting == {BOB, CARL}
    assert await repo.open(match_id, BOB, "bob", True, {ALICE}) is None  # one per match
    assert await repo.accept(offer.id, ALICE) is None  # its host is not asked
    after_bob = await repo.accept(offer.id, BOB)
    assert after_bob is not None and after_bob.status == "open" and after_bob.waiting == {CARL}
    assert await repo.accept(offer.id, BOB) is None  # counted once
    after_carl = await repo.accept(offer.id, CARL)
    assert after_carl is not None and after_carl.status == "accepted"
    assert not await repo.close(offer.id, "declined", "carl")  # settled already
    rematch = await MatchRepo(db).create(duel())
    await repo.placed(offer.id, 5, 6)
    await repo.made(offer.id, rematch)
    await repo.lapse(offer.id)  # a made rematch stays: a late press is pointed to it
    stored = await repo.of_match(match_id)
    assert stored is not None and (stored.rematch_id, stored.message) == (rematch, (5, 6))
    assert stored == await repo.get(offer.id)


async def test_an_offer_whose_match_was_not_made_may_be_asked_again(db: Database) -> None:
    match_id = await MatchRepo(db).create(duel())
    repo = RematchRepo(db)
    alone = await repo.open(match_id, ALICE, "alice", False, ())  # the computer: at once
    assert alone is not None and alone.status == "accepted" and not alone.rated
    await repo.lapse(alone.id)
    assert await repo.of_match(match_id) is None
    lapsed = await repo.get(alone.id)  # kept, so that its id is never another offer's
    assert lapsed is not None and lapsed.status == "lapsed"
    again = await repo.open(match_id, ALICE, "alice", False, ())
    assert again is not None and again.id != alone.id


async def test_of_an_accept_and_a_withdrawal_racing_in_two_processes_one_acts(
    db: Database, target: str
) -> None:
    match_id = await MatchRepo(db).create(duel())
    here = RematchRepo(db)
    async with await Database.open(target) as other_db:
        there = RematchRepo(other_db)
        for _ in range(5):
            offer = await here.open(match_id, ALICE, "alice", True, {BOB})
            assert offer is not None
            yes, withdrawn = await asyncio.gather(
                there.accept(offer.id, BOB), here.close(offer.id, "withdrawn", "alice")
            )
            stored = await there.get(offer.id)
            assert stored is not None
            assert (yes is not None) != withdrawn  # exactly one of them acted
            assert stored.status == ("accepted" if yes is not None else "withdrawn")
            match_id = await MatchRepo(db).create(duel())  # the next round's


async def test_of_two_yeses_racing_in_two_processes_one_counts(db: Database, target: str) -> None:
    match_id = await MatchRepo(db).create(duel())
    here = RematchRepo(db)
    async with await Database.open(target) as other_db:
        there = RematchRepo(other_db)
        offer = await here.open(match_id, ALICE, "alice", True, {BOB})
        assert offer is not None
        counted = await asyncio.gather(here.accept(offer.id, BOB), there.accept(offer.id, BOB))
        assert sum(c is not None for c in counted) == 1
        assert [c.status for c in counted if c is not None] == ["accepted"]
