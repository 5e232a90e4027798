"""Unrated by choice, for the Discord layer: a challenge its players marked
``rated:false`` is marked before its first board is up, and asked about by its rematch
(ratings and takebacks read :class:`storage.unrated.UnratedMatches` themselves)."""

from __future__ import annotations

from bot.services.manager import GameManager
from storage.unrated import UnratedMatches


async def mark_unrated(games: GameManager, match_id: int) -> None:
    await UnratedMatches(games.db).mark(match_id)


async def chosen_unrated(games: GameManager, match_id: int) -> bool:
    return await UnratedMatches(games.db).contains(match_id)
