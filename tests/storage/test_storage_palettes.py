"""Board palettes: one per person and one per server, on both backends; a person's is
deleted with the person."""

from __future__ import annotations

import pytest

from storage.db import Database
from storage.forget import forget_user
from storage.palettes import PaletteRepo


async def test_a_palette_is_kept_per_person_and_per_server(db: Database) -> None:
    repo = PaletteRepo(db)
    assert await repo.chosen([11, 22]) == {}
    await repo.set(11, "dark")
    await repo.set(22, "contrast")
    await repo.set(11, "colourblind")
    assert await repo.chosen([11, 22, 33]) == {11: "colourblind", 22: "contrast"}
    assert await repo.server(500) is None
    await repo.set_server(500, "dark")
    await repo.set_server(501, "contrast")
    assert (await repo.server(500), await repo.server(501)) == ("dark", "contrast")
    assert await repo.chosen([]) == {}


async def test_a_name_too_long_is_refused_and_stores_nothing(db: Database) -> None:
    repo = PaletteRepo(db)
    with pytest.raises(ValueError, match="1 to 32 characters"):
        await repo.set(11, "x" * 33)
    with pytest.raises(ValueError, match="1 to 32 characters"):
        await repo.set_server(500, "")
    assert await repo.chosen([11]) == {}
    assert await repo.server(500) is None


async def test_forgetting_a_person_deletes_their_palette(db: Database) -> None:
    repo = PaletteRepo(db)
    await repo.set(11, "dark")
    await repo.set(22, "dark")
    forgotten = await forget_user(db, 11)
    assert forgotten.rows["board_palettes"] == 1
    assert await repo.chosen([11, 22]) == {22: "dark"}
