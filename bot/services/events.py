"""The domain events of a match's life, and the one bus they travel on.

The game manager decides, under the match's lock, what an action did (its
:class:`~bot.services.live.Update`: whether it ended the match, whether it passed the
turn and at which ply); the one path after an action (:func:`bot.ui.buttons.show_update`)
publishes that here, once. The features subscribe where the bot is put together
(:mod:`bot.app`), each to the events it cares about, in the order they are listed there.

* :class:`MatchFinished` / :class:`MatchAborted` — a match's end, published once: by the
  action that ended it or, after a restart, by the process that owns the match and finds
  its end not yet shown (:class:`storage.events.MatchEvents`). It is marked shown only
  once every subscriber has run through, so one that failed (or a process that died) has
  it again at the next start.
* :class:`GameBooked` — a series game was booked (the series desk publishes it while
  showing the end; a tournament books its pairing from it). Part of its end: if a
  subscriber fails, the end is shown again at the next start.
* :class:`TurnPassed` — the turn went to another player at a ply. Keyed by match and ply,
  so a second publication of the same turn (a duplicate delivery, a redraw) is dropped.
  The step that passed the turn recorded it in storage in its own transaction
  (:mod:`storage.turn_events`); it is marked told once every subscriber has run through,
  so a process that died before the DM tells it at the next start (unless the turn has
  passed again or the match ended: then it is stale and dropped).
"""

from __future__ import annotations

import hashlib
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from bot.services.live import LiveMatch
from storage.errors import StorageError
from storage.events import MatchEvents
from storage.series import Series
from storage.turn_events import TurnEvents

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class MatchFinished:
    """A match ended with a result; its final board is up."""

    match: LiveMatch


@dataclass(frozen=True)
class MatchAborted:
    """A match was called off before anybody flew; its board says so."""

    match: LiveMatch


@dataclass(frozen=True)
class GameBooked:
    """A finished match was booked as a game of its series (``series`` as stored after
    the booking)."""

    match: LiveMatch
    series: Series


@dataclass(frozen=True)
class TurnPassed:
    """The turn went to another player, who is to move from ``ply`` on; ``actor`` passed
    it (None: the computer or a clock)."""

    match: LiveMatch
    ply: int
    actor: int | None


Event = MatchFinished | MatchAborted | GameBooked | TurnPassed
E = TypeVar("E", MatchFinished, MatchAborted, GameBooked, TurnPassed)
Handler = Callable[[Any], Awaitable[None]]
KEPT = 4096  # turns passed whose publication is remembered, to drop a second one
Show = Callable[[str], Awaitable[None]]  # posts one step of an end, with the nonce given


def nonce(*parts: object) -> str:
    """The nonce of a post that must go up once (``parts``: a match's id and a step,
    say): the same for the same parts in every process (so a restart's repeat finds the
    first post), 24 characters (Discord takes 25 at most, too few to spell out a large
    match number and a step)."""
    said = ":".join(str(p) for p in parts)
    return hashlib.blake2b(said.encode(), digest_size=12).hexdigest()


def key_of(event: Event) -> str:
    """What makes an event one: per match, its end's kind, its booking, or a turn's ply."""
    if isinstance(event, MatchFinished):
        return "finished"
    if isinstance(event, MatchAborted):
        return "aborted"
    if isinstance(event, GameBooked):
        return "booked"
    return f"turn:{event.ply}"


class EventBus:
    def __init__(self, store: MatchEvents, turns: TurnEvents) -> None:
        self.store = store
        self.turns = turns
        self._handlers: dict[type, list[Handler]] = {}
        self._showing: set[tuple[int, str]] = set()
        self._turns: OrderedDict[tuple[int, str], None] = OrderedDict()

    def subscribe(self, kind: type[E], handler: Callable[[E], Awaitable[None]]) -> None:
        self._handlers.setdefault(kind, []).append(handler)

    async def publish(self, event: Event) -> bool:
        """Run every subscriber of ``event`` in order (once: not while this process is
        already running them, nor again for a turn already published); mark an end shown
        if all of them ran through. Returns whether they did."""
        key = (event.match.id, key_of(event))
        if key in self._showing or key in self._turns:
            return False
        self._showing.add(key)
        if isinstance(event, TurnPassed):
            self._turns[key] = None
            if len(self._turns) > KEPT:
                self._turns.popitem(last=False)
        whole = True
        try:
            for handler in self._handlers.get(type(event), []):
                try:
                    await handler(event)
                except Exception:  # the others still run; an end is shown again at restart
                    log.exception("match %s: a subscriber to %s failed", key[0], key[1])
                    whole = False
            if whole and isinstance(event, MatchFinished | MatchAborted):
                await self.store.done(event.match.id, key[1])
            if isinstance(event, TurnPassed):
                if whole:
                    await self._told(event)
                else:  # told again by the recovery, in this process too
                    self._turns.pop(key, None)
        finally:
            self._showing.discard(key)
        return whole

    async def drop(self, event: TurnPassed) -> None:
        """Mark a turn told without telling it: it is stale (the turn passed again, or
        the match ended, before it could be told)."""
        await self._told(event)

    async def _told(self, event: TurnPassed) -> None:
        try:
            await self.turns.done(event.match.id, event.ply)
        except StorageError as exc:  # told already: at worst told again after a restart
            log.warning("match %s: turn %s not marked told (%s)", event.match.id, event.ply, exc)

    async def once(self, match_id: int, step: str, show: Show) -> None:
        """Show one step of a match's end unless it was shown before (by this process
        before a restart, say): the ratings line, a scoreboard. ``show`` posts with the
        step's nonce: a process that died between the post and the mark posts it again
        at its next start, and Discord then returns the first post instead (for a few
        minutes; the mark is what holds after that)."""
        if await self.store.is_done(match_id, step):
            return
        await show(nonce(match_id, step))
        await self.store.done(match_id, step)
