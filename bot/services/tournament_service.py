"""Running a tournament without Discord: registration, rounds, series, results.

The pure package :mod:`bot.services.tournaments` decides pairings, brackets and
standings from a history of results; this service keeps that history in storage
(:class:`~storage.tournaments.TournamentRepo`) and turns it into games. Nothing lives
only in memory: every decision is recomputed from the stored entries and pairings, so
a restart between (or during) rounds carries on where it stopped.

The flow, which the Discord cog drives and the tests follow:

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

import asyncio
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from bot.services.manager import Entrant as Seat
from bot.services.manager import LiveMatch, MatchError, Update
from bot.services.series import SeriesPlan, SeriesService
from competition.elimination import Bracket
from competition.model import Entrant, Pairing, Result, placement_points
from competition.ratings import family_of, new_rating
from competition.roundrobin import divisions, schedule
from competition.standings import DEFAULT_ORDER, Standing, TieBreak, standings
from competition.swiss import pair_duels
from competition.tables import pair_tables
from rules.modes import MODES
from storage.errors import StorageError
from storage.players import PlayerRepo
from storage.ratings import RatingRepo
from storage.series import Series, SeriesStatus
from storage.tournaments import Entry, NewTournament, Tournament, TournamentRepo, TournamentStatus
from storage.tournaments import Pairing as StoredPairing

FORMATS = ("swiss", "round-robin", "single", "double")
ELIMINATION = ("single", "double")


@dataclass(frozen=True)
class TournamentPlan:
    """What the organiser chose, plus the one piece of state that is not a result:
    whether the event is paused. Stored as the tournament's ``settings_json``."""

    organiser: int
    rounds: int | None = None  # Swiss only
    third_place: bool = False  # single elimination
    reset: bool = True  # double elimination: a grand-final reset
    tiebreaks: tuple[str, ...] = tuple(DEFAULT_ORDER)
    clock_per_turn: float | None = None
    handicaps: str = "none"  # or "rating": tokens suggested from the players' ratings
    check_in: bool = False  # only checked-in players are paired when the event starts
    start_at: float | None = None  # when the cog starts the event by itself
    paused: bool = False

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> TournamentPlan:
        data: dict[str, Any] = json.loads(text)
        data["tiebreaks"] = tuple(data.get("tiebreaks", ()))
        return cls(**data)

    @property
    def order(self) -> tuple[TieBreak, ...]:
        return tuple(TieBreak(t) for t in self.tiebreaks)


@dataclass(frozen=True)
class RoundOpened:
    round_no: int
    to_play: list[StoredPairing]  # pairings that need a series
    decided: list[StoredPairing] = field(default_factory=list)  # byes and forfeits


@dataclass(frozen=True)
class Advance:
    """What :meth:`TournamentService.advance` did: opened rounds (several when a round
    is all byes and forfeits), and whether that finished the event."""

    opened: list[RoundOpened]
    finished: bool


@dataclass(frozen=True)
class Decided:
    tournament: Tournament
    pairing: StoredPairing
    round_complete: bool


@dataclass(frozen=True)
class Line:
    """One line of the standings as the organiser shows it."""

    place: int
    user_id: int
    score: float
    tiebreaks: dict[TieBreak, float]
    dropped: bool


