"""A tournament's rounds: pairings stored round by round, each played as a series, results
booked as the series end, and the standings. The rules of pairing, brackets and standings
are :mod:`competition`; this keeps their history in storage and turns it into games."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from typing import Any

from bot.services.clock import Clock
from bot.services.live import AlreadyOver, LiveMatch, Occupant, Update
from bot.services.series import AchievementSeries, SeriesPlan
from bot.services.stores import Stores
from bot.services.tournaments.arena import ArenaRounds
from bot.services.tournaments.calendar import Calendar, Change
from bot.services.tournaments.plan import (
    ELIMINATION,
    ROUND_ROBIN,
    Advance,
    Decided,
    Line,
    Plans,
    RoundOpened,
    TournamentPlan,
    moment,
    team_size,
)
from competition.elimination import Bracket
from competition.model import Entrant, Pairing, PairingResult, placement_points
from competition.ratings import family_of, new_rating
from competition.roundrobin import divisions, double_schedule, schedule
from competition.standings import Standing, standings
from competition.swiss import pair_duels
from competition.tables import pair_tables
from i18n import _
from rules.modes import MODES
from storage.series import Series, SeriesStatus
from storage.tournament_events import FINISHED
from storage.tournaments import StoredPairing, Tournament, TournamentStatus


class TournamentRounds:
    """The stored rounds of every format; an arena's own way of advancing, showing its
    games and ranking is its :class:`~bot.services.tournaments.arena.ArenaRounds`."""

    def __init__(
        self,
        series: AchievementSeries,
        clock: Clock,
        plans: Plans,
        stores: Stores,
    ) -> None:
        self.series = series
        self.games = series.games
        self.clock = clock
        self.plans = plans
        self.repo = stores.tournaments
        self.ratings = stores.ratings
        self.players = stores.players
        self.events = stores.tournament_events
        self.calendar = Calendar(stores.tournament_calendar)
        # Only serialise concurrent advances (and announcements) in this process; the
        # state is in storage.
        self._locks: dict[int, asyncio.Lock] = {}
        self._announcing: dict[int, asyncio.Lock] = {}
        self.arena = ArenaRounds(self)

    # -------------------------------------------------------------- rounds

    def lock(self, tid: int) -> asyncio.Lock:
        """The lock an event's advances (and the round clock's forfeits) are taken under."""
        return self._locks.setdefault(tid, asyncio.Lock())

    async def names(self, user_ids: Sequence[int]) -> dict[int, str]:
        """The players' names as they last gave them."""
        return await self.players.names(list(user_ids))

    async def entrants(self, tid: int, *, active_only: bool) -> list[Entrant]:
        """The seeded field as the pure package wants it (ids are user ids as text)."""
        t = await self.repo.get(tid)
        found: list[Entrant] = []
        for e in await self.repo.entries(tid):
            if e.seed is None or (active_only and e.dropped):
                continue
            found.append(Entrant(str(e.user_id), await self.entry_rating(t, e.user_id), e.seed))
        return found

    async def entry_rating(self, t: Tournament, user_id: int) -> float:
        """An entrant's rating: the player's, or for a team (entered under its captain's
        id) its members' mean."""
        family = family_of(t.mode)
        team = [m.user_id for m in await self.repo.team_members(t.id) if m.captain_id == user_id]
        total = 0.0
        for member in team or [user_id]:
            stored = await self.ratings.get(member, family)
            total += stored.mu if stored else new_rating().mu
        return total / len(team or [user_id])

    async def seated_users(self, t: Tournament, pairing: StoredPairing) -> list[int]:
        """Who sits where at a pairing's table. In a team event each team's members take
        the mode's seats of their side in turn (the first team paired is side 0)."""
        entrants = [pp.user_id for pp in pairing.players]
        if team_size(t.mode) is None:
            return entrants
        members: dict[int, list[int]] = {}
        for m in await self.repo.team_members(t.id):
            members.setdefault(m.captain_id, []).append(m.user_id)
        queues = [list(members[c]) for c in entrants]
        return [queues[side].pop(0) for side in MODES[t.mode].teams]

    async def history(self, tid: int) -> list[PairingResult]:
        return [_result(p) for p in await self.repo.pairings(tid) if p.decided]

    async def bracket(self, tid: int) -> Bracket | None:
        """The elimination bracket as the decided pairings left it; None for other formats."""
        t = await self.repo.get(tid)
        if t.format not in ELIMINATION:
            return None
        plan = TournamentPlan.from_json(t.settings_json)
        seeded = [e.id for e in sorted(await self.entrants(tid, active_only=False), key=_seed)]
        bracket = (
            Bracket.single(seeded, plan.third_place)
            if t.format == "single"
            else Bracket.double(seeded, plan.reset)
        )
        for p in await self.repo.pairings(tid):
            if p.decided and p.result_json:
                data = json.loads(p.result_json)
                bracket.report(data["match"], str(data["winner"]))
        return bracket

    async def advance(self, tid: int) -> Advance:
        """Finish the current round if all its results are in and open the next (and the
        next, while rounds decide themselves), or finish the tournament. Safe to call at
        any time and more than once: it does only what the stored state calls for."""
        if (await self.repo.get(tid)).format == "arena":
            return await self.arena.advance(tid)
        async with self.lock(tid):
            opened: list[RoundOpened] = []
            while True:
                t = await self.repo.get(tid)
                if t.status is not TournamentStatus.RUNNING:
                    return Advance(opened, t.status is TournamentStatus.FINISHED)
                rounds = await self.repo.rounds(tid)
                now = self.clock.now()
                if rounds and not rounds[-1].finished:
                    current = await self.repo.pairings(tid, rounds[-1].round_no)
                    if not all(p.decided for p in current):
                        return Advance(opened, False)
                    await self.repo.finish_round(tid, rounds[-1].round_no, now)
                plan = TournamentPlan.from_json(t.settings_json)
                if plan.paused:
                    return Advance(opened, False)
                tables = await self._next_tables(t, len(rounds) + 1)
                if tables is None:
                    await self.repo.set_status(tid, TournamentStatus.FINISHED)
                    await self.calendar.changed(tid, Change.ENDED)
                    return Advance(opened, True)
                times = plan.times
                if times is not None and moment(now) < times.set_time(len(rounds) + 1):
                    return Advance(opened, False)  # the clock's tick opens it at its time
                opened.append(await self.store_round(t, len(rounds) + 1, tables))
                if opened[-1].to_play:
                    return Advance(opened, False)

    async def _next_tables(self, t: Tournament, round_no: int) -> list[tuple[str, ...]] | None:
        """The next round's tables in playing order, or None when the event is over."""
        plan = TournamentPlan.from_json(t.settings_json)
        active = await self.entrants(t.id, active_only=True)
        history = await self.history(t.id)
        if t.format == "swiss":
            if round_no > (plan.rounds or 0) or len(active) < 2:
                return None
            size = 2 if team_size(t.mode) is not None else MODES[t.mode].seats
            if size == 2:
                return [p.seats for p in pair_duels(active, history)]
            if len(active) < size:
                return None
            return [p.seats for p in pair_tables(active, history, size)]
        if t.format in ROUND_ROBIN:
            # Seeds (fixed at the start) place the players, not ratings, which the games
            # of the event move: the schedule must not change under it.
            seeded = [replace(e, rating=0.0) for e in await self.entrants(t.id, active_only=False)]
            cycle = schedule if t.format == "round-robin" else double_schedule
            by_round: list[list[Pairing]] = []
            for division in divisions(seeded):
                for i, rnd in enumerate(cycle([e.id for e in division])):
                    if i == len(by_round):
                        by_round.append([])
                    by_round[i].extend(rnd)
            if round_no > len(by_round):
                return None
            return [p.seats for p in by_round[round_no - 1]]
        bracket = await self.bracket(t.id)
        assert bracket is not None
        if bracket.finished:
            return None
        return [(m.first, m.second) for m in bracket.ready() if m.first and m.second]

    async def store_round(
        self, t: Tournament, round_no: int, tables: list[tuple[str, ...]]
    ) -> RoundOpened:
        ids = await self.repo.start_round(
            t.id, round_no, [[int(s) for s in tb] for tb in tables], self.clock.now()
        )
        dropped = {e.user_id for e in await self.repo.entries(t.id) if e.dropped}
        done: set[int] = set()
        for pid, table in zip(ids, tables, strict=True):
            seats = [int(s) for s in table]
            if len(seats) == 1:
                await self.repo.record_result(pid, {seats[0]: 1.0}, json.dumps({"bye": True}))
            elif any(s in dropped for s in seats):
                await self.forfeit(t, pid, seats, [s for s in seats if s in dropped])
            else:
                continue
            done.add(pid)
        stored = await self.repo.pairings(t.id, round_no)
        return RoundOpened(
            round_no,
            [p for p in stored if p.id not in done],
            [p for p in stored if p.id in done],
        )

    async def forfeit(self, t: Tournament, pid: int, seats: list[int], losers: list[int]) -> None:
        """Score a pairing without a game: the players present win, the others lose."""
        stayed = [s for s in seats if s not in losers]
        if not stayed:
            stayed = seats[:1]  # everyone gone: the first seat goes through, for brackets
        points = {s: (1.0 if s in stayed else 0.0) for s in seats}
        await self.record(t, pid, seats, points, forfeit=True)

    async def record(
        self,
        t: Tournament,
        pid: int,
        seats: list[int],
        points: dict[int, float],
        *,
        forfeit: bool,
    ) -> None:
        data: dict[str, Any] = {"forfeit": forfeit}
        if t.format in ELIMINATION:
            bracket = await self.bracket(t.id)
            assert bracket is not None
            winner = max(seats, key=lambda s: points[s])
            # A player is in at most one ready match, so the players name the match.
            match = next(m for m in bracket.ready() if {m.first, m.second} == set(map(str, seats)))
            data.update(match=match.id, winner=winner)
        await self.repo.record_result(pid, points, json.dumps(data))

    async def call_off(self, t: Tournament, series_id: int, resign: int | None) -> list[Update]:
        series = await self.series.repo.get(series_id)
        if series.status is not SeriesStatus.ACTIVE:
            return []
        organiser = TournamentPlan.from_json(t.settings_json).organiser
        await self.series.abandon(series_id, organiser)
        running = next((g for g in series.games if g.winners is None), None)
        if running is None or running.match_id is None or resign is None:
            return []
        try:
            return [await self.games.resign(running.match_id, resign, forced=True)]
        except AlreadyOver:
            return []  # the game had just ended, or the player was already out

    # ------------------------------------------------------------ pairings

    async def start_pairing(
        self, pid: int, tid: int, *, channel_id: int, thread_id: int | None
    ) -> Series:
        """The series a pairing plays, created on first call (later calls return it)."""
        t = await self.repo.get(tid)
        pairing = await self.repo.pairing(tid, pid)
        if pairing.series_id is not None:
            return await self.series.repo.get(pairing.series_id)
        plan = TournamentPlan.from_json(t.settings_json)
        users = await self.seated_users(t, pairing)
        names = await self.players.names(users)
        seats = [Occupant(u, names.get(u) or _("player {id}", id=u)) for u in users]
        if plan.handicaps == "rating":
            tokens = await self.series.suggest_handicaps(t.mode, users)
        else:
            tokens = [0] * len(users)
        series_plan = SeriesPlan(
            organiser=plan.organiser,
            mode=t.mode,
            games=t.games_per_pairing,
            ruleset=plan.ruleset,
            planes=plan.planes,
            clouds=plan.clouds,
            fire=plan.fire,
            clock_per_turn=plan.clock_per_turn,
            clock_on_expiry="lose",
        )
        created = await self.series.create(
            series_plan,
            seats,
            tokens,
            channel_id=channel_id,
            guild_id=t.guild_id,
            thread_id=thread_id,
        )
        await self.repo.link_pairing(pid, series_id=created.id)
        return created

    async def pairing_of_series(self, series: Series) -> tuple[Tournament, StoredPairing] | None:
        if series.guild_id is None:
            return None
        for t in await self.repo.in_guild(series.guild_id, [TournamentStatus.RUNNING]):
            for p in await self.repo.pairings(t.id):
                if p.series_id == series.id:
                    return t, p
        return None

    async def series_booked(self, live: LiveMatch, series: Series) -> Decided | None:
        """After the finished match ``live`` was booked in ``series`` (as stored after
        it): if that ended a tournament series, book the pairing's result. None when
        nothing in a tournament was decided. Safe to call twice."""
        if series.status is not SeriesStatus.FINISHED:
            return None
        found = await self.pairing_of_series(series)
        if found is None:
            return None
        t, pairing = found
        if not pairing.decided:
            # A duel lost on time ends "last standing"; the concession step says why.
            history = live.game.history
            forfeit = bool(history) and history[-1].token.startswith("timeout:")
            await self._record_series(t, pairing, series, forfeit=forfeit)
        stored = await self.repo.pairings(t.id, pairing.round_no)
        mine = next(p for p in stored if p.id == pairing.id)
        return Decided(t, mine, all(p.decided for p in stored))

    async def _record_series(
        self, t: Tournament, pairing: StoredPairing, series: Series, *, forfeit: bool
    ) -> None:
        standing = AchievementSeries.standings(series)
        seats = [p.user_id for p in pairing.players]
        user_of_side = {str(p.side): p.user_id for p in series.players}
        if team_size(t.mode) is not None:  # a side is a team: its entrant is the captain
            user_of_side = {str(side): captain for side, captain in enumerate(seats)}
        order = standing.order
        key = {side: (standing.points[side], standing.wins[side]) for side in order}
        if len(seats) == 2:
            leaders = [user_of_side[s] for s in standing.leaders]
            if len(leaders) == 1:
                points = {u: (1.0 if u == leaders[0] else 0.0) for u in seats}
            elif t.format in ELIMINATION:
                # A shared series in a bracket goes to the better seed (the first slot).
                points = {u: (1.0 if u == seats[0] else 0.0) for u in seats}
            else:
                points = dict.fromkeys(seats, 0.5)
        else:
            places = {side: 1 + sum(key[o] > key[side] for o in order) for side in order}
            users = [user_of_side[s] for s in order]
            scored = placement_points([places[s] for s in order])
            points = {u: float(v) for u, v in zip(users, scored, strict=True) if u is not None}
        await self.record(t, pairing.id, seats, points, forfeit=forfeit)

    async def resume(self, guild_ids: Sequence[int]) -> list[int]:
        """After a restart: book series that finished while the bot was down and return
        the running tournaments whose rounds may need advancing or series starting."""
        running: list[int] = []
        for guild_id in guild_ids:
            for t in await self.repo.in_guild(guild_id, [TournamentStatus.RUNNING]):
                running.append(t.id)
                for p in await self.repo.pairings(t.id):
                    if p.decided or p.series_id is None:
                        continue
                    series = await self.series.repo.get(p.series_id)
                    if series.status is SeriesStatus.FINISHED:
                        await self._record_series(t, p, series, forfeit=False)
        return running

    async def announce_end(self, tid: int, show: Callable[[], Awaitable[None]]) -> None:
        """Announce a finished event's end (``show`` posts the final standings and the
        winner) once: not again when another advance, a second press or a restart finds
        the event finished. It is marked announced only after ``show`` ran through, so a
        process that died first announces it at its next start (:meth:`unannounced`)."""
        async with self._announcing.setdefault(tid, asyncio.Lock()):
            if await self.events.is_done(tid, FINISHED):
                return
            await show()
            await self.events.done(tid, FINISHED)

    async def unannounced(self, guild_ids: Sequence[int]) -> list[int]:
        """The events of these guilds that finished without their end announced."""
        return [tid for g in guild_ids for tid in await self.events.pending(g)]

    async def current_round(self, tid: int) -> list[StoredPairing]:
        if (await self.repo.get(tid)).format == "arena":
            return await self.arena.current_round(tid)
        rounds = await self.repo.rounds(tid)
        if not rounds or rounds[-1].finished:
            return []
        return await self.repo.pairings(tid, rounds[-1].round_no)

    # ------------------------------------------------------------ standings

    async def standings(self, tid: int) -> list[Line]:
        """Swiss and round robin: score and tie-breaks in the organiser's order.
        Elimination: the bracket's places once it is finished, else wins so far. An
        arena: its leaderboard."""
        t = await self.repo.get(tid)
        if t.format == "arena":
            return await self.arena.standings(tid)
        plan = TournamentPlan.from_json(t.settings_json)
        field_ = await self.entrants(tid, active_only=False)
        dropped = {e.user_id for e in await self.repo.entries(tid) if e.dropped}
        history = await self.history(tid)
        table: list[Standing] = standings(field_, history, plan.order)
        bracket = await self.bracket(tid)
        if bracket is not None and bracket.finished:
            place = {p: n for n, p in bracket.ranking()}
            by_id = {s.player: s for s in table}
            return [
                Line(place[p], int(p), by_id[p].score, {}, int(p) in dropped)
                for p in sorted(place, key=lambda p: (place[p], _seed_of(field_, p)))
            ]
        return [
            Line(s.place, int(s.player), s.score, s.tiebreaks, int(s.player) in dropped)
            for s in table
        ]


def _result(p: StoredPairing) -> PairingResult:
    data = json.loads(p.result_json or "{}")
    seats = tuple(str(pp.user_id) for pp in p.players)
    return PairingResult(
        seats, tuple(float(pp.points or 0.0) for pp in p.players), bool(data.get("forfeit"))
    )


def _seed(e: Entrant) -> int:
    return e.seed


def _seed_of(field_: Sequence[Entrant], player: str) -> int:
    return next(e.seed for e in field_ if e.id == player)
