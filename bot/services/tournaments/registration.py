"""Before a tournament's first round: creating it, joining, leaving, checking in, and
starting it (no-shows dropped, the field seeded)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bot.services.refusal import Refusal
from bot.services.tournaments.calendar import Change
from bot.services.tournaments.plan import FORMATS, Advance, TournamentPlan, team_size
from bot.services.tournaments.rounds import TournamentRounds
from competition.standings import TieBreak
from i18n import _, n_
from rules.modes import MODES
from storage.errors import StorageError, unless_missing
from storage.tournaments import Entry, NewTournament, Tournament, TournamentStatus


class Registration:
    """The events and who is in them: creating an event, finding it, entering it,
    checking in and starting it."""

    def __init__(self, rounds: TournamentRounds) -> None:
        self.rounds = rounds
        self.repo = rounds.repo
        self.plans = rounds.plans

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
        spec = MODES.get(mode)
        if format not in FORMATS:
            raise Refusal(_("unknown format {format}", format=repr(format)))
        if spec is None:
            raise Refusal(_("unknown mode {mode}", mode=repr(mode)))
        teams = team_size(mode) is not None
        if format == "arena" and mode != "duel":
            raise Refusal(_("an arena is for duels"))
        if format not in ("swiss", "arena") and mode != "duel" and not teams:
            raise Refusal(_("round robin and elimination are for duels or teams (2v2, 3v3)"))
        if format == "swiss" and spec.family.key not in ("duel", "ffa") and not teams:
            raise Refusal(_("Swiss plays duels, free-for-all tables or teams (2v2, 3v3)"))
        if (format == "arena") != (plan.arena_minutes is not None):
            raise Refusal(_("an arena, and only an arena, needs a duration in minutes"))
        if format == "arena" and plan.round_minutes is not None:
            raise Refusal(_("an arena has no rounds to time: it pairs players as they finish"))
        if format == "swiss" and not plan.rounds:
            raise Refusal(_("a Swiss event needs a number of rounds"))
        if plan.round_minutes is not None and plan.round_minutes < 1:
            raise Refusal(_("a round needs a length of at least a minute"))
        if games % 2 == 0:
            raise Refusal(_("a pairing is a best of N series: N must be odd"))
        for tb in plan.tiebreaks:
            if tb not in set(TieBreak):
                raise Refusal(_("unknown tie-break {tiebreak}", tiebreak=repr(tb)))
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
        await self.rounds.calendar.changed(tid, Change.CREATED)
        return await self.repo.get(tid)

    async def join(self, tid: int, user_id: int, name: str) -> None:
        t = await self._open(tid)
        if team_size(t.mode) is not None:
            raise Refusal(
                _("in a team event a captain enters a team: `/crosshairs-tournament team`")
            )
        try:
            await self.repo.enter(tid, user_id, name)
        except StorageError:
            raise Refusal(_("you have already joined")) from None

    async def leave(self, tid: int, user_id: int) -> None:
        await self._open(tid)
        entry = await self.entry(tid, user_id)
        if entry.dropped:
            raise Refusal(_("you have already left"))
        await self.repo.drop(tid, user_id)

    async def check_in(self, tid: int, user_id: int) -> None:
        t = await self._open(tid)
        if not TournamentPlan.from_json(t.settings_json).check_in:
            raise Refusal(_("{name} has no check-in: joining is all it takes", name=t.name))
        entry = await self.entry(tid, user_id)
        if entry.dropped:
            raise Refusal(_("you left this tournament; join again first"))
        await self.repo.check_in(tid, user_id)

    async def find(self, tid: int) -> Tournament | None:
        """The tournament of that number; None if there is none."""
        return await unless_missing(self.repo.get(tid))

    async def _open(self, tid: int) -> Tournament:
        t = await self.repo.get(tid)
        if t.status is not TournamentStatus.OPEN:
            raise Refusal(_("{name} is no longer taking entries", name=t.name))
        return t

    async def entry(self, tid: int, user_id: int) -> Entry:
        entry = next((e for e in await self.repo.entries(tid) if e.user_id == user_id), None)
        if entry is None:
            raise Refusal(_("that player has not entered this tournament"))
        return entry

    async def close_check_in(self, tid: int) -> list[int]:
        """Drop everyone who has not checked in; returns who was dropped."""
        t = await self._open(tid)
        plan = TournamentPlan.from_json(t.settings_json)
        if not plan.check_in:
            raise Refusal(_("{name} has no check-in open", name=t.name))
        gone = [
            e.user_id for e in await self.repo.entries(tid) if not e.checked_in and not e.dropped
        ]
        for user_id in gone:
            await self.repo.drop(tid, user_id)
        await self.plans.save(tid, replace(plan, check_in=False))
        return gone

    async def start(self, tid: int) -> Advance:
        """Close registration, seed by rating and open the first round."""
        t = await self._open(tid)
        plan = TournamentPlan.from_json(t.settings_json)
        if plan.check_in:
            await self.close_check_in(tid)
        field_ = [e for e in await self.repo.entries(tid) if not e.dropped]
        if team_size(t.mode) is not None:
            if len(field_) < 2:
                raise Refusal(_("{name} needs at least 2 teams to start", name=t.name))
        elif len(field_) < MODES[t.mode].seats:
            raise Refusal(
                n_(
                    "{name} needs at least {n} player to start",
                    "{name} needs at least {n} players to start",
                    MODES[t.mode].seats,
                    name=t.name,
                )
            )
        rated: list[tuple[float, float, int]] = []
        for e in field_:
            rated.append((await self.rounds.entry_rating(t, e.user_id), e.joined_at, e.user_id))
        # Claimed in storage before anything else is written: of two starts (two
        # presses, two processes), one goes on and the other is told.
        if not await self.repo.move_status(tid, TournamentStatus.OPEN, TournamentStatus.RUNNING):
            raise Refusal(_("{name} has already started", name=t.name))
        # Strongest first; among equal ratings, whoever joined first.
        for seed, (_rating, _joined, user_id) in enumerate(
            sorted(rated, key=lambda r: (-r[0], r[1])), 1
        ):
            await self.repo.set_seed(tid, user_id, seed)
        if plan.round_minutes is not None or plan.arena_minutes is not None:
            # Round times and the arena's window count from now.
            started = replace(plan, check_in=False, clock_started=self.rounds.clock.now())
            await self.plans.save(tid, started)
        await self.rounds.calendar.changed(tid, Change.STARTED)
        return await self.rounds.advance(tid)
