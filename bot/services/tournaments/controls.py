"""The organiser's controls of a running event: pause and resume, drop a player, set or
correct a result, pair a round again, end the event."""

from __future__ import annotations

import json
from dataclasses import replace

from bot.services.live import AlreadyOver, Update
from bot.services.refusal import Refusal
from bot.services.tournaments.calendar import Change
from bot.services.tournaments.plan import ELIMINATION, Advance, TournamentPlan
from bot.services.tournaments.registration import Registration
from bot.services.tournaments.rounds import TournamentRounds
from i18n import _
from storage.series import SeriesStatus
from storage.tournaments import StoredPairing, Tournament, TournamentStatus


class Controls:
    """What an organiser may do to an event once it runs."""

    def __init__(self, rounds: TournamentRounds, registration: Registration) -> None:
        self.rounds = rounds
        self.registration = registration
        self.repo = rounds.repo
        self.series = rounds.series
        self.games = rounds.games

    async def set_paused(self, tid: int, paused: bool) -> Advance:
        """Pause: no new round opens (games in play go on). Resume: open what is due."""
        t = await self.repo.get(tid)
        if t.status is not TournamentStatus.RUNNING:
            raise Refusal(_("{name} is not running", name=t.name))
        await self.rounds.plans.save(
            tid, replace(TournamentPlan.from_json(t.settings_json), paused=paused)
        )
        await self.rounds.calendar.changed(tid, Change.PAUSED if paused else Change.RESUMED)
        return Advance([], False) if paused else await self.rounds.advance(tid)

    async def move_start(self, tid: int, start_at: float) -> Tournament:
        """Set when an event that has not started yet starts by itself."""
        t = await self.repo.get(tid)
        if t.status is not TournamentStatus.OPEN:
            raise Refusal(_("{name} has already started", name=t.name))
        if start_at <= self.rounds.clock.now():
            raise Refusal(_("choose a start time to come"))
        plan = replace(TournamentPlan.from_json(t.settings_json), start_at=start_at)
        await self.rounds.plans.save(tid, plan)
        await self.rounds.calendar.changed(tid, Change.MOVED)
        return await self.repo.get(tid)

    async def drop(self, tid: int, user_id: int) -> list[Update]:
        """Take a player out: their undecided pairing is forfeited to the others, their
        series is called off and their game resigned. Returns the games' updates."""
        t = await self.repo.get(tid)
        entry = await self.registration.entry(tid, user_id)
        if entry.dropped:
            raise Refusal(_("that player has already been dropped"))
        await self.repo.drop(tid, user_id)
        if t.status is not TournamentStatus.RUNNING:
            return []
        updates: list[Update] = []
        for p in await self.rounds.current_round(tid):
            seats = [pp.user_id for pp in p.players]
            if p.decided or user_id not in seats:
                continue
            await self.rounds.forfeit(t, p.id, seats, [user_id])
            if p.series_id is not None:
                updates += await self.rounds.call_off(t, p.series_id, resign=user_id)
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
            raise Refusal(_("those two players have not been paired"))
        seats = [pp.user_id for pp in pairing.players]
        if winner is None and t.format in ELIMINATION:
            raise Refusal(_("a bracket match needs a winner"))
        if winner is not None and winner not in seats:
            raise Refusal(_("the winner must be one of the two players"))
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
            await self.rounds.record(t, pairing.id, seats, points, forfeit=False)
        updates: list[Update] = []
        if pairing.series_id is not None:
            loser = None if winner is None else next(u for u in seats if u != winner)
            updates = await self.rounds.call_off(t, pairing.series_id, resign=loser)
        return pairing.round_no, updates

    async def _check_correction(self, tid: int, pairing: StoredPairing, winner: str) -> None:
        bracket = await self.rounds.bracket(tid)
        assert bracket is not None and pairing.result_json is not None
        try:
            bracket.report(json.loads(pairing.result_json)["match"], winner)
        except ValueError:
            # the winner is one of the pair (checked first), so the one refusal left is
            # a later match that already has a result
            raise Refusal(
                _("cannot correct that result: a match it leads to already has a result")
            ) from None

    async def repair(self, tid: int) -> Advance:
        """Pair the current round again from the standings and field as they are now
        (after a drop or a correction); only before any move of the round is made."""
        t = await self.repo.get(tid)
        current = await self.rounds.current_round(tid)
        if not current:
            raise Refusal(_("no round is in progress"))
        for p in current:
            if p.series_id is None:
                continue
            series = await self.series.repo.get(p.series_id)
            for g in series.games:
                if g.match_id is not None and (await self.games.get(g.match_id)).ply > 0:
                    raise Refusal(_("a game of this round has begun: set results instead"))
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
        return await self.rounds.advance(tid)

    async def end(self, tid: int) -> None:
        """End the event now: series in play are called off and the standings stand."""
        t = await self.repo.get(tid)
        if t.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
            raise AlreadyOver(_("{name} is already over", name=t.name))
        for p in await self.rounds.current_round(tid):
            if p.series_id is not None and not p.decided:
                await self.rounds.call_off(t, p.series_id, resign=None)
        # An event that never started is cancelled; one that ran is finished as it stands.
        ended = (
            TournamentStatus.CANCELLED
            if t.status is TournamentStatus.OPEN
            else TournamentStatus.FINISHED
        )
        await self.repo.set_status(tid, ended)
        await self.rounds.calendar.changed(tid, Change.ENDED)
