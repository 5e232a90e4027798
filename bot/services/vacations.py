"""Vacations for correspondence play: ``/crosshairs vacation days:N`` and your turn
clocks cannot run out for N days.

The rule (docs/correspondence.md): a vacation lasts 1 to :data:`MAX_DAYS` days, and the
vacations a person starts within any :data:`WINDOW_DAYS` days add up to at most
:data:`MAX_DAYS` days (one ended early counts for the time it lasted). While it lasts,
every turn of theirs gets at least a whole turn's time after it ends: the clock watch
calls :meth:`Vacations.hold_clocks` before it checks the clocks, and the deadline is
pushed in memory and in storage together. A vacation ended early gives that time back:
the deadline comes back to a whole turn from the end.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.services.live import LiveMatch, Update
from bot.services.manager import Games
from bot.services.refusal import Refusal
from i18n import _
from storage.vacations import Allowance, VacationRepo

DAY = 86400.0
MAX_DAYS = 14
WINDOW_DAYS = 30


@dataclass(frozen=True)
class Started:
    ends: float
    left_days: float  # of the allowance, after this vacation


class Vacations:
    def __init__(self, games: Games, repo: VacationRepo) -> None:
        self.games = games
        self.repo = repo

    async def start(self, user_id: int, days: int) -> Started:
        """Start a vacation now, or say why not (nothing is stored then). The allowance
        is checked in the transaction that stores it, so that requests made at once (in
        any process) cannot all count on the same days."""
        _check_days(days)
        now = self.games.clock.now()
        ends = now + days * DAY

        def allows(found: Allowance) -> bool:
            return found.running_until is None and _days(found.used) + days <= MAX_DAYS

        found, added = await self.repo.add_if(user_id, now, ends, now - WINDOW_DAYS * DAY, allows)
        if not added:
            raise _refusal(found)
        return Started(ends, MAX_DAYS - _days(found.used) - days)

    async def check(self, user_id: int, days: int) -> None:
        """Why a vacation of ``days`` cannot start now (read only: :meth:`start` checks
        again as it stores it)."""
        _check_days(days)
        now = self.games.clock.now()
        running = await self.repo.running([user_id], now)
        taken = await self.repo.since(user_id, now - WINDOW_DAYS * DAY)
        found = Allowance(running.get(user_id), sum(min(v.ends, now) - v.starts for v in taken))
        if found.running_until is not None or _days(found.used) + days > MAX_DAYS:
            raise _refusal(found)

    async def end(self, user_id: int) -> list[Update] | None:
        """End the person's vacation now, giving its time back to their clocks: what
        it did to each match whose deadline came back; None if they were not on
        vacation."""
        if not await self.repo.end_now(user_id, self.games.clock.now()):
            return None
        return await self.hold_clocks()

    async def hold_clocks(self) -> list[Update]:
        """Fit the deadline of every clocked match to its player's vacations: pushed to
        a whole turn after the vacation of a player away, brought back to a whole turn
        from now for one who is not (a vacation ended early gives its time back).
        Returns what it did to each match it changed, for its life to publish
        (:meth:`bot.services.life.MatchLife.after`); the board of a player away notes it."""
        now = self.games.clock.now()
        # only the players on vacation, or back from one lately, have clocks to fit
        people = await self.repo.people_since(now - MAX_DAYS * DAY)
        ids = await self.games.index.clocked_for(people, self.games.shards)
        clocked = [m for m in await self.games.owned(ids) if m.deadline is not None]
        away = await self.repo.running(
            sorted({u for m in clocked if (u := m.user_to_move()) is not None}), now
        )

        def unfit(live: LiveMatch) -> bool:
            per_turn, deadline = live.clock.per_turn, live.deadline
            if per_turn is None or deadline is None:
                return False
            return live.user_to_move() in away or deadline > now + per_turn

        changed = []
        for live in [m for m in clocked if unfit(m)]:
            async with live.lock:  # the turn may pass meanwhile: checked under the lock
                user, per_turn = live.user_to_move(), live.clock.per_turn
                if live.over or user is None or per_turn is None or live.deadline is None:
                    continue
                if user in away:
                    deadline = away[user] + per_turn
                    if live.deadline >= deadline:
                        continue
                    await self.repo.push_deadline(live.id, deadline)
                else:
                    deadline = now + per_turn
                    if live.deadline <= deadline:
                        continue
                    await self.repo.pull_deadline(live.id, deadline)
                live.deadline = deadline
                live.reminded = False
            changed.append(Update(live, (), [], notes=_away(live) if user in away else ()))
        return changed


def _away(live: LiveMatch) -> tuple[Callable[[], str]]:
    who = live.who(live.game.to_move or 0)
    return (lambda: "🌴 " + _("{who} is on vacation: their clock waits.", who=who),)


def _days(seconds: float) -> float:
    return round(seconds / DAY, 2)


def _check_days(days: int) -> None:
    if not 1 <= days <= MAX_DAYS:
        raise Refusal(_("a vacation is 1 to {n} days (0 ends the one you are on)", n=MAX_DAYS))


def _refusal(found: Allowance) -> Refusal:
    if found.running_until is not None:
        return Refusal(
            _(
                "you are on vacation until {when}; `/crosshairs vacation days:0` ends it",
                when=f"<t:{int(found.running_until)}:f>",
            )
        )
    return Refusal(
        _(
            "you have {n} vacation day(s) left in these {window} days "
            "(at most {most} in any {window})",
            n=f"{MAX_DAYS - _days(found.used):g}",
            window=WINDOW_DAYS,
            most=MAX_DAYS,
        )
    )
