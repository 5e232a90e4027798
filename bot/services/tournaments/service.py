"""Running a tournament without Discord: registration, rounds, series, results.

The pure package :mod:`competition` decides pairings, brackets and
standings from a history of results; this service keeps that history in storage
(:class:`~storage.tournaments.TournamentRepo`) and turns it into games. Nothing lives
only in memory: every decision is recomputed from the stored entries and pairings, so
a restart between (or during) rounds carries on where it stopped.

:class:`TournamentService` is the one object the Discord layer talks to: the organiser's
controls live here, and it holds one collaborator per part of the work —
:class:`~bot.services.tournaments.rounds.TournamentRounds` (pairings, results, standings,
handing an arena to its :class:`~bot.services.tournaments.arena.ArenaRounds`),
:class:`~bot.services.tournaments.registration.Registration` (before round 1),
:class:`~bot.services.tournaments.teams.TeamDesk` (team invitations) and the
:class:`~bot.services.tournaments.times.RoundClock`. The flow, which the Discord cogs
drive and the tests follow:

1. :meth:`TournamentService.create` stores the event and its :class:`TournamentPlan`;
   players :meth:`join`, :meth:`leave` and :meth:`check_in`.
2. :meth:`start` closes check-in (no-shows are dropped), seeds the field by rating and
   opens round 1. :meth:`open_round` stores a round's pairings; byes, and pairings with
   a dropped player, are decided at once.
3. Each undecided pairing plays a series: :meth:`start_pairing` creates it through the
   :class:`~bot.services.series.SeriesService` (the cog gives it a thread).
4. When a match's series game is booked (``GameBooked``: :mod:`bot.services.end_books`),
   :meth:`series_booked` books the pairing's result once the series is over.
   :meth:`advance` then finishes the round and opens the next, or finishes the
   tournament, unless the organiser has paused it.

Formats (docs/tournaments.md): ``swiss`` (duels, or free-for-all tables of the mode's
size), ``round-robin`` (duels, divisions of at most ten), ``single`` and ``double``
elimination (duels).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace

from bot.services.live import AlreadyOver, LiveMatch, MatchError, Update
from bot.services.series import SeriesService
from bot.services.tournaments.plan import (
    ELIMINATION,
    Advance,
    Decided,
    Line,
    Tick,
    TournamentPlan,
)
from bot.services.tournaments.registration import Registration
from bot.services.tournaments.rounds import TournamentRounds
from bot.services.tournaments.teams import TeamDesk
from bot.services.tournaments.times import RoundClock
from competition.elimination import Bracket
from competition.teams import Team
from i18n import _
from storage.series import Series, SeriesStatus
from storage.tournaments import StoredPairing, Tournament, TournamentStatus


class TournamentService:
    """The whole tournament service: the organiser's controls, and its collaborators'
    verbs for the Discord layer (see the module docstring)."""

    def __init__(self, series: SeriesService) -> None:
        self.rounds = TournamentRounds(series)
        self.registration = Registration(self.rounds)
        self.team_desk = TeamDesk(self.rounds.repo, self.rounds.players)
        self.round_clock = RoundClock(self.rounds)
        self.series = series
        self.games = series.games
        self.repo = self.rounds.repo
        self.players = self.rounds.players

    # ------------------------------------------------------------ registration

    async def find(self, tid: int) -> Tournament | None:
        """The tournament of that number; None if there is none."""
        return await self.registration.find(tid)

    async def get(self, tid: int) -> Tournament:
        """The tournament of that number, which is known to exist."""
        return await self.repo.get(tid)

    async def in_guild(
        self, guild_id: int, statuses: Sequence[TournamentStatus]
    ) -> list[Tournament]:
        """The server's tournaments in any of ``statuses``."""
        return await self.repo.in_guild(guild_id, statuses)

    async def entrants(self, tid: int) -> list[int]:
        """Who is entered (and not dropped), in the order they joined."""
        return [e.user_id for e in await self.repo.entries(tid) if not e.dropped]

    async def create(
        self,
        plan: TournamentPlan,
        *,
        name: str,
        format: str,
        mode: str,
        games: int,
        guild_id: int,
        channel_id: int,
    ) -> Tournament:
        return await self.registration.create(
            plan,
            name=name,
            format=format,
            mode=mode,
            games=games,
            guild_id=guild_id,
            channel_id=channel_id,
        )

    async def join(self, tid: int, user_id: int, name: str) -> None:
        await self.registration.join(tid, user_id, name)

    async def leave(self, tid: int, user_id: int) -> None:
        await self.registration.leave(tid, user_id)

    async def check_in(self, tid: int, user_id: int) -> None:
        await self.registration.check_in(tid, user_id)

    async def close_check_in(self, tid: int) -> list[int]:
        return await self.registration.close_check_in(tid)

    async def start(self, tid: int) -> Advance:
        return await self.registration.start(tid)

    # ------------------------------------------------------------ teams

    async def form_team(
        self,
        tid: int,
        guild_id: int | None,
        captain: tuple[int, str],
        others: Sequence[tuple[int, str]],
    ) -> Tournament:
        return await self.team_desk.form_team(tid, guild_id, captain, others)

    async def accept_team(self, tid: int, guild_id: int | None, captain: int, user: int) -> bool:
        return await self.team_desk.accept_team(tid, guild_id, captain, user)

    async def decline_team(self, tid: int, guild_id: int | None, captain: int, user: int) -> None:
        await self.team_desk.decline_team(tid, guild_id, captain, user)

    async def teams(self, tid: int) -> dict[int, Team]:
        return await self.team_desk.teams(tid)

    async def entrant_names(self, tid: int, user_ids: list[int]) -> dict[int, str]:
        return await self.team_desk.entrant_names(tid, user_ids)

    # ------------------------------------------------------------ rounds

    async def plan(self, tid: int) -> TournamentPlan:
        return await self.rounds.plan(tid)

    async def advance(self, tid: int) -> Advance:
        return await self.rounds.advance(tid)

    async def tick(self, tid: int) -> Tick:
        return await self.round_clock.tick(tid)

    async def current_round(self, tid: int) -> list[StoredPairing]:
        return await self.rounds.current_round(tid)

    async def start_pairing(
        self, pid: int, tid: int, *, channel_id: int, thread_id: int | None
    ) -> Series:
        return await self.rounds.start_pairing(pid, tid, channel_id=channel_id, thread_id=thread_id)

    async def series_booked(self, live: LiveMatch, series: Series) -> Decided | None:
        return await self.rounds.series_booked(live, series)

    async def resume(self, guild_ids: Sequence[int]) -> list[int]:
        return await self.rounds.resume(guild_ids)

    async def announce_end(self, tid: int, show: Callable[[], Awaitable[None]]) -> None:
        await self.rounds.announce_end(tid, show)

    async def unannounced(self, guild_ids: Sequence[int]) -> list[int]:
        return await self.rounds.unannounced(guild_ids)

    async def standings(self, tid: int) -> list[Line]:
        return await self.rounds.standings(tid)

    async def bracket(self, tid: int) -> Bracket | None:
        return await self.rounds.bracket(tid)

    async def on_fire(self, tid: int) -> set[int]:
        return await self.rounds.arena.on_fire(tid)

    async def set_board(self, tid: int, message_id: int) -> None:
        await self.rounds.set_board(tid, message_id)

    # ------------------------------------------------------------ organiser's controls

    async def set_paused(self, tid: int, paused: bool) -> Advance:
        """Pause: no new round opens (games in play go on). Resume: open what is due."""
        t = await self.repo.get(tid)
        if t.status is not TournamentStatus.RUNNING:
            raise MatchError(_("{name} is not running", name=t.name))
        await self.rounds._save_plan(
            tid, replace(TournamentPlan.from_json(t.settings_json), paused=paused)
        )
        return Advance([], False) if paused else await self.advance(tid)

    async def drop(self, tid: int, user_id: int) -> list[Update]:
        """Take a player out: their undecided pairing is forfeited to the others, their
        series is called off and their game resigned. Returns the games' updates."""
        t = await self.repo.get(tid)
        entry = await self.registration._entry(tid, user_id)
        if entry.dropped:
            raise MatchError(_("that player has already been dropped"))
        await self.repo.drop(tid, user_id)
        if t.status is not TournamentStatus.RUNNING:
            return []
        updates: list[Update] = []
        for p in await self.current_round(tid):
            seats = [pp.user_id for pp in p.players]
            if p.decided or user_id not in seats:
                continue
            await self.rounds._forfeit(t, p.id, seats, [user_id])
            if p.series_id is not None:
                updates += await self.rounds._call_off(t, p.series_id, resign=user_id)
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
            raise MatchError(_("those two players have not been paired"))
        seats = [pp.user_id for pp in pairing.players]
        if winner is None and t.format in ELIMINATION:
            raise MatchError(_("a bracket match needs a winner"))
        if winner is not None and winner not in seats:
            raise MatchError(_("the winner must be one of the two players"))
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
            await self.rounds._record(t, pairing.id, seats, points, forfeit=False)
        updates: list[Update] = []
        if pairing.series_id is not None:
            loser = None if winner is None else next(u for u in seats if u != winner)
            updates = await self.rounds._call_off(t, pairing.series_id, resign=loser)
        return pairing.round_no, updates

    async def _check_correction(self, tid: int, pairing: StoredPairing, winner: str) -> None:
        bracket = await self.bracket(tid)
        assert bracket is not None and pairing.result_json is not None
        try:
            bracket.report(json.loads(pairing.result_json)["match"], winner)
        except ValueError:
            # the winner is one of the pair (checked first), so the one refusal left is
            # a later match that already has a result
            raise MatchError(
                _("cannot correct that result: a match it leads to already has a result")
            ) from None

    async def repair(self, tid: int) -> Advance:
        """Pair the current round again from the standings and field as they are now
        (after a drop or a correction); only before any move of the round is made."""
        t = await self.repo.get(tid)
        current = await self.current_round(tid)
        if not current:
            raise MatchError(_("no round is in progress"))
        for p in current:
            if p.series_id is None:
                continue
            series = await self.series.repo.get(p.series_id)
            for g in series.games:
                if g.match_id is not None and (await self.games.get(g.match_id)).ply > 0:
                    raise MatchError(_("a game of this round has begun: set results instead"))
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
            raise AlreadyOver(_("{name} is already over", name=t.name))
        for p in await self.current_round(tid):
            if p.series_id is not None and not p.decided:
                await self.rounds._call_off(t, p.series_id, resign=None)
        # An event that never started is cancelled; one that ran is finished as it stands.
        ended = (
            TournamentStatus.CANCELLED
            if t.status is TournamentStatus.OPEN
            else TournamentStatus.FINISHED
        )
        await self.repo.set_status(tid, ended)
