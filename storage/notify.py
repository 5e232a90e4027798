"""Each person's choice of DMs about their games: ``off`` (the default), ``turn`` (every
turn that passes to them, and a clock running low) or ``clock`` (only a clock running
low). Stored per person, whichever server they play in."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from storage.db import Database
from storage.per_person import PerPersonRepo

LEVELS: Final = ("off", "turn", "clock")


class NotifyRepo(PerPersonRepo):
    def __init__(self, db: Database) -> None:
        super().__init__(db, "notify_settings", "level")

    async def set(self, user_id: int, level: str) -> None:
        if level not in LEVELS:
            raise ValueError(f"a notification level is one of {', '.join(LEVELS)}")
        await self._put(user_id, level)

    async def levels(self, user_ids: Sequence[int]) -> dict[int, str]:
        """Each person's level; ``off`` for whoever never chose."""
        return {**dict.fromkeys(user_ids, "off"), **await self._of(user_ids)}
