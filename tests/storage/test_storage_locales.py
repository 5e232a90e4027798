"""Each person's Discord locale: one per person, on both backends, replaced by the
latest, refused when it is no locale, deleted with the person."""

from __future__ import annotations

import pytest

from storage.db import Database
from storage.forget import forget_user
from storage.locales import LocaleRepo


async def test_the_latest_locale_is_kept_per_person(db: Database) -> None:
    repo = LocaleRepo(db)
    assert await repo.get([11, 22]) == {}
    await repo.set(11, "de")
    await repo.set(22, "en-GB")
    await repo.set(11, "fr")
    assert await repo.get([11, 22, 33]) == {11: "fr", 22: "en-GB"}
    assert await repo.get([]) == {}


@pytest.mark.parametrize("locale", ["", "x" * 17])
async def test_what_is_no_locale_is_refused_and_stores_nothing(db: Database, locale: str) -> None:
    repo = LocaleRepo(db)
    await repo.set(11, "de")
    with pytest.raises(ValueError, match="1 to 16 characters"):
        await repo.set(11, locale)
    assert await repo.get([11]) == {11: "de"}


async def test_forgetting_a_person_deletes_their_locale(db: Database) -> None:
    repo = LocaleRepo(db)
    await repo.set(11, "de")
    await repo.set(22, "es-ES")
    forgotten = await forget_user(db, 11)
    assert forgotten.rows["user_locales"] == 1
    assert await repo.get([11, 22]) == {22: "es-ES"}
