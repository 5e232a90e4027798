"""The domain events of a match's life, and the one bus they travel on.

The game manager publishes; the features subscribe where the bot is put together
(:mod:`bot.app`), each to the events it cares about, in the order they are listed
there. A match's end is published once: by the action that ended it (the manager knows
which, under the match's lock) or, after a restart, by the process that owns the match
and finds its end not yet shown (:class:`storage.events.MatchEvents`). It is marked
shown only once every subscriber has run through, so one that failed (or a process
that died) has it again at the next start.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from bot.services.live import LiveMatch
from storage.events import MatchEvents

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class MatchFinished:
    """A match ended with a result; its final board is up."""

    match: LiveMatch


@dataclass(frozen=True)
class MatchAborted:
    """A match was called off before anybody flew; its board says so."""

    match: LiveMatch


MatchEnded = MatchFinished | MatchAborted
E = TypeVar("E", MatchFinished, MatchAborted)
Handler = Callable[[Any], Awaitable[None]]


class EventBus:
    def __init__(self, store: MatchEvents) -> None:
        self.store = store
        self._handlers: dict[type, list[Handler]] = {}
        self._showing: set[tuple[int, str]] = set()

    def subscribe(self, kind: type[E], handler: Callable[[E], Awaitable[None]]) -> None:
        self._handlers.setdefault(kind, []).append(handler)

    async def publish(self, event: MatchEnded) -> bool:
        """Run every subscriber of ``event`` in order; mark the end shown if all of them
        ran through. Returns whether they did."""
        kind = "finished" if isinstance(event, MatchFinished) else "aborted"
        key = (event.match.id, kind)
        if key in self._showing:  # already being shown by this process
            return False
        self._showing.add(key)
        whole = True
        try:
            for handler in self._handlers.get(type(event), []):
                try:
                    await handler(event)
                except Exception:  # the others still run; the end is shown again at restart
                    log.exception("match %s: a subscriber to %s failed", event.match.id, kind)
                    whole = False
            if whole:
                await self.store.done(event.match.id, kind)
        finally:
            self._showing.discard(key)
        return whole

    async def once(self, match_id: int, step: str, show: Callable[[], Awaitable[None]]) -> None:
        """Show one step of a match's end unless it was shown before (by this process
        before a restart, say): the ratings line, a scoreboard."""
        if await self.store.is_done(match_id, step):
            return
        await show()
        await self.store.done(match_id, step)
