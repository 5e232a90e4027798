"""Vacations for correspondence play: ``/crosshairs vacation days:N`` and your turn
clocks cannot run out for N days.

The rule (docs/correspondence.md): a vacation lasts 1 to :data:`MAX_DAYS` days, and the
vacations a person starts within any :data:`WINDOW_DAYS` days add up to at most
:data:`MAX_DAYS` days (one ended early counts for the time it lasted). While it lasts,
every turn of theirs gets at least a whole turn's time after it ends: the clock watch
calls :meth:`Vacations.hold_clocks` before it checks the clocks, and the deadline is
pushed in memory and in storage together.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.services.live import LiveMatch, MatchError
from bot.services.manager import GameManager
from i18n import _
from storage.vacations import VacationRepo

DAY = 86400.0
MAX_DAYS = 14
WINDOW_DAYS = 30


@dataclass(frozen=True)
class Started:
    ends: float
    left_days: float  # of the allowance, after this vacation


class Vacations:
    def __init__(self, games: GameManager, repo: VacationRepo) -> None:
        self.games = games
        self.repo = repo

    async def start(self, user_id: int, days: int) -> Started:
        """Start a vacation now, or say why not (nothing is stored then)."""
        used = await self.check(user_id, days)
        now = self.games.clock.now()
        ends = now + days * DAY
        await self.repo.add(user_id, now, ends)
        return Started(ends, MAX_DAYS - used - days)

    async def check(self, user_id: int, days: int) -> float:
        """Why a vacation of ``days`` cannot start now; else the days already used."""
        if not 1 <= days <= MAX_DAYS:
            raise MatchError(
                _("a vacation is 1 to {n} days (0 ends the one you are on)", n=MAX_DAYS)
            )
        now = self.games.clock.now()
        running = await self.repo.running([user_id], now)
        if user_id in running:
            raise MatchError(
                _(
                    "you are on vacation until {when}; `/crosshairs vacation days:0` ends it",
                    when=f"<t:{int(running[user_id])}:f>",
                )
            )
        used = await self.used_days(user_id, now)
        if used + days > MAX_DAYS:
            raise MatchError(
                _(
                    "you have {n} vacation day(s) left in these {window} days "
                    "(at most {most} in any {window})",
                    n=f"{MAX_DAYS - used:g}",
                    window=WINDOW_DAYS,
                    most=MAX_DAYS,
                )
            )
        return used

    async def end(self, user_id: int) -> bool:
        """End the person's vacation now; False if they were not on one."""
        return await self.repo.end_now(user_id, self.games.clock.now()) > 0

    async def used_days(self, user_id: int, now: float) -> float:
        taken = await self.repo.since(user_id, now - WINDOW_DAYS * DAY)
        return round(sum(min(v.ends, now) - v.starts for v in taken) / DAY, 2)

    async def hold_clocks(self) -> list[LiveMatch]:
        """Push the deadline of every clocked match whose player to move is on vacation
        to a whole turn after it ends; returns the matches changed."""
        now = self.games.clock.now()
        clocked = [m for m in self.games.live_matches() if m.deadline is not None]
        away = await self.repo.running(
            sorted({u for m in clocked if (u := m.user_to_move()) is not None}), now
        )
        changed = []
        for live in (m for m in clocked if m.user_to_move() in away):
            async with live.lock:  # the turn may pass meanwhile: checked under the lock
                user, per_turn = live.user_to_move(), live.clock.per_turn
                if user not in away or per_turn is None or live.deadline is None:
                    continue
                deadline = away[user] + per_turn
                if live.over or live.deadline >= deadline:
                    continue
                await self.repo.push_deadline(live.id, deadline)
                live.deadline = deadline
                live.reminded = False
            changed.append(live)
        return changed
