"""A tournament's listing on a calendar outside the domain (Discord's scheduled events,
:mod:`bot.ui.tournaments.calendar`): the domain says when an event changed in a way a
calendar shows, and remembers which calendar entry is whose; it never waits on one.

Whoever shows the calendar :meth:`Calendar.watch`es the changes. A watcher's failure
is logged and goes no further: a calendar that cannot keep up never breaks a tournament.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from enum import StrEnum

from storage.tournament_calendar import TournamentCalendarRepo

log = logging.getLogger(__name__)


class Change(StrEnum):
    CREATED = "created"
    MOVED = "moved"  # the start time, before the start
    STARTED = "started"
    PAUSED = "paused"
    RESUMED = "resumed"
    ENDED = "ended"  # finished with its standings, or cancelled before it started


Watcher = Callable[[int, Change], Awaitable[None]]


class Calendar:
    """The changes a calendar follows, and each tournament's calendar entry."""

    def __init__(self, store: TournamentCalendarRepo) -> None:
        self.store = store
        self._watchers: list[Watcher] = []

    def watch(self, watcher: Watcher) -> None:
        self._watchers.append(watcher)

    async def changed(self, tid: int, change: Change) -> None:
        """Tell every watcher that ``tid`` changed (after the change is stored)."""
        for watcher in self._watchers:
            try:
                await watcher(tid, change)
            except Exception:
                log.exception("tournament %s: the calendar missed its change %s", tid, change)

    async def remember(self, tid: int, entry_id: int) -> None:
        await self.store.remember(tid, entry_id)

    async def entry_of(self, tid: int) -> int | None:
        return await self.store.event_of(tid)

    async def tournament_of(self, entry_id: int) -> int | None:
        return await self.store.tournament_of(entry_id)
