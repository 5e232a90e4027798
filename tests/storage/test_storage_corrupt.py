"""A damaged row sets its match aside; every other match keeps working."""

from __future__ import annotations

import pytest
from storage_testkit import duel, game_json, raw

from storage import health
from storage.db import Database
from storage.errors import CorruptMatch
from storage.matches import MatchRepo

# How a row is damaged, and what the report must say about it. PostgreSQL's strict
# column types make the SQLite-only kinds of damage impossible there.
SQLITE_ONLY = {"bytes", "bad UTF-8", "channel as text", "seat damaged"}
DAMAGE = {
    "truncated JSON": (
        'UPDATE matches SET snapshot = \'{"format": "crosshairs/ga\' WHERE id = ?',
        "not valid JSON",
    ),
    "not an object": ("UPDATE matches SET snapshot = '[1, 2]' WHERE id = ?", '"format"'),
    "another format": (
        'UPDATE matches SET snapshot = \'{"format": "chess"}\' WHERE id = ?',
        '"format"',
    ),
    "bytes": ("UPDATE matches SET snapshot = x'00ff' WHERE id = ?", "not text"),
    # Undecodable text fails a whole query, not just its row.
    "bad UTF-8": (
        "UPDATE matches SET snapshot = CAST(x'7bff' AS TEXT) WHERE id = ?",
        "the database cannot read it",
    ),
    "channel as text": ("UPDATE matches SET channel_id = 'general' WHERE id = ?", "channel"),
    "seat damaged": ("UPDATE seats SET team = 'red' WHERE match_id = ?", "seat row"),
    "seats lost": ("DELETE FROM seats WHERE match_id = ?", "seats are missing"),
}


async def _five_matches(repo: MatchRepo) -> list[int]:
    ids = [await repo.create(duel(channel_id=500 + i)) for i in range(5)]
    for match_id in ids:
        await repo.append_step(
            match_id, 1, "+a3NE", 11, game_json(1, 1), to_move_seat=1, turn_deadline=None
        )
    return ids


@pytest.mark.parametrize("damage", sorted(DAMAGE.keys() - SQLITE_ONLY))
async def test_a_damaged_match_is_set_aside_and_the_others_load(db: Database, damage: str) -> None:
    await _set_aside_alone(db, damage)


@pytest.mark.parametrize("target", ["sqlite"], indirect=True)
@pytest.mark.parametrize("damage", sorted(SQLITE_ONLY))
async def test_a_row_of_the_wrong_type_is_set_aside(db: Database, damage: str) -> None:
    await _set_aside_alone(db, damage)


async def _set_aside_alone(db: Database, damage: str) -> None:
    repo = MatchRepo(db)
    ids = await _five_matches(repo)
    bad = ids[2]
    sql, why = DAMAGE[damage]
    raw(db.target, sql, (bad,))

    found = await repo.list_unfinished()
    assert [m.id for m in found.matches] == [i for i in ids if i != bad]
    assert all(m.snapshot == game_json(1, 1) for m in found.matches)
    assert [a.match_id for a in found.set_aside] == [bad]
    assert why in found.set_aside[0].why
    with pytest.raises(CorruptMatch):
        await repo.get(bad)
    assert [a.match_id for a in await repo.scan()] == [bad]
    # Set aside, not thrown away: the row stays for someone to repair.
    assert raw(db.target, "SELECT COUNT(*) FROM matches WHERE id = ?", (bad,)) == [(1,)]


async def test_the_other_matches_keep_playing(db: Database) -> None:
    repo = MatchRepo(db)
    ids = await _five_matches(repo)
    raw(db.target, "UPDATE matches SET snapshot = 'garbage' WHERE id = ?", (ids[0],))
    await repo.append_step(ids[1], 2, "k7C<", 22, game_json(2), to_move_seat=0, turn_deadline=None)
    assert (await repo.get(ids[1])).ply == 2


async def test_the_health_check_names_the_damaged_match(db: Database) -> None:
    repo = MatchRepo(db)
    ids = await _five_matches(repo)
    assert (await health.check(db)).ok
    raw(db.target, "UPDATE matches SET snapshot = 'garbage' WHERE id = ?", (ids[3],))
    report = await health.check(db)
    assert not report.ok
    assert report.integrity == []
    assert any(f"match {ids[3]}" in line for line in report.lines())
