"""The game manager: every match the bot runs, without Discord.

The cogs, the tests and the CLI all play through this class. It keeps the games it has
loaded in memory, serialises each match's actions behind a lock (two presses racing
each other apply one after the other, and the second sees the game as the first left
it), checks who may act, applies steps through the rules engine, stores every step
with the game's snapshot in one transaction, and explains what happened in words.

A step is stored before it is acknowledged; if storage refuses it (a conflict with a
write from elsewhere), the in-memory game is dropped and reloaded from storage, so
memory never runs ahead of what was committed.

The path of a press, in order: :meth:`Games.play` takes the match's lock and checks
the turn; :meth:`~Games.commit` applies each step through the rules engine
(``Game.play``) and :meth:`~Games._store` commits it with the snapshot; then
:meth:`~Games.explain` explains it in words, and the match's life publishes what
it did (:meth:`bot.services.life.MatchLife.after`), for its surface to show. The
computer's turns (``computer``, :mod:`bot.services.computer`) and the turn clocks
(``clocks``, :mod:`bot.services.turn_clocks`) are objects this manager owns, with reasons of their
own to change, that act through it; the match in memory is :mod:`bot.services.live`.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence

from bot.services.clock import Clock, SystemClock
from bot.services.computer import ComputerTurns
from bot.services.describe import describe
from bot.services.endings import Endings
from bot.services.events import EventBus, MatchStarted
from bot.services.live import (
    COMPUTER_STRENGTHS,
    AlreadyOver,
    ClockSettings,
    LiveMatch,
    MatchUnavailable,
    NotYours,
    Occupant,
    Update,
    clock_due,
    remind_seconds,
    turn_of,
)
from bot.services.live_set import DEFAULT_SIZE, LiveSet
from bot.services.metrics import STORAGE_SECONDS
from bot.services.refusal import Refusal
from bot.services.shards import Shards
from bot.services.stores import Stores
from bot.services.suggestions import LegalCache
from bot.services.turn_clocks import TurnClocks
from bot.services.workers import Workers
from i18n import _
from rules import clouds, notation, serialize
from rules.errors import RulesError
from rules.events import Event
from rules.game import Game
from rules.modes import Settings
from rules.steps import Step
from storage.errors import StorageError
from storage.matches import MatchStatus, NewMatch, SeatSpec, Version, offers_mask

log = logging.getLogger(__name__)


class Games:
    def __init__(
        self,
        stores: Stores,
        clock: Clock | None = None,
        *,
        workers: Workers | None = None,
        shards: Shards | None = None,
        keep: int = DEFAULT_SIZE,
    ) -> None:
        self.db = stores.db
        self.repo = stores.matches
        self.boards = stores.boards
        self.clock: Clock = clock or SystemClock()
        self.workers = workers or Workers(0)  # threads, when no pool is handed over
        # the guilds whose matches this process runs (all, unless sharded)
        self.shards = shards or Shards()
        self.suggestions = LegalCache(self.workers)
        # the matches in memory: those touched lately, at most ``keep`` of them
        self.live = LiveSet(self.repo, stores.live_index, keep)
        self.index = stores.live_index
        # What follows an end (ratings, series, tournaments) and a turn passed (a DM),
        # once (:mod:`bot.services.events`).
        self.events = EventBus(stores.match_events, stores.turn_events)
        # the parts with reasons of their own to change; this manager is their MatchHost
        self.computer = ComputerTurns(self)
        self.clocks = TurnClocks(self)
        self.endings = Endings(self)
        # the endings' verbs, under the manager's names every caller knows them by
        self.resign, self.offer_draw, self.decline_draw = (
            self.endings.resign,
            self.endings.offer_draw,
            self.endings.decline_draw,
        )
        self.abort, self.withdraw = self.endings.abort, self.endings.withdraw

    # ------------------------------------------------------------ creating

    async def create(
        self,
        entrants: Sequence[Occupant],
        settings: Settings,
        *,
        channel_id: int,
        guild_id: int | None = None,
        thread_id: int | None = None,
        cloud_setup: str = "random",
        seed: int = 0,
        clock: ClockSettings | None = None,
    ) -> LiveMatch:
        """Start a match; ``cloud_setup`` is random, manual, none or a preset name."""
        if len(entrants) != settings.spec.seats:
            raise Refusal(
                _("{mode} needs {n} players", mode=_(settings.spec.title), n=settings.spec.seats)
            )
        humans = [e.user_id for e in entrants if e.user_id is not None]
        if len(set(humans)) != len(humans):
            raise Refusal(_("a player can take only one seat"))
        for e in entrants:
            if e.user_id is None and e.strength not in COMPUTER_STRENGTHS:
                raise Refusal(
                    _(
                        "computer strength must be one of {strengths}",
                        strengths=", ".join(COMPUTER_STRENGTHS),
                    )
                )
        try:
            game = _new_game(settings, cloud_setup, seed)
        except RulesError as exc:
            raise Refusal(str(exc)) from None
        clock = clock or ClockSettings()
        deadline = self._deadline(clock)
        seats = [
            SeatSpec(
                seat=i,
                team=settings.spec.teams[i],
                user_id=e.user_id,
                display_name=e.name,
                handicap=settings.handicaps[i],
            )
            for i, e in enumerate(entrants)
        ]
        match_id = await self.repo.create(
            NewMatch(
                mode=settings.mode,
                ruleset=settings.ruleset,
                fire_mode=settings.fire,
                channel_id=channel_id,
                guild_id=guild_id,
                thread_id=thread_id,
                seats=seats,
                snapshot=_snapshot(game, entrants),
                variants=settings.variants,
                clock_json=clock.to_json(),
                to_move_seat=game.to_move,
                turn_deadline=deadline,
                remind_seconds=remind_seconds(clock),
                clock_due=None if deadline is None else deadline - (remind_seconds(clock) or 0),
            )
        )
        live = LiveMatch(await self.repo.get(match_id), game, list(entrants), clock, deadline)
        self.live.put(live)
        self.suggestions.remember(live)
        await self.events.publish(MatchStarted(live))
        return live

    def _deadline(self, clock: ClockSettings) -> float | None:
        return None if clock.per_turn is None else self.clock.now() + clock.per_turn

    # ------------------------------------------------------------- loading

    async def get(self, match_id: int) -> LiveMatch:
        """The match, loaded from storage on first use (a restart loses nothing)."""
        return await self.live.get(match_id)

    async def current(self, match_id: int) -> LiveMatch:
        """The match as :meth:`get` gives it, first brought up to date if another
        process acted on it since it was loaded (a live board served by another process
        plays any match): a press is then judged by the match as it is, not refused as
        out of turn. Storage judges every commit anyway; this spares the refusal."""
        live = await self.get(match_id)
        await self.catch_up([live])
        return live

    async def catch_up(self, matches: Sequence[LiveMatch]) -> list[LiveMatch]:
        """Reload, in place, those of ``matches`` another process moved on (or took
        back, or ended) since this one loaded them, in one query; the ones reloaded. A
        bot of one process has no other to catch up with, and asks nothing."""
        if self.shards.count == 1:
            return []
        try:
            stored = await self.repo.versions([m.id for m in matches])
        except StorageError as exc:  # acting on them says so; until then, memory it is
            log.warning("matches not compared with storage (%s)", exc)
            return []
        behind = []
        for live in matches:
            if stored.get(live.id, _version(live)) == _version(live):
                continue
            async with live.lock:  # none of this process's own steps is half stored
                try:
                    again = await self.repo.versions([live.id])
                    if again.get(live.id) != _version(live):
                        await self._reload(live)
                        behind.append(live)
                except (StorageError, MatchUnavailable) as exc:  # the next use loads it
                    log.warning("match %s: not brought up to date (%s)", live.id, exc)
        return behind

    async def by_thread(self, thread_id: int) -> LiveMatch | None:
        return await self.live.by_thread(thread_id)

    async def resume(self) -> int:
        """At start-up: how many unfinished matches this process's shards hold. None
        is loaded: each is, when something touches it (a damaged one is refused then,
        and listed by ``crosshairs db check``)."""
        return await self.index.count(self.shards)

    async def owned(self, match_ids: Sequence[int]) -> list[LiveMatch]:
        """The matches of ``match_ids`` that can be loaded (a damaged one is logged)."""
        found = []
        for match_id in match_ids:
            try:
                found.append(await self.get(match_id))
            except MatchUnavailable as exc:
                log.warning("match %s cannot be loaded (%s)", match_id, exc)
        return found

    async def active(
        self,
        *,
        guild_id: int | None = None,
        place: int | None = None,
        user_id: int | None = None,
        limit: int | None = None,
        everywhere: bool = False,
    ) -> list[LiveMatch]:
        """This process's matches being played (``everywhere``: every process's, for a
        live board, which may be served by another than the match's): of a guild, in a
        channel or thread (``place``), with a person seated; asked of storage, loaded
        as they are used."""
        ids = await self.index.active(
            Shards() if everywhere else self.shards,
            guild_id=guild_id,
            place=place,
            user_id=user_id,
            limit=limit,
        )
        return [m for m in await self.owned(ids) if not m.over]

    async def playing_in(self, guild_id: int) -> set[int]:
        """Every process's matches being played in a guild, by number (none is loaded)."""
        return set(await self.index.active(Shards(), guild_id=guild_id))

    async def set_board_message(self, live: LiveMatch, message_id: int, ply: int) -> None:
        """``message_id`` is the match's board now, drawn at ``ply``: both in one write,
        so that a crash cannot leave it noted as the board but behind (and posted again
        at the restart)."""
        await self.boards.placed(live.id, message_id, ply)
        live.record = await self.repo.get(live.id)

    async def board_mark(self, live: LiveMatch) -> int | None:
        """The ply the match's board shows, as stored; None if it was never marked or
        cannot be read now."""
        try:
            return await self.boards.shown(live.id)
        except StorageError as exc:
            log.info("match %s: the board's mark not read (%s)", live.id, exc)
            return None

    async def board_shown(self, live: LiveMatch, ply: int) -> None:
        """The board message now shows the game at ``ply`` (start-up compares): the ply
        it was drawn at, which another action may have passed while it went up."""
        try:
            await self.boards.mark(live.id, ply)
        except StorageError as exc:  # the move stands; at worst the board is redrawn later
            log.warning("match %s: board mark not stored (%s)", live.id, exc)

    async def set_thread(self, live: LiveMatch, thread_id: int) -> None:
        await self.repo.set_thread(live.id, thread_id)
        live.record = await self.repo.get(live.id)
        self.live.put(live)  # found by its thread from now on

    # -------------------------------------------------------------- acting

    async def play(
        self, match_id: int, user_id: int, tokens: Sequence[str], expect_ply: int | None = None
    ) -> Update:
        """Apply notation tokens for the player ``user_id``. All or nothing: a bad token
        anywhere leaves the match untouched. ``expect_ply`` makes a stale button (one
        pressed for an earlier state) fail instead of acting on a game it never saw."""
        live = await self.get(match_id)
        async with live.lock:
            self.check_turn(live, user_id, expect_ply)
            trial = live.game.copy()
            try:
                applied = notation.play_tokens(trial, tokens)
            except RulesError as exc:
                raise Refusal(str(exc)) from None
            if not applied:
                raise Refusal(_("nothing to play"))
            return await self.commit(live, [s for s, _ in applied], user_id)

    def check_turn(self, live: LiveMatch, user_id: int, expect_ply: int | None = None) -> None:
        """Raise the refusal to tell ``user_id`` unless they may fly in ``live`` now (at
        ``expect_ply``, if given). The one turn check: a press reads it before answering
        (a stranger is told at once, within Discord's three seconds), and the action
        checks again under the match's lock, where the answer can no longer change."""
        game = live.game
        if live.over:
            raise AlreadyOver(live.over_text())
        mine = live.seats_of(user_id)
        if not mine:
            raise NotYours(_("you are not playing in this match — you can watch, though!"))
        if live.paused is not None:
            raise Refusal(
                _(
                    "this match is paused: its thread was archived or locked — it goes on once "
                    "a moderator reopens it"
                )
            )
        if game.to_move not in mine:
            raise NotYours(_("it is not your turn: {who} is to fly", who=live.who(game.active)))
        if expect_ply is not None and expect_ply != live.ply:
            raise AlreadyOver(
                _("that button is out of date — the game has moved on; press Play on the board")
            )

    def loaded(self) -> list[LiveMatch]:
        """The matches this process holds in memory (the most recently used last)."""
        return self.live.kept()

    async def commit(self, live: LiveMatch, chosen: Sequence[Step], actor: int | None) -> Update:
        """Apply and store steps one by one (each with its snapshot), then explain."""
        happened: list[Event] = []
        turn = turn_of(live)
        try:
            for step in chosen:
                before = live.game.to_move
                happened.extend(live.game.play(step))
                await self._store(live, step.token, actor, before)
        except (RulesError, StorageError) as exc:
            raise await self.unsaved(live, exc) from None
        return await self.explain(live, happened, turn, actor)

    async def save(
        self, live: LiveMatch, token: str, actor: int | None, before: int | None
    ) -> None:
        """Store the step just applied in memory (a resignation, an agreed draw, a turn
        that ran out); if storage refuses it, memory goes back to what storage holds."""
        try:
            await self._store(live, token, actor, before)
        except StorageError as exc:
            raise await self.unsaved(live, exc) from None

    async def unsaved(self, live: LiveMatch, exc: Exception) -> MatchUnavailable:
        """Memory may be ahead of storage: bring the match in memory back to what was
        committed (in place, so whoever holds it sees the same), and say so plainly."""
        log.warning("match %s: reloading after %s", live.id, exc)
        try:
            await self._reload(live)
        except MatchUnavailable as again:  # storage is still down: the next use loads it
            log.warning("match %s: not reloaded yet (%s)", live.id, again)
        return MatchUnavailable(
            "that could not be saved, so nothing changed; please try again in a moment"
        )

    async def _reload(self, live: LiveMatch) -> None:
        """``live`` as storage holds it, in place (whoever holds it sees the same); if
        storage cannot give it, it is dropped from memory and the next use loads it."""
        self.live.drop(live.id)
        stored = await self.live.load(live.id)
        live.record, live.game, live.deadline = stored.record, stored.game, stored.deadline
        live.reminded = stored.reminded
        live.draw_offers.clear()
        live.draw_offers.update(stored.draw_offers)
        live.computer_plan.clear()
        self.live.put(live)

    async def _store(
        self, live: LiveMatch, token: str, actor: int | None, before: int | None
    ) -> None:
        game = live.game
        if game.to_move != before:
            live.deadline = self._deadline(live.clock)
            live.reminded = False
            live.draw_offers.clear()
        status = MatchStatus.FINISHED if game.is_over else MatchStatus.ACTIVE
        result = None
        if game.result is not None:
            result = json.dumps(
                {"winners": list(game.result.winners), "reason": game.result.reason}
            )
        # the snapshot is built before timing: the figure is the database's own
        snapshot = _snapshot(game, live.seats)
        with STORAGE_SECONDS.time():
            await self.repo.append_step(
                live.id,
                live.ply,
                token,
                actor,
                snapshot,
                to_move_seat=game.to_move,
                turn_deadline=None if game.is_over else live.deadline,
                status=status,
                result_json=result,
                passes_turn=not game.is_over and game.to_move != before,
                clock_due=clock_due(live, self.clock.now()),
            )

    async def explain(
        self,
        live: LiveMatch,
        happened: Sequence[Event],
        turn: tuple[int, int | None],
        actor: int | None,
    ) -> Update:
        # Under the match's lock, and only an action on a match still being played gets
        # here: if the game is over now, this action is the one that ended it; if the
        # turn is another's now (``turn`` was the turn before it), this one passed it.
        ended = live.game.is_over
        passed_at = None if ended or turn_of(live) == turn else live.ply
        if ended:
            # A finished match reloads from storage if asked for again (a replay, a
            # board): memory holds only the games still being played.
            self.live.drop(live.id)
        elif not live.computer_to_move:
            self.suggestions.remember(live)
        return Update(
            live,
            tuple(happened),
            describe(live, happened),
            ended=ended,
            passed_at=passed_at,
            actor=actor,
        )

    async def concede(self, live: LiveMatch, seat: int, reason: str, actor: int | None) -> Update:
        before, turn = live.game.to_move, turn_of(live)
        try:
            happened = live.game.concede(seat, reason)
        except RulesError as exc:
            raise Refusal(str(exc)) from None
        await self.save(live, live.game.history[-1].token, actor, before)
        return await self.explain(live, happened, turn, actor)

    def live_matches(self) -> list[LiveMatch]:
        """The matches being played that memory holds (at most its size); all of them
        are :meth:`active`."""
        return [m for m in self.live.kept() if not m.over]


def _new_game(settings: Settings, cloud_setup: str, seed: int) -> Game:
    choice = cloud_setup.lower()
    if choice == "random":
        return Game(settings, clouds.random_layout(settings.spec, seed, settings.cloud_groups))
    if choice == "manual":
        return Game(settings, clouds=None)
    if choice == "none":
        return Game(settings)
    return Game(settings, clouds.preset(choice))


def _snapshot(game: Game, seats: Sequence[Occupant]) -> str:
    """The game JSON, with who sits where, so a match loads from this row alone."""
    data = serialize.to_dict(game)
    data["players"] = [
        {"user_id": e.user_id, "name": e.name, "strength": e.strength} for e in seats
    ]
    return json.dumps(data, separators=(",", ":"))


def _version(live: LiveMatch) -> Version:
    """The match as this process holds it, as :meth:`MatchRepo.versions` gives it."""
    return Version(live.ply, not live.over, offers_mask(live.draw_offers))
