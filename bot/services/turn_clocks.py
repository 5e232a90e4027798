"""Turn clocks: reminders before a turn runs out, a lost game when it does (or a win an
opponent may claim). The game manager owns one (``Games.clocks``) and is its
:class:`~bot.services.live.MatchHost`; the time itself comes from
:mod:`bot.services.clock`."""

from __future__ import annotations

import logging

from bot.services.live import (
    REMIND_SHARE,
    LiveMatch,
    MatchHost,
    MatchUnavailable,
    Update,
    clock_due,
    remind_seconds,
)
from bot.services.refusal import Refusal
from i18n import _
from storage.errors import StorageError

log = logging.getLogger(__name__)


class TurnClocks:
    def __init__(self, host: MatchHost) -> None:
        self._host = host

    async def tick(self) -> tuple[list[LiveMatch], list[Update]]:
        """Look at the clocks storage says are due now in this process's shards (its
        ``clock_due`` index: no scan of memory, nor of every match): (matches whose player
        should be reminded, updates from turns that ran out). A reminder goes out once per
        turn, when less than a quarter of the turn's time is left (``REMIND_SHARE``).
        Another process's matches are its own to tick, so that no clock fires twice."""
        host = self._host
        remind: list[LiveMatch] = []
        expired: list[Update] = []
        now = host.clock.now()
        for match_id in await host.index.due(now, host.shards):
            try:
                live = await host.current(match_id)
            except MatchUnavailable as exc:
                log.warning("match %s: its clock cannot be checked (%s)", match_id, exc)
                continue
            async with live.lock:
                update = await self._check(live, now, remind)
            if update is not None:
                expired.append(update)
        return remind, expired

    async def _check(self, live: LiveMatch, now: float, remind: list[LiveMatch]) -> Update | None:
        """One due clock, under the match's lock; then storage is told when it is next
        due (a step already told it, if the turn ran out)."""
        host = self._host
        deadline, per_turn = live.deadline, live.clock.per_turn
        if not live.over and deadline is not None and per_turn is not None:
            if now >= deadline and live.clock.on_expiry == "lose" and not live.computer_to_move:
                seat = live.game.to_move
                if seat is not None:
                    try:
                        return await host.concede(live, seat, "timeout", None)
                    except Refusal as exc:  # not stored: the next tick tries again
                        log.warning("match %s: timeout not applied: %s", live.id, exc)
                        return None
            elif not live.reminded and deadline - now <= per_turn * REMIND_SHARE:
                live.reminded = True
                remind.append(live)
        try:
            await host.index.set_due(live.id, clock_due(live, now))
        except StorageError as exc:  # it stays due: the next tick looks again
            log.warning("match %s: its clock's next time not stored (%s)", live.id, exc)
        return None

    async def pause(self, match_id: int) -> bool:
        """Stop the match's clock (its place cannot be played in); False if it was
        already paused or is over. Moves are refused until :meth:`resume`."""
        host = self._host
        live = await host.get(match_id)
        async with live.lock:
            if live.over or live.paused is not None:
                return False
            left = 0.0 if live.deadline is None else live.deadline - host.clock.now()
            await host.repo.set_deadline(live.id, None)
            live.paused, live.deadline = max(0.0, left), None
            return True

    async def resume(self, match_id: int) -> bool:
        """Start a paused match's clock again with the time its player had left."""
        host = self._host
        live = await host.get(match_id)
        async with live.lock:
            if live.over or live.paused is None:
                return False
            unclocked = live.clock.per_turn is None
            deadline = None if unclocked else host.clock.now() + live.paused
            due = None if deadline is None else deadline - (remind_seconds(live.clock) or 0)
            await host.repo.set_deadline(live.id, deadline, due)
            live.paused, live.deadline, live.reminded = None, deadline, False
            return True

    async def claim_timeout(self, match_id: int, user_id: int) -> Update:
        """In a match whose clock lets opponents claim: take the win off an expired turn."""
        host = self._host
        live = await host.get(match_id)
        async with live.lock:
            game = live.game
            seat = game.to_move
            mine = live.seats_of(user_id)
            if seat is None or not mine:
                raise Refusal(
                    _("you are not playing in this match") if not mine else _("this game is over")
                )
            if seat in mine:
                raise Refusal(_("it is your own turn"))
            if live.deadline is None or host.clock.now() < live.deadline:
                raise Refusal(_("the player to move still has time"))
            return await host.concede(live, seat, "timeout", user_id)