class TournamentService:
    def __init__(self, series: SeriesService) -> None:
        self.series = series
        self.games = series.games
        self.repo = TournamentRepo(series.games.db)
        self.ratings = RatingRepo(series.games.db)
        self.players = PlayerRepo(series.games.db)
        # Only serialises concurrent advances in this process; the state is in storage.
        self._locks: dict[int, asyncio.Lock] = {}

    # -------------------------------------------------------- registration

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
        spec = MODES.get(mode)
        if format not in FORMATS:
            raise MatchError(f"unknown format {format!r}")
        if spec is None:
            raise MatchError(f"unknown mode {mode!r}")
        if format != "swiss" and mode != "duel":
            raise MatchError("round robin and elimination are for duels; Swiss can use tables")
        if format == "swiss" and spec.family not in ("duel", "ffa"):
            raise MatchError("Swiss plays duels or free-for-all tables")
        if format == "swiss" and not plan.rounds:
            raise MatchError("a Swiss event needs a number of rounds")
        if games % 2 == 0:
            raise MatchError("a pairing is a best of N series: N must be odd")
        for tb in plan.tiebreaks:
            if tb not in set(TieBreak):
                raise MatchError(f"unknown tie-break {tb!r}")
        tid = await self.repo.create(
            NewTournament(
                guild_id=guild_id,
                channel_id=channel_id,
                name=name,
                format=format,
                mode=mode,
                settings_json=plan.to_json(),
                games_per_pairing=games,
            )
        )
        return await self.repo.get(tid)

    async def join(self, tid: int, user_id: int, name: str) -> None:
        await self._open(tid)
        try:
            await self.repo.enter(tid, user_id, name)
        except StorageError:
            raise MatchError("you have already joined") from None

    async def leave(self, tid: int, user_id: int) -> None:
        await self._open(tid)
        entry = await self._entry(tid, user_id)
        if entry.dropped:
            raise MatchError("you have already left")
        await self.repo.drop(tid, user_id)

    async def check_in(self, tid: int, user_id: int) -> None:
        await self._open(tid)
        entry = await self._entry(tid, user_id)
        if entry.dropped:
            raise MatchError("you left this tournament; join again first")
        await self.repo.check_in(tid, user_id)

    async def _open(self, tid: int) -> Tournament:
        t = await self.repo.get(tid)
        if t.status is not TournamentStatus.OPEN:
            raise MatchError(f"{t.name} is no longer taking entries")
        return t

    async def _entry(self, tid: int, user_id: int) -> Entry:
        entry = next((e for e in await self.repo.entries(tid) if e.user_id == user_id), None)
        if entry is None:
            raise MatchError("that player has not entered this tournament")
        return entry

    async def close_check_in(self, tid: int) -> list[int]:
        """Drop everyone who has not checked in; returns who was dropped."""
        t = await self._open(tid)
        plan = TournamentPlan.from_json(t.settings_json)
        if not plan.check_in:
            raise MatchError(f"{t.name} has no check-in open")
        gone = [
            e.user_id for e in await self.repo.entries(tid) if not e.checked_in and not e.dropped
        ]
        for user_id in gone:
            await self.repo.drop(tid, user_id)
        await self._save_plan(tid, replace(plan, check_in=False))
        return gone

    async def start(self, tid: int) -> Advance:
        """Close registration, seed by rating and open the first round."""
        t = await self._open(tid)
        plan = TournamentPlan.from_json(t.settings_json)
        if plan.check_in:
            await self.close_check_in(tid)
        field_ = [e for e in await self.repo.entries(tid) if not e.dropped]
        needed = MODES[t.mode].seats
        if len(field_) < needed:
            raise MatchError(f"{t.name} needs at least {needed} players to start")
        family = family_of(t.mode)
        rated: list[tuple[float, float, int]] = []
        for e in field_:
            stored = await self.ratings.get(e.user_id, family)
            rated.append((stored.mu if stored else new_rating().mu, e.joined_at, e.user_id))
        # Strongest first; among equal ratings, whoever joined first.
        for seed, (_, _, user_id) in enumerate(sorted(rated, key=lambda r: (-r[0], r[1])), 1):
            await self.repo.set_seed(tid, user_id, seed)
        await self.repo.set_status(tid, TournamentStatus.RUNNING)
        return await self.advance(tid)

    # -------------------------------------------------------------- rounds

    async def plan(self, tid: int) -> TournamentPlan:
        return TournamentPlan.from_json((await self.repo.get(tid)).settings_json)

    async def _save_plan(self, tid: int, plan: TournamentPlan) -> None:
        await self.repo.set_settings(tid, plan.to_json())

    async def entrants(self, tid: int, *, active_only: bool) -> list[Entrant]:
        """The seeded field as the pure package wants it (ids are user ids as text)."""
        t = await self.repo.get(tid)
        family = family_of(t.mode)
        found: list[Entrant] = []
        for e in await self.repo.entries(tid):
            if e.seed is None or (active_only and e.dropped):
                continue
            stored = await self.ratings.get(e.user_id, family)
            found.append(Entrant(str(e.user_id), stored.mu if stored else new_rating().mu, e.seed))
        return found

    async def history(self, tid: int) -> list[Result]:
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
        async with self._locks.setdefault(tid, asyncio.Lock()):
            opened: list[RoundOpened] = []
            while True:
                t = await self.repo.get(tid)
                if t.status is not TournamentStatus.RUNNING:
                    return Advance(opened, t.status is TournamentStatus.FINISHED)
                rounds = await self.repo.rounds(tid)
                if rounds and not rounds[-1].finished:
                    current = await self.repo.pairings(tid, rounds[-1].round_no)
                    if not all(p.decided for p in current):
                        return Advance(opened, False)
                    await self.repo.finish_round(tid, rounds[-1].round_no)
                if TournamentPlan.from_json(t.settings_json).paused:
                    return Advance(opened, False)
                tables = await self._next_tables(t, len(rounds) + 1)
                if tables is None:
                    await self.repo.set_status(tid, TournamentStatus.FINISHED)
                    return Advance(opened, True)
                opened.append(await self._store_round(t, len(rounds) + 1, tables))
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
            size = MODES[t.mode].seats
            if size == 2:
                return [p.seats for p in pair_duels(active, history)]
            if len(active) < size:
                return None
            return [p.seats for p in pair_tables(active, history, size)]
        if t.format == "round-robin":
            seeded = await self.entrants(t.id, active_only=False)
            by_round: list[list[Pairing]] = []
            for division in divisions(seeded):
                for i, rnd in enumerate(schedule([e.id for e in division])):
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

    async def _store_round(
        self, t: Tournament, round_no: int, tables: list[tuple[str, ...]]
    ) -> RoundOpened:
        ids = await self.repo.start_round(t.id, round_no, [[int(s) for s in tb] for tb in tables])
        dropped = {e.user_id for e in await self.repo.entries(t.id) if e.dropped}
        done: set[int] = set()
        for pid, table in zip(ids, tables, strict=True):
            seats = [int(s) for s in table]
            if len(seats) == 1:
                await self.repo.record_result(pid, {seats[0]: 1.0}, json.dumps({"bye": True}))
            elif any(s in dropped for s in seats):
                await self._forfeit(t, pid, seats, [s for s in seats if s in dropped])
            else:
                continue
            done.add(pid)
        stored = await self.repo.pairings(t.id, round_no)
        return RoundOpened(
            round_no,
            [p for p in stored if p.id not in done],
            [p for p in stored if p.id in done],
        )

    async def _forfeit(self, t: Tournament, pid: int, seats: list[int], losers: list[int]) -> None:
        """Score a pairing without a game: the players present win, the others lose."""
        stayed = [s for s in seats if s not in losers]
        if not stayed:
            stayed = seats[:1]  # everyone gone: the first seat goes through, for brackets
        points = {s: (1.0 if s in stayed else 0.0) for s in seats}
        await self._record(t, pid, seats, points, forfeit=True)

    async def _record(
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

    # ------------------------------------------------------------ pairings

    async def start_pairing(
        self, pid: int, tid: int, *, channel_id: int, thread_id: int | None
    ) -> Series:
        """The series a pairing plays, created on first call (later calls return it)."""
        t = await self.repo.get(tid)
        pairing = next(p for p in await self.repo.pairings(tid) if p.id == pid)
        if pairing.series_id is not None:
            return await self.series.repo.get(pairing.series_id)
        plan = TournamentPlan.from_json(t.settings_json)
        users = [p.user_id for p in pairing.players]
        names = await self.players.names(users)
        seats = [Seat(u, names.get(u, f"player {u}")) for u in users]
        if plan.handicaps == "rating":
            tokens = await self.series.suggest_handicaps(t.mode, users)
        else:
            tokens = [0] * len(users)
        series_plan = SeriesPlan(
            organiser=plan.organiser,
            mode=t.mode,
            games=t.games_per_pairing,
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

    async def match_finished(self, live: LiveMatch) -> Decided | None:
        """Book a finished match's series game and, if that ended a tournament series,
        the pairing's result. None when nothing in a tournament was decided."""
        outcome = await self.series.record(live)
        if outcome is None or outcome.series.status is not SeriesStatus.FINISHED:
            return None
        found = await self.pairing_of_series(outcome.series)
        if found is None:
            return None
        t, pairing = found
        if not pairing.decided:
            # A duel lost on time ends "last standing"; the concession step says why.
            history = live.game.history
            forfeit = bool(history) and history[-1].token.startswith("timeout:")
            await self._record_series(t, pairing, outcome.series, forfeit=forfeit)
        stored = await self.repo.pairings(t.id, pairing.round_no)
        mine = next(p for p in stored if p.id == pairing.id)
        return Decided(t, mine, all(p.decided for p in stored))

    async def _record_series(
        self, t: Tournament, pairing: StoredPairing, series: Series, *, forfeit: bool
    ) -> None:
        standing = SeriesService.standings(series)
        user_of_side = {str(p.side): p.user_id for p in series.players}
        seats = [p.user_id for p in pairing.players]
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
        await self._record(t, pairing.id, seats, points, forfeit=forfeit)

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

    async def current_round(self, tid: int) -> list[StoredPairing]:
        rounds = await self.repo.rounds(tid)
        if not rounds or rounds[-1].finished:
            return []
        return await self.repo.pairings(tid, rounds[-1].round_no)

    # ---------------------------------------------------- organiser controls

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

    async def _call_off(self, t: Tournament, series_id: int, resign: int | None) -> list[Update]:
        series = await self.series.repo.get(series_id)
        if series.status is not SeriesStatus.ACTIVE:
            return []
        organiser = TournamentPlan.from_json(t.settings_json).organiser
        await self.series.abandon(series_id, organiser)
        running = next((g for g in series.games if g.winners is None), None)
        if running is None or running.match_id is None or resign is None:
            return []
        try:
            return [await self.games.resign(running.match_id, resign)]
        except MatchError:
            return []  # the game had just ended

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
            data = {**old, "forfeit": False, "set_by_organiser": True}
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

    # ------------------------------------------------------------ standings

    async def standings(self, tid: int) -> list[Line]:
        """Swiss and round robin: score and tie-breaks in the organiser's order.
        Elimination: the bracket's places once it is finished, else wins so far."""
        t = await self.repo.get(tid)
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


def _result(p: StoredPairing) -> Result:
    data = json.loads(p.result_json or "{}")
    seats = tuple(str(pp.user_id) for pp in p.players)
    return Result(
        seats, tuple(float(pp.points or 0.0) for pp in p.players), bool(data.get("forfeit"))
    )


def _seed(e: Entrant) -> int:
    return e.seed


def _seed_of(field_: Sequence[Entrant], player: str) -> int:
    return next(e.seed for e in field_ if e.id == player)
