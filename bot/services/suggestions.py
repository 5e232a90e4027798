"""Legal tokens for ``/crosshairs move`` autocomplete, worked out ahead and kept.

Discord asks for suggestions at every keystroke and gives up after three seconds, so
an answer must never wait on the engine behind a busy event loop. The legal steps of each
position are kept per (match, ply, tokens typed so far): those of the position itself
are taken when the step that reached it is committed (the engine has just worked them
out), and those after tokens typed in the box are worked out in a worker process. A
question not answered yet waits briefly, then gets an empty answer; the next keystroke
finds the work done.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Sequence

from bot.services import jobs
from bot.services.live import LiveMatch
from bot.services.workers import Workers

Key = tuple[int, int, tuple[str, ...]]

KEEP = 4096  # positions remembered; old plies fall out first
WAIT = 0.5  # seconds a keystroke may wait for work under way


class LegalCache:
    def __init__(self, workers: Workers) -> None:
        self.workers = workers
        self._known: OrderedDict[Key, tuple[str, ...] | None] = OrderedDict()
        self._working: dict[Key, asyncio.Task[tuple[str, ...] | None]] = {}

    async def tokens(
        self, live: LiveMatch, done: Sequence[str], wait: float = WAIT
    ) -> tuple[str, ...] | None:
        """The legal next tokens after ``done`` (None: ``done`` cannot be played); ()
        when they are not known within ``wait`` seconds."""
        key = (live.id, live.ply, tuple(done))
        if not done and key not in self._known:
            # a match just loaded: its position's own steps, as a commit takes them (not
            # at the load itself, which a press waits on)
            self.remember(live)
        if key in self._known:
            self._known.move_to_end(key)
            return self._known[key]
        try:
            return await asyncio.wait_for(asyncio.shield(self._work(live, key)), wait)
        except TimeoutError:
            return ()

    def remember(self, live: LiveMatch) -> None:
        """Keep the legal steps of the match's position, before anyone asks."""
        self._keep((live.id, live.ply, ()), tuple(s.token for s in live.game.legal_steps()))

    def _keep(self, key: Key, found: tuple[str, ...] | None) -> None:
        self._known[key] = found
        while len(self._known) > KEEP:
            self._known.popitem(last=False)

    def _work(self, live: LiveMatch, key: Key) -> asyncio.Task[tuple[str, ...] | None]:
        task = self._working.get(key)
        if task is None:
            snapshot = jobs.snapshot_of(live.game)
            task = asyncio.get_running_loop().create_task(self._fill(key, snapshot))
            self._working[key] = task
        return task

    async def _fill(self, key: Key, snapshot: str) -> tuple[str, ...] | None:
        try:
            found = await self.workers.run(jobs.legal_tokens, snapshot, list(key[2]))
            self._keep(key, found)
            return found
        finally:
            del self._working[key]
