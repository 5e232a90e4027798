"""Arena events: a fixed time window in which players who finish a game are paired again
at once. Scoring and pairing are :mod:`competition.arena`; this stores each batch of
new games as a "round" of the event (so the rounds and pairings tables serve arenas
unchanged) and ranks by arena points.

A batch is paired whenever a game ends and on every tick of the tournament clock, from
everyone not in a game. Two players whose only possible opponent is each other's last
one wait while any game is still in play (whoever finishes next can take them); with
nobody else left to come they play again. When the window closes no new game starts;
the games in play finish and count, and the event ends with the last of them.
"""

from __future__ import annotations

import asyncio
from typing import Protocol

from bot.services.clock import Clock
from bot.services.tournaments.calendar import Calendar, Change
from bot.services.tournaments.plan import Advance, Line, RoundOpened, TournamentPlan, moment
from competition.arena import accepts_pairings, leaderboard, pair_waiting
from competition.model import Entrant, PairingResult
from storage.tournaments import StoredPairing, Tournament, TournamentRepo, TournamentStatus


class RoundBook(Protocol):
    """What an arena uses of the tournament's rounds (:class:`~bot.services.
    tournaments.rounds.TournamentRounds`): the stored event, its history and field."""

    repo: TournamentRepo
    clock: Clock
    calendar: Calendar

    def lock(self, tid: int) -> asyncio.Lock: ...

    async def history(self, tid: int) -> list[PairingResult]: ...

    async def entrants(self, tid: int, *, active_only: bool) -> list[Entrant]: ...

    async def store_round(
        self, t: Tournament, round_no: int, tables: list[tuple[str, ...]]
    ) -> RoundOpened: ...


class ArenaRounds:
    """How an arena advances, shows its current games and ranks its players; the
    tournament's rounds hand an arena event over to it."""

    def __init__(self, rounds: RoundBook) -> None:
        self.rounds = rounds
        self.repo = rounds.repo

    async def advance(self, tid: int) -> Advance:
        async with self.rounds.lock(tid):
            return await self._arena_step(await self.repo.get(tid))

    async def _arena_step(self, t: Tournament) -> Advance:
        if t.status is not TournamentStatus.RUNNING:
            return Advance([], t.status is TournamentStatus.FINISHED)
        plan = TournamentPlan.from_json(t.settings_json)
        ends = plan.arena_ends
        assert ends is not None, "an arena starts with its window set"
        now = self.rounds.clock.now()
        busy: set[str] = set()
        for r in await self.repo.rounds(t.id):
            if r.finished:
                continue
            batch = await self.repo.pairings(t.id, r.round_no)
            if all(p.decided for p in batch):
                await self.repo.finish_round(t.id, r.round_no, now)
            busy |= {str(pp.user_id) for p in batch if not p.decided for pp in p.players}
        if not accepts_pairings(moment(now), moment(ends)):
            if busy:
                return Advance([], False)  # games in play finish and count
            await self.repo.set_status(t.id, TournamentStatus.FINISHED)
            await self.rounds.calendar.changed(t.id, Change.ENDED)
            return Advance([], True)
        if plan.paused:
            return Advance([], False)
        history = await self.rounds.history(t.id)
        waiting = [
            e for e in await self.rounds.entrants(t.id, active_only=True) if e.id not in busy
        ]
        pairs, _ = pair_waiting(waiting, history)
        if busy:
            last = _last_opponents(history)
            pairs = [(a, b) for a, b in pairs if last.get(a) != b]
        if not pairs:
            return Advance([], False)
        round_no = len(await self.repo.rounds(t.id)) + 1
        return Advance([await self.rounds.store_round(t, round_no, list(pairs))], False)

    async def current_round(self, tid: int) -> list[StoredPairing]:
        """An arena has several batches in play at once: every one not yet finished."""
        open_rounds = {r.round_no for r in await self.repo.rounds(tid) if not r.finished}
        return [p for p in await self.repo.pairings(tid) if p.round_no in open_rounds]

    async def standings(self, tid: int) -> list[Line]:
        """Ranked by arena points."""
        dropped = {e.user_id for e in await self.repo.entries(tid) if e.dropped}
        board = leaderboard(
            await self.rounds.entrants(tid, active_only=False), await self.rounds.history(tid)
        )
        return [
            Line(place, int(line.player), float(line.points), {}, int(line.player) in dropped)
            for place, line in enumerate(board, start=1)
        ]

    async def on_fire(self, tid: int) -> set[int]:
        """The players on a streak: their next result counts double."""
        board = leaderboard(
            await self.rounds.entrants(tid, active_only=False), await self.rounds.history(tid)
        )
        return {int(line.player) for line in board if line.on_fire}


def _last_opponents(history: list[PairingResult]) -> dict[str, str]:
    last: dict[str, str] = {}
    for result in history:
        if len(result.seats) == 2:
            a, b = result.seats
            last[a], last[b] = b, a
    return last
