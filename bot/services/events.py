"""The domain events of a match's life, and the one bus they travel on.

The game manager decides, under the match's lock, what an action did (its
:class:`~bot.services.live.Update`: whether it ended the match, whether it passed the
turn and at which ply); the one path after an action (:meth:`bot.services.life.MatchLife.after`)
publishes that here, once. The bookkeeping (:mod:`bot.services.end_books`) and the
showing (the match's surface, the desks) subscribe where the bot is put together
(:mod:`bot.app`), each to the events it cares about, in the order they are listed there.
An event published by a subscriber is part of the event being published: its
subscribers run after those of the current event, and an end is marked shown only once
all of them ran through.

* :class:`Acted` — an action that did not end the match was committed: its surface
  brings the board up to date. Not stored: a board behind its game is redrawn after a
  restart from its own mark (:mod:`storage.boards`).

* :class:`MatchStarted` — a match was created (its board may not be up yet): the live
  boards open in its channel list it. Not stored: a page opened later asks storage.

* :class:`MatchFinished` / :class:`MatchAborted` — a match's end, published once: by the
  action that ended it or, after a restart, by the process that owns the match and finds
  its end not yet shown (:class:`storage.events.MatchEventRepo`). It is marked shown only
  once every subscriber has run through, so one that failed (or a process that died) has
  it again at the next start.
* :class:`GameBooked` — a series game was booked (published by the series' bookkeeping
  of an end; a tournament books its pairing from it, the series desk shows the
  scoreboard and opens the next game). Part of its end: if a subscriber fails, the end
  is shown again at the next start.
* :class:`PairingBooked` — a tournament's pairing was decided by that series game
  (published by the tournament's bookkeeping of a :class:`GameBooked`); part of the end
  too.
* :class:`TurnPassed` — the turn went to another player at a ply. Keyed by match and ply,
  so a second publication of the same turn (a duplicate delivery, a redraw) is dropped.
  The step that passed the turn recorded it in storage in its own transaction
  (:mod:`storage.turn_events`); it is marked told once every subscriber has run through,
  so a process that died before the DM tells it at the next start (unless the turn has
  passed again or the match ended: then it is stale and dropped).
* :class:`RematchChanged` — a finished match's rematch offer was asked for, accepted,
  declined, withdrawn, or became a new match (:mod:`bot.services.rematch`): the thread
  and the live board show it. The offer itself is stored; the event is not.
* :class:`ChallengeChanged` — a challenge to a duel was asked, declined, withdrawn, or
  became a new match (:mod:`bot.services.challenges`): the channel's message and the
  live board show it. The challenge itself is stored; the event is not.
* :class:`TakebackChanged` — a takeback was asked for, accepted by one of those asked
  (others still to answer), declined, or done (:mod:`bot.services.takeback`): the thread
  and the live board show it. The request itself is stored; the event is not.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from bot.services.challenge_offers import Challenge, ChallengeStep
from bot.services.live import LiveMatch, Occupant, Update
from bot.services.rematch_offers import RematchOffer, Step
from storage.errors import StorageError
from storage.events import MatchEventRepo
from storage.series import Series
from storage.takebacks import Takeback
from storage.tournaments import StoredPairing, Tournament
from storage.turn_events import TurnEventRepo

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Acted:
    """An action on a match was committed and did not end it (``update``: what it did);
    ``via``, the press that acted (already answered), is the surface's business."""

    update: Update
    via: object = field(default=None, compare=False)

    @property
    def match(self) -> LiveMatch:
        return self.update.match


@dataclass(frozen=True)
class MatchStarted:
    """A match was created, published by the game manager once it is stored."""

    match: LiveMatch


@dataclass(frozen=True)
class MatchFinished:
    """A match ended with a result. ``update``: the action that ended it (None: a restart
    found its end not shown in full); ``via``: the press that acted, if any."""

    match: LiveMatch
    update: Update | None = field(default=None, compare=False)
    via: object = field(default=None, compare=False)


@dataclass(frozen=True)
class MatchAborted:
    """A match was called off before anybody flew. ``update``: the action that called it
    off (None: it was withdrawn, or a restart found its end not shown)."""

    match: LiveMatch
    update: Update | None = field(default=None, compare=False)
    via: object = field(default=None, compare=False)


@dataclass(frozen=True)
class GameBooked:
    """A finished match was booked as game ``game_no`` of its series (``series`` as
    stored after the booking; ``returned``: the cards claimed in it that went back to
    the pool)."""

    match: LiveMatch
    series: Series
    game_no: int = 0
    returned: tuple[str, ...] = ()


@dataclass(frozen=True)
class PairingBooked:
    """The series game ``match`` decided ``pairing`` of ``tournament``; with
    ``round_complete``, the last of its round."""

    match: LiveMatch
    tournament: Tournament
    pairing: StoredPairing
    round_complete: bool


@dataclass(frozen=True)
class TurnPassed:
    """The turn went to another player, who is to move from ``ply`` on; ``actor`` passed
    it (None: the computer or a clock)."""

    match: LiveMatch
    ply: int
    actor: int | None


@dataclass(frozen=True)
class RematchChanged:
    """``step`` happened to ``offer``, the rematch of the finished ``match``: ``asked``,
    ``accepted`` (others still to answer), ``declined``, ``withdrawn`` or ``started``
    (``rematch``: the new match, not shown anywhere yet). ``by``: who acted (the
    computer's seat never does); ``via``, the press that acted, is the surface's business."""

    match: LiveMatch
    offer: RematchOffer
    step: Step
    by: Occupant
    rematch: LiveMatch | None = None
    via: object = field(default=None, compare=False)


