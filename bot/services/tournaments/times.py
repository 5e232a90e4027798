"""Round times: the round clock's tick reminds players before a round opens, forfeits
no-shows and opens rounds whose set time has come. When each of these is due is
:mod:`competition.schedule`'s to say; this applies it to the stored event. Everything it
needs is in storage (when each round opened, which round's reminder went out), so a
tick after a restart carries on where the last one stopped."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from bot.services.live import MatchUnavailable, Update
from bot.services.tournaments.plan import ELIMINATION, Tick, TournamentPlan, moment
from bot.services.tournaments.rounds import TournamentRounds
from competition.model import Pairing
from competition.schedule import RoundTimes, no_show_results
from storage.tournaments import StoredPairing, Tournament, TournamentStatus


class RoundClock:
    """The round clock of timed events, over the tournament's rounds."""

    def __init__(self, rounds: TournamentRounds) -> None:
        self.rounds = rounds
        self.repo = rounds.repo

    async def tick(self, tid: int) -> Tick:
        """Do what the round clock calls for now; harmless to call at any time."""
        t = await self.repo.get(tid)
        plan = TournamentPlan.from_json(t.settings_json)
        times = plan.times
        rounds = await self.repo.rounds(tid)
        if times is None or t.status is not TournamentStatus.RUNNING or not rounds:
            return Tick(0, [], [], [], await self.rounds.advance(tid))
        forfeited: list[StoredPairing] = []
        updates: list[Update] = []
        if not rounds[-1].finished:
            # Under the advance lock, so that a result booked meanwhile is not overwritten.
            async with self.rounds._locks.setdefault(tid, asyncio.Lock()):
                forfeited, updates = await self._no_shows(t, times, rounds[-1].started_at)
        advanced = await self.rounds.advance(tid)
        rounds = await self.repo.rounds(tid)
        reminded: list[int] = []
        next_round = len(rounds) + 1
        current = await self.rounds.current_round(tid)
        waiting = all(p.decided for p in current)
        now = moment(self.rounds.clock.now())
        if waiting and plan.reminded < next_round and times.should_remind(next_round, now):
            fresh = TournamentPlan.from_json((await self.repo.get(tid)).settings_json)
            await self.rounds._save_plan(tid, replace(fresh, reminded=next_round))
            reminded = [int(e.id) for e in await self.rounds.entrants(tid, active_only=True)]
        return Tick(next_round, reminded, forfeited, updates, advanced)

    async def _no_shows(
        self, t: Tournament, times: RoundTimes, opened: float
    ) -> tuple[list[StoredPairing], list[Update]]:
        """Forfeit the round's pairings with a player who has not flown by the deadline."""
        undecided = [p for p in await self.rounds.current_round(t.id) if not p.decided]
        arrived: set[str] = set()
        for p in undecided:
            arrived |= {str(u) for u in await self._movers(p)}
        tables = [Pairing(tuple(str(pp.user_id) for pp in p.players)) for p in undecided]
        now = moment(self.rounds.clock.now())
        results = no_show_results(tables, moment(opened), now, arrived, times)
        by_seats = {tuple(str(pp.user_id) for pp in p.players): p for p in undecided}
        forfeited: list[StoredPairing] = []
        updates: list[Update] = []
        for result in results:
            pairing = by_seats[result.seats]
            seats = [pp.user_id for pp in pairing.players]
            absent = [int(s) for s, pts in zip(result.seats, result.points, strict=True) if not pts]
            if len(absent) == len(seats) and t.format not in ELIMINATION:
                # Nobody came: everyone loses; a bracket still needs someone through.
                await self.rounds._record(
                    t, pairing.id, seats, dict.fromkeys(seats, 0.0), forfeit=True
                )
            else:
                await self.rounds._forfeit(t, pairing.id, seats, absent)
            if pairing.series_id is not None:
                updates += await self.rounds._call_off(t, pairing.series_id, resign=absent[0])
            forfeited.append(pairing)
        done = {p.id: p for p in await self.rounds.current_round(t.id)}
        return [done[p.id] for p in forfeited], updates

    async def _movers(self, pairing: StoredPairing) -> set[int]:
        """Who of a pairing has flown a step in its series so far."""
        if pairing.series_id is None:
            return set()
        series = await self.rounds.series.repo.get(pairing.series_id)
        movers: set[int] = set()
        for g in series.games:
            if g.match_id is None:
                continue
            try:
                live = await self.rounds.games.get(g.match_id)
            except MatchUnavailable:
                continue  # a damaged or unreadable game shows nobody flying
            # Resigning, timing out and drawing are recorded as steps but are not flying.
            flown = [s for s in live.game.history if ":" not in s.token and s.token != "draw"]
            movers |= {u for s in flown if (u := live.seats[s.seat].user_id) is not None}
        return movers
