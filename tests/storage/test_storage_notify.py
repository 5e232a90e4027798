"""Notification settings: one per person, on both backends, deleted with the person."""

from __future__ import annotations

import pytest

from storage.db import Database
from storage.forget import forget_user
from storage.notify import NotifyRepo


async def test_a_setting_is_kept_per_person_and_off_by_default(db: Database) -> None:
    repo = NotifyRepo(db)
    assert await repo.levels([11, 22]) == {11: "off", 22: "off"}
    await repo.set(11, "turn")
    await repo.set(22, "clock")
    await repo.set(11, "off")
    assert await repo.levels([11, 22, 33]) == {11: "off", 22: "clock", 33: "off"}
    assert await repo.levels([]) == {}


async def test_an_unknown_level_is_refused_and_stores_nothing(db: Database) -> None:
    repo = NotifyRepo(db)
    with pytest.raises(ValueError, match="one of off, turn, clock"):
        await repo.set(11, "hourly")
    assert await repo.levels([11]) == {11: "off"}


async def test_forgetting_a_person_deletes_their_setting(db: Database) -> None:
    repo = NotifyRepo(db)
    await repo.set(11, "turn")
    await repo.set(22, "turn")
    forgotten = await forget_user(db, 11)
    assert forgotten.rows["notify_settings"] == 1
    assert await repo.levels([11, 22]) == {11: "off", 22: "turn"}