@dataclass(frozen=True)
class ChallengeChanged:
    """``step`` happened to ``challenge``: ``asked``, ``declined``, ``withdrawn`` or
    ``started`` (``match``: the new match, not shown anywhere yet). ``by``: who acted;
    ``via``, the press that acted, is the surface's business."""

    challenge: Challenge
    step: ChallengeStep
    by: Occupant
    match: LiveMatch | None = None
    via: object = field(default=None, compare=False)


TakebackStep = Literal["asked", "accepted", "declined", "done"]


@dataclass(frozen=True)
class TakebackChanged:
    """``step`` happened to ``takeback``, a request to take back a turn of ``match``;
    ``by``: who answered (the asker, for ``asked``; None for the computer's yes).
    ``via``, the press that acted, is the surface's business."""

    match: LiveMatch
    takeback: Takeback
    step: TakebackStep
    by: int | None
    via: object = field(default=None, compare=False)


Event = (
    Acted
    | MatchStarted
    | MatchFinished
    | MatchAborted
    | GameBooked
    | PairingBooked
    | TurnPassed
    | RematchChanged
    | TakebackChanged
    | ChallengeChanged
)
E = TypeVar(
    "E",
    Acted,
    MatchStarted,
    MatchFinished,
    MatchAborted,
    GameBooked,
    PairingBooked,
    TurnPassed,
    RematchChanged,
    TakebackChanged,
    ChallengeChanged,
)
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


def place_of(event: Event) -> int:
    """The match an event is of (0: a challenge not yet a match)."""
    if isinstance(event, ChallengeChanged):
        return 0 if event.match is None else event.match.id
    return event.match.id


def key_of(event: Event) -> str:
    """What makes an event one: per match, its end's kind, its booking, or a turn's ply."""
    if isinstance(event, MatchStarted):
        return "started"
    if isinstance(event, MatchFinished):
        return "finished"
    if isinstance(event, MatchAborted):
        return "aborted"
    if isinstance(event, GameBooked):
        return "booked"
    if isinstance(event, PairingBooked):
        return "pairing"
    if isinstance(event, Acted):
        return f"acted:{id(event)}"  # each action is shown: never one for another
    if isinstance(event, RematchChanged):
        return f"rematch:{id(event)}"  # each answer is shown, as each action is
    if isinstance(event, TakebackChanged):
        return f"takeback:{id(event)}"
    if isinstance(event, ChallengeChanged):
        return f"challenge:{id(event)}"
    return f"turn:{event.ply}"


# The events published by the subscribers of the event being published (in the task
# publishing it): they run after its subscribers, as part of it.
_FOLLOWING: ContextVar[tuple[asyncio.Task[Any] | None, list[Event]] | None] = ContextVar(
    "following", default=None
)


class EventBus:
    def __init__(self, store: MatchEventRepo, turns: TurnEventRepo) -> None:
        self.store = store
        self.turns = turns
        self._handlers: dict[type, list[Handler]] = {}
        self._showing: set[tuple[int, str]] = set()
        self._turns: OrderedDict[tuple[int, str], None] = OrderedDict()
        self._stopping = False

    def stop(self) -> None:
        """The process is shutting down: its connection to Discord closes under
        subscribers still showing something. Their failures from now on are expected and
        not errors (what they did not show is shown again: an end and a turn at the next
        start, a board from its own mark)."""
        self._stopping = True

    def subscribe(self, kind: type[E], handler: Callable[[E], Awaitable[None]]) -> None:
        self._handlers.setdefault(kind, []).append(handler)

    async def publish(self, event: Event) -> bool:
        """Run every subscriber of ``event`` in order (once: not while this process is
        already running them, nor again for a turn already published), then those of
        the events they published; mark an end shown if all of them ran through.
        Returns whether they did. Published by a subscriber, ``event`` waits its turn
        (see the module's docstring) and this returns True."""
        task = asyncio.current_task()
        following = _FOLLOWING.get()
        if following is not None and following[0] is task:
            following[1].append(event)
            return True
        key = (place_of(event), key_of(event))
        if key in self._showing or key in self._turns:
            return False
        queue: list[Event] = []
        token = _FOLLOWING.set((task, queue))
        self._showing.add(key)
        try:
            whole = await self._run(event)
            while queue:
                nested = queue.pop(0)
                inner = (place_of(nested), key_of(nested))
                if inner in self._showing or inner in self._turns:
                    continue  # being shown already, by the publication that has it
                self._showing.add(inner)
                try:
                    whole = await self._run(nested) and whole
                finally:
                    self._showing.discard(inner)
            if whole and isinstance(event, MatchFinished | MatchAborted):
                await self.store.done(key[0], key[1])
        finally:
            _FOLLOWING.reset(token)
            self._showing.discard(key)
        return whole

    async def _run(self, event: Event) -> bool:
        """Run ``event``'s subscribers in order; whether all of them ran through."""
        key = (place_of(event), key_of(event))
        if isinstance(event, TurnPassed):
            self._turns[key] = None
            if len(self._turns) > KEPT:
                self._turns.popitem(last=False)
        whole = True
        for handler in self._handlers.get(type(event), []):
            try:
                await handler(event)
            except Exception:  # the others still run; an end is shown again at restart
                if self._stopping:
                    log.info(
                        "match %s: %s not shown, the bot is stopping",
                        key[0],
                        type(event).__name__,
                    )
                else:
                    log.exception("match %s: a subscriber to %s failed", key[0], key[1])
                whole = False
        if isinstance(event, TurnPassed):
            if whole:
                await self._told(event)
            else:  # told again by the recovery, in this process too
                self._turns.pop(key, None)
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
