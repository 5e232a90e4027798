"""Turn clocks: reminders before a turn runs out, a lost game when it does (or a win an
opponent may claim). The game manager owns one (``GameManager.clocks``) and is its
:class:`~bot.services.live.MatchHost`; the time itself comes from
:mod:`bot.services.clock`."""

from __future__ import annotations

import logging

from bot.services.live import LiveMatch, MatchHost, Update
from bot.services.refusal import Refusal
from i18n import _

log = logging.getLogger(__name__)


class TurnClocks:
    def __init__(self, host: MatchHost) -> None:
        self._host = host

    async def tick(self, remind_before: float = 0.25) -> tuple[list[LiveMatch], list[Update]]:
        """Check the clock of every loaded match this process owns: (matches whose player
        should be reminded, updates from turns that ran out). A reminder goes out once
        per turn, when less than ``remind_before`` of the turn's time is left. Another
        process's matches are its own to tick, so that no clock fires twice."""
        host = self._host
        remind: list[LiveMatch] = []
        expired: list[Update] = []
        now = host.clock.now()
        for live in host.loaded():
            if live.game.is_over or live.deadline is None or live.clock.per_turn is None:
                continue
            if not host.shards.owns(live.record.guild_id):
                continue
            if now >= live.deadline:
                if live.clock.on_expiry == "lose" and not live.computer_to_move:
                    async with live.lock:
                        seat = live.game.to_move
                        if seat is not None and live.deadline is not None and now >= live.deadline:
                            try:
                                expired.append(await host.concede(live, seat, "timeout", None))
                            except Refusal as exc:  # not stored: the next tick tries again
                                log.warning("match %s: timeout not applied: %s", live.id, exc)
                elif not live.reminded:
                    live.reminded = True
                    remind.append(live)
            elif not live.reminded and live.deadline - now <= live.clock.per_turn * remind_before:
                live.reminded = True
                remind.append(live)
        return remind, expired

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
            await host.repo.set_deadline(live.id, deadline)
            live.paused, live.deadline = None, deadline
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
