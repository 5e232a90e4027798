"""One match's board brought up to date by one process at a time.

A surface shows a match's board after each action (the thread edits it, or posts a new
one and retires the old). In one process the match's ``showing`` lock keeps two of those
apart. With several processes on one database, an action taken on a live board served by
one and a button pressed in another may both show the match at once, and each would post
a board of its own: so the process showing also holds the board's stored lease
(:meth:`storage.boards.BoardMarkRepo.lease`), and before it shows it brings its copy of
the match up to date, the board message another process posted included.

A lease runs out by itself (a process that died while showing blocks nobody for long),
and a process that cannot reach storage shows anyway, as one process alone would: a
board late or doubled is mended by the next action, a board never shown is not.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from bot.services.live import LiveMatch
from bot.services.manager import Games
from storage.errors import StorageError

log = logging.getLogger(__name__)

LEASE_SECONDS = 30.0  # longer than showing a board takes, with Discord slow
RETRY_SECONDS = 0.05


class BoardShowing:
    def __init__(self, games: Games, lease_seconds: float = LEASE_SECONDS) -> None:
        self.games = games
        self.lease_seconds = lease_seconds
        self.holder = uuid.uuid4().hex  # this process, among those sharing the database

    @asynccontextmanager
    async def of(self, live: LiveMatch) -> AsyncIterator[None]:
        """Hold ``live``'s board while the caller shows it."""
        async with live.showing:
            if self.games.shards.count == 1:  # alone, the lock is all it takes
                yield
                return
            held = await self._take(live.id)
            try:
                await self._catch_up(live)
                yield
            finally:
                if held:
                    await self._give_back(live.id)

    async def _take(self, match_id: int) -> bool:
        """Wait for the lease; False if storage could not be asked (shown anyway)."""
        boards = self.games.boards
        give_up = time.monotonic() + self.lease_seconds  # by then any holder's ran out
        while True:
            try:
                if await boards.lease(match_id, self.holder, time.time(), self.lease_seconds):
                    return True
            except StorageError as exc:
                log.warning("match %s: board shown without its lease (%s)", match_id, exc)
                return False
            if time.monotonic() > give_up:
                log.warning("match %s: board lease still held elsewhere; shown anyway", match_id)
                return False
            await asyncio.sleep(RETRY_SECONDS)

    async def _give_back(self, match_id: int) -> None:
        try:
            await self.games.boards.release(match_id, self.holder)
        except StorageError as exc:  # it runs out by itself
            log.info("match %s: board lease not given back (%s)", match_id, exc)

    async def _catch_up(self, live: LiveMatch) -> None:
        """The match as storage holds it: the moves, and the board message, another
        process may have made or posted while this one waited."""
        await self.games.catch_up([live])
        try:
            live.record = await self.games.repo.get(live.id)
        except StorageError as exc:
            log.info("match %s: board message not read again (%s)", live.id, exc)
