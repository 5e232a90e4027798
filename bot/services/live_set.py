"""The matches a process holds in memory: those touched lately, not every unfinished one.

A match is loaded from storage when something touches it (a press, a command, a clock
due, the computer to move) and kept in a least-recently-used set of at most ``size``
matches (``MATCHES_IN_MEMORY``, bot/config.py). Past that, the least recently used match
with nothing in flight goes: no action or drawing under way (its locks free), no draw
offer standing, no paused clock, no computer turn to fly. What memory holds of it beside
storage is then nothing, so the next touch reloads it identically. One the code still
holds elsewhere (a press under way, a surface) stays the same object until the last
holder lets go (a weak map), so two copies of one match never act side by side.

Finding a match never scans memory: by id a dict, by thread an index of the threads of
the matches kept, else one indexed query (:mod:`storage.live_index`).
"""

from __future__ import annotations

import asyncio
import json
import weakref
from collections import OrderedDict

from bot.services.live import ClockSettings, LiveMatch, MatchUnavailable, Occupant
from i18n import _
from rules import serialize
from rules.errors import RulesError
from storage.errors import StorageError
from storage.live_index import LiveIndexRepo
from storage.matches import MatchRepo

DEFAULT_SIZE = 2000  # about 14 KB each when idle: some 30 MB


class LiveSet:
    def __init__(
        self,
        repo: MatchRepo,
        index: LiveIndexRepo,
        size: int = DEFAULT_SIZE,
    ) -> None:
        self.repo = repo
        self.index = index
        self.size = max(1, size)
        self._recent: OrderedDict[int, LiveMatch] = OrderedDict()
        self._alive: weakref.WeakValueDictionary[int, LiveMatch] = weakref.WeakValueDictionary()
        self._threads: dict[int, int] = {}  # thread id -> id of a match kept
        self._loading: dict[int, asyncio.Lock] = {}

    def __len__(self) -> int:
        return len(self._recent)

    def __contains__(self, match_id: int) -> bool:
        return match_id in self._alive

    def kept(self) -> list[LiveMatch]:
        return list(self._recent.values())

    def cached(self, match_id: int) -> LiveMatch | None:
        """The match if memory holds it (used as a touch), without reading storage."""
        live = self._alive.get(match_id)
        if live is not None:
            self.put(live)
        return live

    def put(self, live: LiveMatch) -> None:
        """Keep ``live`` as the most recently used, and make room for it."""
        self._recent[live.id] = live
        self._recent.move_to_end(live.id)
        self._alive[live.id] = live
        if live.record.thread_id is not None:
            self._threads[live.record.thread_id] = live.id
        self._evict()

    def drop(self, match_id: int) -> None:
        """Forget the match (it ended, or memory may be ahead of storage): the next
        touch reads it from storage."""
        live = self._recent.pop(match_id, None) or self._alive.get(match_id)
        self._alive.pop(match_id, None)
        if live is not None:
            self._unindex(live)

    def _unindex(self, live: LiveMatch) -> None:
        thread = live.record.thread_id
        if thread is not None and self._threads.get(thread) == live.id:
            del self._threads[thread]

    def _evict(self) -> None:
        over = len(self._recent) - self.size
        if over <= 0:
            return
        for match_id, live in list(self._recent.items()):
            if over <= 0:
                break
            if busy(live):
                continue
            del self._recent[match_id]
            self._unindex(live)
            over -= 1

    async def get(self, match_id: int) -> LiveMatch:
        """The match, loaded from storage if memory does not hold it."""
        live = self.cached(match_id)
        if live is not None:
            return live
        lock = self._loading.setdefault(match_id, asyncio.Lock())
        try:
            async with lock:
                live = self.cached(match_id)
                if live is None:
                    live = await self.load(match_id)
                    self.put(live)
        finally:
            if not lock.locked():
                self._loading.pop(match_id, None)
        return live

    async def load(self, match_id: int) -> LiveMatch:
        """The match as storage holds it, whatever memory holds."""
        try:
            record = await self.repo.get(match_id)
        except StorageError as exc:
            raise MatchUnavailable(
                _("match #{id} cannot be loaded: {error}", id=match_id, error=exc)
            ) from None
        try:
            data = json.loads(record.snapshot)
            game = serialize.from_dict(data)
            seats = [Occupant(**e) for e in data.get("players", [])]
        except (ValueError, TypeError, RulesError) as exc:
            raise MatchUnavailable(
                _("match #{id} is damaged and was set aside ({error})", id=match_id, error=exc)
            ) from None
        if len(seats) != game.seats:
            raise MatchUnavailable(
                _("match #{id} is damaged: its players do not fit its seats", id=match_id)
            )
        clock = ClockSettings.from_json(record.clock_json)
        live = LiveMatch(record, game, seats, clock, record.turn_deadline)
        live.draw_offers.update(record.draw_offers)
        # the reminder of this turn went out once its clock is due no sooner than the
        # deadline (or no more: nothing is left for the clock to do)
        due, deadline = record.clock_due, record.turn_deadline
        live.reminded = deadline is not None and (due is None or due >= deadline)
        return live

    async def by_thread(self, thread_id: int) -> LiveMatch | None:
        """The match played in a thread: the one being played, else the latest."""
        match_id = self._threads.get(thread_id)
        live = None if match_id is None else self._alive.get(match_id)
        # a series plays game after game in one thread: a finished one may still be kept
        if live is not None and live.record.thread_id == thread_id and not live.over:
            self.put(live)
            return live
        found = await self.index.in_thread(thread_id)
        return None if found is None else await self.get(found)


def busy(live: LiveMatch) -> bool:
    """Whether memory holds something of the match that storage does not, or an action
    on it is under way: then it must stay."""
    return (
        live.lock.locked()
        or live.showing.locked()
        or bool(live.draw_offers)
        or live.paused is not None
        or bool(live.computer_plan)
        or (live.computer_to_move and not live.over)
    )
