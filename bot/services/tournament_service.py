"""Running a tournament without Discord: registration, rounds, series, results.

The pure package :mod:`competition` decides pairings, brackets and
standings from a history of results; this service keeps that history in storage
(:class:`~storage.tournaments.TournamentRepo`) and turns it into games. Nothing lives
only in memory: every decision is recomputed from the stored entries and pairings, so
a restart between (or during) rounds carries on where it stopped.

The service is split by phase: :mod:`~bot.services.tournament_registration` (before
round 1), :mod:`~bot.services.tournament_rounds` (pairings, results, standings) and the
organiser's controls here, which complete :class:`TournamentService`. The flow, which
the Discord cogs drive and the tests follow:

1. :meth:`TournamentService.create` stores the event and its :class:`TournamentPlan`;
   players :meth:`join`, :meth:`leave` and :meth:`check_in`.
2. :meth:`start` closes check-in (no-shows are dropped), seeds the field by rating and
   opens round 1. :meth:`open_round` stores a round's pairings; byes, and pairings with
   a dropped player, are decided at once.
3. Each undecided pairing plays a series: :meth:`start_pairing` creates it through the
   :class:`~bot.services.series.SeriesService` (the cog gives it a thread).
4. When a match ends, :meth:`match_finished` books its series game and, once the series
   is over, the pairing's result. :meth:`advance` then finishes the round and opens the
   next, or finishes the tournament, unless the organiser has paused it.

Formats (docs/tournaments.md): ``swiss`` (duels, or free-for-all tables of the mode's
size), ``round-robin`` (duels, divisions of at most ten), ``single`` and ``double``
elimination (duels).
"""

from __future__ import annotations

import json
from dataclasses import replace

from bot.services.live import MatchError, Update
from bot.services.tournament_plan import (
    ELIMINATION,
    Advance,
    TournamentPlan,
)
from bot.services.tournament_registration import TournamentRegistration
from storage.series import SeriesStatus
from storage.tournaments import Pairing as StoredPairing
from storage.tournaments import TournamentStatus


class TournamentService(TournamentRegistration):
    """The whole tournament service: registration, rounds and the organiser's controls."""

    async def set_paused(self, tid: int, paused: bool) -> Advance:
        """Pause: no new round opens (games in play go on). Resume: open what is due."""
        t = await self.repo.get(tid)
        if t.status is not TournamentStatus.RUNNING:
            raise MatchError(f"{t.name} is not running")
        await self._save_plan(
            tid, replace(TournamentPlan.from_json(t.settings_json), paused=paused)
        )
        return Advance([], False) if paused else await self.advance(tid)

    async def drop(self, tid: int, user_id: int) -> list[Update]:
        """Take a player out: their undecided pairing is forfeited to the others, their
        series is called off and their game resigned. Returns the games' updates."""
        t = await self.repo.get(tid)
        entry = await self._entry(tid, user_id)
        if entry.dropped:
            raise MatchError("that player has already been dropped")
        await self.repo.drop(tid, user_id)
        if t.status is not TournamentStatus.RUNNING:
            return []
        updates: list[Update] = []
        for p in await self.current_round(tid):
            seats = [pp.user_id for pp in p.players]
            if p.decided or user_id not in seats:
                continue
            await self._forfeit(t, p.id, seats, [user_id])
            if p.series_id is not None:
                updates += await self._call_off(t, p.series_id, resign=user_id)
        return updates

    async def set_result(
        self, tid: int, user_a: int, user_b: int, winner: int | None
    ) -> tuple[int, list[Update]]:
        """Set or correct the result between two players in their latest pairing;
        ``winner`` None is a draw (not in brackets). A series still in play is called
        off, and with a winner the loser's running game is resigned so the board agrees
        (a drawn game carries on unscored). Returns the round number and the updates of
        games that ended."""
        t = await self.repo.get(tid)
        pairing = next(
            (
                p
                for p in reversed(await self.repo.pairings(tid))
                if {pp.user_id for pp in p.players} == {user_a, user_b}
            ),
            None,
        )
        if pairing is None:
            raise MatchError("those two players have not been paired")
        seats = [pp.user_id for pp in pairing.players]
        if winner is None and t.format in ELIMINATION:
            raise MatchError("a bracket match needs a winner")
        if winner is not None and winner not in seats:
            raise MatchError("the winner must be one of the two players")
        points = {u: (0.5 if winner is None else float(u == winner)) for u in seats}
        if t.format in ELIMINATION and pairing.decided:
            await self._check_correction(tid, pairing, str(winner))
        if pairing.decided and pairing.result_json:
            old = json.loads(pairing.result_json)
            data = {**old, "forfeit": False, "set_forced": True}
            if "winner" in old:
                data["winner"] = winner
            await self.repo.record_result(pairing.id, points, json.dumps(data))
        else:
            await self._record(t, pairing.id, seats, points, forfeit=False)
        updates: list[Update] = []
        if pairing.series_id is not None:
            loser = None if winner is None else next(u for u in seats if u != winner)
            updates = await self._call_off(t, pairing.series_id, resign=loser)
        return pairing.round_no, updates

    async def _check_correction(self, tid: int, pairing: StoredPairing, winner: str) -> None:
        bracket = await self.bracket(tid)
        assert bracket is not None and pairing.result_json is not None
        try:
            bracket.report(json.loads(pairing.result_json)["match"], winner)
        except ValueError as exc:
            raise MatchError(f"cannot correct that result: {exc}") from None

    async def repair(self, tid: int) -> Advance:
        """Pair the current round again from the standings and field as they are now
        (after a drop or a correction); only before any move of the round is made."""
        t = await self.repo.get(tid)
        current = await self.current_round(tid)
        if not current:
            raise MatchError("no round is in progress")
        for p in current:
            if p.series_id is None:
                continue
            series = await self.series.repo.get(p.series_id)
            for g in series.games:
                if g.match_id is not None and (await self.games.get(g.match_id)).ply > 0:
                    raise MatchError("a game of this round has begun: set results instead")
        organiser = TournamentPlan.from_json(t.settings_json).organiser
        for p in current:
            if p.series_id is not None:
                series = await self.series.repo.get(p.series_id)
                if series.status is SeriesStatus.ACTIVE:
                    await self.series.abandon(p.series_id, organiser)
                for g in series.games:
                    if g.match_id is not None:
                        live = await self.games.get(g.match_id)
                        if not live.game.is_over:
                            await self.games.abort(g.match_id, p.players[0].user_id)
        await self.repo.delete_round(tid, current[0].round_no)
        return await self.advance(tid)

    async def end(self, tid: int) -> None:
        """End the event now: series in play are called off and the standings stand."""
        t = await self.repo.get(tid)
        if t.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
            raise MatchError(f"{t.name} is already over")
        for p in await self.current_round(tid):
            if p.series_id is not None and not p.decided:
                await self._call_off(t, p.series_id, resign=None)
        # An event that never started is cancelled; one that ran is finished as it stands.
        ended = (
            TournamentStatus.CANCELLED
            if t.status is TournamentStatus.OPEN
            else TournamentStatus.FINISHED
        )
        await self.repo.set_status(tid, ended)
