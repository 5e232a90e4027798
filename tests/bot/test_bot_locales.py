"""Remembering each person's Discord locale (bot.services.locales): heard without a
query while it stays the same, stored only when it changed, read back after a restart,
memory bounded, and a failed write leaves memory equal to storage."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.services.locales import Locales
from storage.db import Database
from storage.locales import LocaleRepo


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(tmp_path / "locales.db")
    yield database
    await database.close()


async def test_a_locale_is_stored_once_and_again_only_when_it_changes(db: Database) -> None:
    locales = Locales(LocaleRepo(db))
    assert locales.heard(11, "de")
    await locales.store(11, "de")
    assert not locales.heard(11, "de")  # the same language: nothing to store
    assert locales.heard(11, "fr")
    assert await locales.of([11, 22]) == {11: "fr"}  # memory has the latest at once
    await locales.store(11, "fr")
    assert await LocaleRepo(db).get([11]) == {11: "fr"}
    restarted = Locales(LocaleRepo(db))
    assert await restarted.of([11, 22]) == {11: "fr"}
    assert not restarted.heard(11, "fr")  # read back: known, no write


async def test_a_later_language_heard_meanwhile_is_not_overwritten(db: Database) -> None:
    locales = Locales(LocaleRepo(db))
    locales.heard(11, "de")
    locales.heard(11, "fr")  # before the write of "de" ran
    await locales.store(11, "de")
    await locales.store(11, "fr")
    assert await LocaleRepo(db).get([11]) == {11: "fr"}


async def test_memory_is_bounded(db: Database) -> None:
    locales = Locales(LocaleRepo(db), kept=2)
    for user in (11, 22, 33):
        locales.heard(user, "de")
    assert locales.heard(11, "de")  # the oldest was let go: heard anew


@pytest.mark.parametrize("locale", ["", "x" * 17])
async def test_what_is_no_locale_is_not_heard(db: Database, locale: str) -> None:
    locales = Locales(LocaleRepo(db))
    locales.heard(11, "de")
    assert not locales.heard(11, locale)
    assert await locales.of([11]) == {11: "de"}


async def test_a_failed_write_is_forgotten_from_memory_too(db: Database) -> None:
    locales = Locales(LocaleRepo(db))
    async with db.transaction() as conn:
        await conn.execute("DROP TABLE user_locales")
    assert locales.heard(11, "de")
    await locales.store(11, "de")  # logged, not raised: an interaction must not fail
    assert locales.heard(11, "de")  # not in memory: the next interaction tries again
