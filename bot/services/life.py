"""A match's life after each action: the one path from a committed action to what it
did, published once, in the domain's order (lila's round ``Finisher``, then the bus, is
the model).

Every action on a match — a step, a resignation, a draw, an abort, a clock's, the
computer's turn, a takeback's replay, a restart's recovery — is committed by the game
manager, which says under the match's lock what it did (:class:`~bot.services.live.Update`:
whether it ended the match, from which ply the turn is another player's). Then
:meth:`MatchLife.after` publishes it on the bus (:mod:`bot.services.events`):

1. an end: :class:`MatchFinished` (or :class:`MatchAborted`); its subscribers book it
   (the rating, then the series game, which publishes :class:`GameBooked`, from which
   the tournament books its pairing and publishes :class:`PairingBooked`:
   :mod:`bot.services.end_books`) and the surface shows it (the final board with the
   ratings line, then the scoreboard and next game, then the tournament's line), in the
   order :mod:`bot.app` subscribes them — the same on every surface;
2. otherwise :class:`Acted` (the surface brings the board up to date), then
   :class:`TurnPassed` when the turn went to another player (the DM);
3. then, if the computer is to move, its turns: flown at once and shown with this
   action where the surface can only show through a press (:attr:`Surface.at_once`),
   else one plane action at a time, each going through this same path.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

from bot.services.events import Acted, EventBus, MatchAborted, MatchFinished, TurnPassed
from bot.services.live import LiveMatch, Update
from bot.services.manager import Games
from bot.services.refusal import Refusal
from bot.services.surface import Surface, Surfaces

log = logging.getLogger(__name__)

Spawn = Callable[[Coroutine[Any, Any, None]], object]


class _Unseen:
    """The surface of a life not yet shown anywhere (before the bot installs its own)."""

    at_once = False

    async def acted(self, event: Acted) -> None:
        return None

    async def finished(self, event: MatchFinished) -> None:
        return None

    async def aborted(self, event: MatchAborted) -> None:
        return None


class _Nowhere:
    def of(self, live: LiveMatch) -> Surface:
        return _Unseen()


class MatchLife:
    def __init__(self, games: Games, pace: float) -> None:
        self.games = games
        self.events: EventBus = games.events
        self.pace = pace  # seconds between the computer's plane actions
        self.surfaces: Surfaces = _Nowhere()
        self._spawn: Spawn = self._run_here
        self._running: set[asyncio.Task[None]] = set()
        # matches whose computer is flying in a loop of this process: one loop each
        self._flying: set[int] = set()

    def _run_here(self, coro: Coroutine[Any, Any, None]) -> object:
        task = asyncio.get_running_loop().create_task(coro)
        self._running.add(task)  # kept, or the loop could lose it half way
        task.add_done_callback(self._running.discard)
        return task

    def show_on(self, surfaces: Surfaces, spawn: Spawn) -> None:
        """Where the matches are shown, and how background work (the computer's
        turns) is run: given by whoever puts the bot together."""
        self.surfaces = surfaces
        self._spawn = spawn

    async def after(self, update: Update, via: object = None) -> None:
        """Publish what the committed action ``update`` did, once, in the domain's order
        (see the module's docstring); ``via``, the press that acted, already answered,
        is handed to the surface."""
        live = update.match
        at_once = self.surfaces.of(live).at_once
        last = await self.fly_within(live) if at_once else None
        ended = update.ended or (last is not None and last.ended)
        if ended:
            end = MatchAborted if live.aborted else MatchFinished
            await self.events.publish(end(live, update, via))
            return
        if live.aborted and not at_once:
            return  # another action called it off, and tells of it
        await self.events.publish(Acted(update, via))
        passer = last or update
        if not live.over and passer.passed_at is not None:
            # the player now to move is told (a DM)
            await self.events.publish(TurnPassed(live, passer.passed_at, passer.actor))
        if not at_once:
            self.computer_next(live)

    async def fly_within(self, live: LiveMatch) -> Update | None:
        """The computer's turns, flown at once (committed, not yet published): the
        last one's update, None if it did not fly."""
        last = None
        while live.computer_to_move and not live.over:
            flown = await self.games.computer.play(live.id)
            if flown is None:
                break
            last = flown
        return last

    def computer_next(self, live: LiveMatch) -> None:
        """The computer flies when it is to move (a person is pinged by the board)."""
        if live.computer_to_move and live.id not in self._flying:
            self._spawn(self.computer_turns(live.id))

    async def computer_turns(self, match_id: int) -> None:
        """Play the computer's plane actions one at a time, each through :meth:`after`,
        until a person is to move or the game ends."""
        if match_id in self._flying:
            return
        self._flying.add(match_id)
        try:
            while True:
                await asyncio.sleep(self.pace)
                try:
                    update = await self.games.computer.play(match_id)
                except Refusal as exc:
                    log.warning("match %s: the computer could not move: %s", match_id, exc)
                    return
                if update is None:
                    return
                await self.after(update)
                if not update.match.computer_to_move:
                    return
        finally:
            self._flying.discard(match_id)

    async def resume_computers(self) -> None:
        """After a restart: the computer flies wherever it was to move (asked of
        storage: each such match is loaded as its turn is flown)."""
        for match_id in await self.games.index.computers_to_move(self.games.shards):
            self._spawn(self.computer_turns(match_id))

    async def called_off(self, live: LiveMatch) -> None:
        """A match withdrawn (its place gone): its end published as an abort's."""
        await self.events.publish(MatchAborted(live))

    async def carry_on_ends(self, ends: Sequence[LiveMatch]) -> None:
        """After a restart: publish again each end not shown in full; its surface shows
        what of it is missing, its bookkeeping does nothing twice."""
        for live in ends:
            try:
                end = MatchAborted if live.aborted else MatchFinished
                await self.events.publish(end(live))
            except Exception:  # one damaged match must not keep the others untold
                log.exception("match %s: could not show its end after a restart", live.id)

    async def tell_untold(self, turns: Sequence[TurnPassed]) -> None:
        """After a restart: tell each turn passed that a crash left untold, if it is
        still that turn; a stale one is dropped without a word, or it would DM someone
        who is not to move."""
        for turn in turns:
            try:
                if turn.match.over or turn.match.ply != turn.ply:
                    await self.events.drop(turn)
                    continue
                await self.events.publish(turn)
            except Exception:  # one damaged match must not keep the others untold
                log.exception("match %s: could not tell its turn after a restart", turn.match.id)
