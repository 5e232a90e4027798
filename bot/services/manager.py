"""The game manager: every match the bot runs, without Discord.

The cogs, the tests and the CLI all play through this class. It keeps the games it has
loaded in memory, serialises each match's actions behind a lock (two presses racing
each other apply one after the other, and the second sees the game as the first left
it), checks who may act, applies steps through the rules engine, stores every step
with the game's snapshot in one transaction, and explains what happened in words.

A step is stored before it is acknowledged; if storage refuses it (a conflict with a
write from elsewhere), the in-memory game is dropped and reloaded from storage, so
memory never runs ahead of what was committed.

The path of a press, in order: :meth:`GameManager.play` takes the match's lock and checks
the turn; :meth:`~GameManager._commit` applies each step through the rules engine
(``Game.play``) and :meth:`~GameManager._store` commits it with the snapshot; then
:meth:`~GameManager._update` explains it in words, and the match's life publishes what
it did (:meth:`bot.services.life.MatchLife.after`), for its surface to show. The
computer's turns (``computer``, :mod:`bot.services.computer`) and the turn clocks
(``clocks``, :mod:`bot.services.turn_clocks`) are objects this manager owns, with reasons of their
own to change, that act through it; the match in memory is :mod:`bot.services.live`.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable, Sequence

from bot.services.clock import Clock, SystemClock
from bot.services.computer import ComputerTurns
from bot.services.describe import describe
from bot.services.events import EventBus, TurnPassed
from bot.services.live import (
    COMPUTER_STRENGTHS,
    AlreadyOut,
    AlreadyOver,
    ClockSettings,
    LiveMatch,
    MatchError,
    MatchUnavailable,
    NotYours,
    Occupant,
    Update,
)
from bot.services.metrics import STORAGE_SECONDS
from bot.services.shards import Shards
from bot.services.suggestions import LegalCache
from bot.services.turn_clocks import TurnClocks
from bot.services.workers import Workers, current
from i18n import _
from rules import clouds, notation, serialize
from rules.errors import RulesError
from rules.events import Event
from rules.game import Game
from rules.modes import Settings
from rules.steps import Step
from storage.boards import BoardMarks
from storage.db import Database
from storage.errors import StorageError
from storage.events import MatchEvents
from storage.matches import MatchRepo, MatchStatus, NewMatch, SeatSpec, SetAside
from storage.turn_events import TurnEvents

log = logging.getLogger(__name__)


class GameManager:
    def __init__(
        self,
        db: Database,
        clock: Clock | None = None,
        *,
        workers: Workers | None = None,
        shards: Shards | None = None,
    ) -> None:
        self.db = db
        self.repo = MatchRepo(db)
        self.boards = BoardMarks(db)
        self.clock: Clock = clock or SystemClock()
        self.workers = workers or current()
        # the guilds whose matches this process runs (all, unless sharded)
        self.shards = shards or Shards()
        self.suggestions = LegalCache(self.workers)
        self._live: dict[int, LiveMatch] = {}
        self._loading: dict[int, asyncio.Lock] = {}
        # What follows an end (ratings, series, tournaments) and a turn passed (a DM),
        # once (:mod:`bot.services.events`).
        self.events = EventBus(MatchEvents(db), TurnEvents(db))
        # the parts with reasons of their own to change; this manager is their MatchHost
        self.computer = ComputerTurns(self)
        self.clocks = TurnClocks(self)

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
            raise MatchError(
                _("{mode} needs {n} players", mode=_(settings.spec.title), n=settings.spec.seats)
            )
        humans = [e.user_id for e in entrants if e.user_id is not None]
        if len(set(humans)) != len(humans):
            raise MatchError(_("a player can take only one seat"))
        for e in entrants:
            if e.user_id is None and e.strength not in COMPUTER_STRENGTHS:
                raise MatchError(
                    _(
                        "computer strength must be one of {strengths}",
                        strengths=", ".join(COMPUTER_STRENGTHS),
                    )
                )
        try:
            game = _new_game(settings, cloud_setup, seed)
        except RulesError as exc:
            raise MatchError(str(exc)) from None
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
            )
        )
        live = LiveMatch(await self.repo.get(match_id), game, list(entrants), clock, deadline)
        self._live[match_id] = live
        self.suggestions.remember(live)
        return live

    def _deadline(self, clock: ClockSettings) -> float | None:
        return None if clock.per_turn is None else self.clock.now() + clock.per_turn

    # ------------------------------------------------------------- loading

    async def get(self, match_id: int) -> LiveMatch:
        """The match, loaded from storage on first use (a restart loses nothing)."""
        live = self._live.get(match_id)
        if live is not None:
            return live
        lock = self._loading.setdefault(match_id, asyncio.Lock())
        async with lock:
            live = self._live.get(match_id)
            if live is None:
                live = await self._load(match_id)
                self._live[match_id] = live
                self.suggestions.remember(live)
        return live

    async def _load(self, match_id: int) -> LiveMatch:
        try:
            record = await self.repo.get(match_id)
        except StorageError as exc:
            raise MatchUnavailable(
                _("match #{id} cannot be loaded: {error}", id=match_id, error=exc)
            ) from None
        try:
            data = json.loads(record.snapshot)
            game = serialize.from_dict(data)
            seats = [Occupant(**e) for e in data.get("players", [])]
        except (ValueError, TypeError, RulesError) as exc:
            raise MatchUnavailable(
                _("match #{id} is damaged and was set aside ({error})", id=match_id, error=exc)
            ) from None
        if len(seats) != game.seats:
            raise MatchUnavailable(
                _("match #{id} is damaged: its players do not fit its seats", id=match_id)
            )
        clock = ClockSettings.from_json(record.clock_json)
        return LiveMatch(record, game, seats, clock, record.turn_deadline)

    async def resume(self) -> tuple[list[LiveMatch], list[SetAside]]:
        """Load every unfinished match of this process's guilds at start-up; damaged
        ones are reported, not fatal."""
        found, set_aside = await self.repo.list_unfinished()
        loaded = []
        for record in found:
            if not self.shards.owns(record.guild_id):
                continue  # another process runs it
            try:
                loaded.append(await self.get(record.id))
            except MatchUnavailable as exc:
                set_aside.append(SetAside(record.id, str(exc)))
        return loaded, set_aside

    async def unannounced(self) -> list[LiveMatch]:
        """This process's matches whose end was not shown in full (the process died
        between storing the end and showing all that follows it); another process's
        are its own to show, so that nothing is shown twice."""
        found = []
        for end in await self.events.store.pending():
            if not self.shards.owns(end.guild_id):
                continue
            try:
                found.append(await self.get(end.match_id))
            except MatchUnavailable as exc:
                log.warning("match %s: its end cannot be shown (%s)", end.match_id, exc)
        return found

    async def untold_turns(self) -> list[TurnPassed]:
        """This process's turns passed whose DM was not sent (the process died between
        storing the step and telling it); another process's are its own to tell."""
        found = []
        for turn in await self.events.turns.pending():
            if not self.shards.owns(turn.guild_id):
                continue
            try:
                live = await self.get(turn.match_id)
            except MatchUnavailable as exc:
                log.warning("match %s: its turn cannot be told (%s)", turn.match_id, exc)
                continue
            found.append(TurnPassed(live, turn.ply, turn.actor_id))
        return found

    async def by_thread(self, thread_id: int) -> LiveMatch | None:
        for live in self._live.values():
            # a series plays game after game in one thread: the finished ones stay loaded
            if live.record.thread_id == thread_id and not live.over:
                return live
        record = await self.repo.by_thread(thread_id)
        return None if record is None else await self.get(record.id)

    async def set_board_message(self, live: LiveMatch, message_id: int, ply: int) -> None:
        """``message_id`` is the match's board now, drawn at ``ply``: both in one write,
        so that a crash cannot leave it noted as the board but behind (and posted again
        at the restart)."""
        await self.boards.placed(live.id, message_id, ply)
        live.record = await self.repo.get(live.id)

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
                raise MatchError(str(exc)) from None
            if not applied:
                raise MatchError(_("nothing to play"))
            return await self._commit(live, [s for s, _ in applied], user_id)

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
            raise MatchError(
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

    async def _commit(self, live: LiveMatch, chosen: Sequence[Step], actor: int | None) -> Update:
        """Apply and store steps one by one (each with its snapshot), then explain."""
        happened: list[Event] = []
        turn = _turn_of(live)
        try:
            for step in chosen:
                before = live.game.to_move
                happened.extend(live.game.play(step))
                await self._store(live, step.token, actor, before)
        except (RulesError, StorageError) as exc:
            raise await self._unsaved(live, exc) from None
        return await self._update(live, happened, turn, actor)

    async def _save(
        self, live: LiveMatch, token: str, actor: int | None, before: int | None
    ) -> None:
        """Store the step just applied in memory (a resignation, an agreed draw, a turn
        that ran out); if storage refuses it, memory goes back to what storage holds."""
        try:
            await self._store(live, token, actor, before)
        except StorageError as exc:
            raise await self._unsaved(live, exc) from None

    async def _unsaved(self, live: LiveMatch, exc: Exception) -> MatchUnavailable:
        """Memory may be ahead of storage: bring the match in memory back to what was
        committed (in place, so whoever holds it sees the same), and say so plainly."""
        log.warning("match %s: reloading after %s", live.id, exc)
        self._live.pop(live.id, None)
        try:
            stored = await self._load(live.id)
        except MatchUnavailable as again:  # storage is still down: the next use loads it
            log.warning("match %s: not reloaded yet (%s)", live.id, again)
        else:
            live.record, live.game, live.deadline = stored.record, stored.game, stored.deadline
            live.draw_offers.clear()
            live.computer_plan.clear()
            self._live[live.id] = live
        return MatchUnavailable(
            "that could not be saved, so nothing changed; please try again in a moment"
        )

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
            )

    async def _update(
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
        passed_at = None if ended or _turn_of(live) == turn else live.ply
        if ended:
            # A finished match reloads from storage if asked for again (a replay, a
            # board): memory holds only the games still being played.
            self._live.pop(live.id, None)
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

    async def resign(self, match_id: int, user_id: int, *, forced: bool = False) -> Update:
        """Resign ``user_id``'s seat. Before every side has flown a turn that aborts the
        game instead (the abort rule), unless the resignation is ``forced`` by a decision
        made elsewhere (an organiser's result, a person leaving for good) that the board
        must agree with; such a game is unrated all the same."""
        live = await self.get(match_id)
        async with live.lock:
            seated = live.seats_of(user_id)
            mine = [s for s in seated if not live.game.seat(s).out]
            if live.over:
                raise AlreadyOver(live.over_text())
            if not seated:
                raise NotYours(_("you are not playing in this match"))
            if not mine:
                raise AlreadyOut(_("you are already out of this game"))
            if not forced and _ends_early(live.game, lambda g: g.concede(mine[0], "resign")):
                return await self._call_off(
                    live,
                    user_id,
                    _(
                        "{who} resigned before every side had flown a turn: "
                        "the game is aborted, not rated.",
                        who=live.who(mine[0]),
                    ),
                )
            return await self._concede(live, mine[0], "resign", user_id)

    async def _concede(self, live: LiveMatch, seat: int, reason: str, actor: int | None) -> Update:
        before, turn = live.game.to_move, _turn_of(live)
        try:
            happened = live.game.concede(seat, reason)
        except RulesError as exc:
            raise MatchError(str(exc)) from None
        await self._save(live, live.game.history[-1].token, actor, before)
        return await self._update(live, happened, turn, actor)

    async def offer_draw(self, match_id: int, user_id: int) -> Update:
        """Offer (or accept) a draw; the game is drawn once every player still in it
        has agreed. Computer players never agree."""
        live = await self.get(match_id)
        async with live.lock:
            game = live.game
            mine = [s for s in live.seats_of(user_id) if not game.seat(s).out]
            if live.over:
                raise AlreadyOver(live.over_text())
            if not mine:
                raise NotYours(_("you are not playing in this match"))
            if set(mine) <= live.draw_offers:
                others = ", ".join(live.who(s) for s in game.alive() if s not in live.draw_offers)
                raise MatchError(
                    _("that is your own draw offer: only {others} can accept it", others=others)
                )
            live.draw_offers.update(mine)
            waiting = [s for s in game.alive() if s not in live.draw_offers]
            if any(live.seats[s].user_id is None for s in waiting):
                raise MatchError(_("the computer does not accept draws"))
            if waiting:
                names = ", ".join(live.who(s) for s in waiting)
                return Update(
                    live,
                    (),
                    [
                        "🤝 "
                        + _(
                            "{who} offers a draw; waiting for {names}.",
                            who=live.who(mine[0]),
                            names=names,
                        )
                    ],
                )
            if _ends_early(game, Game.agree_draw):
                return await self._call_off(
                    live,
                    user_id,
                    _(
                        "A draw agreed before every side had flown a turn: "
                        "the game is aborted, not rated."
                    ),
                )
            before, turn = game.to_move, _turn_of(live)
            happened = game.agree_draw()
            await self._save(live, "draw", user_id, before)
            return await self._update(live, happened, turn, user_id)

    async def decline_draw(self, match_id: int, user_id: int) -> Update:
        """Turn down the draw offer standing in the match; play goes on."""
        live = await self.get(match_id)
        async with live.lock:
            mine = [s for s in live.seats_of(user_id) if not live.game.seat(s).out]
            if live.game.is_over or not mine:
                raise MatchError(
                    _("you are not playing in this match") if not mine else _("this game is over")
                )
            if not live.draw_offers:
                raise MatchError(_("no draw is on offer"))
            if set(mine) <= live.draw_offers:
                raise MatchError(_("that is your own offer; play on, and it lapses with the turn"))
            live.draw_offers.clear()
            return Update(
                live, (), [_("{who} declines the draw; play goes on.", who=live.who(mine[0]))]
            )

    async def abort(self, match_id: int, user_id: int) -> Update:
        """Call the game off before every side has flown a turn: no result, nothing
        rated (docs/ratings.md, the abort rule)."""
        live = await self.get(match_id)
        async with live.lock:
            if not live.seats_of(user_id):
                raise NotYours(_("you are not playing in this match"))
            if live.over:
                raise AlreadyOver(live.over_text())
            if not live.game.unflown():
                raise MatchError(_("every side has flown a turn: resign or offer a draw instead"))
            return await self._call_off(
                live, user_id, _("The match was aborted by {who}.", who=_name_of(live, user_id))
            )

    async def _call_off(self, live: LiveMatch, user_id: int, said: str) -> Update:
        """End the match without a result (the caller holds its lock)."""
        try:
            await self.repo.finish(
                live.id, MatchStatus.ABANDONED, json.dumps({"aborted_by": user_id})
            )
            live.record = await self.repo.get(live.id)
        except StorageError as exc:
            raise await self._unsaved(live, exc) from None
        self._live.pop(live.id, None)
        # Published as MatchAborted: nothing is rated or booked, and a series plays the
        # game again (docs/series.md).
        return Update(live, (), [said], ended=True)

    async def withdraw(self, match_id: int, why: str) -> LiveMatch | None:
        """Call the match off because its place is gone (``why``): no result, nothing
        rated, no longer clocked, whatever was flown. Returns the match called off, or
        None when it had already ended (its end is someone else's to publish)."""
        live = await self.get(match_id)
        async with live.lock:
            if live.over:
                return None
            await self.repo.finish(live.id, MatchStatus.ABANDONED, json.dumps({"withdrawn": why}))
            live.record = await self.repo.get(live.id)
            self._live.pop(live.id, None)
            return live

    def live_matches(self, guild_id: int | None = None) -> list[LiveMatch]:
        return [
            m
            for m in self._live.values()
            if not m.over and (guild_id is None or m.record.guild_id == guild_id)
        ]


def _new_game(settings: Settings, cloud_setup: str, seed: int) -> Game:
    choice = cloud_setup.lower()
    if choice == "random":
        return Game(settings, clouds.random_layout(settings.spec, seed, settings.cloud_groups))
    if choice == "manual":
        return Game(settings, clouds=None)
    if choice == "none":
        return Game(settings)
    return Game(settings, clouds.preset(choice))


def _ends_early(game: Game, ending: Callable[[Game], object]) -> bool:
    """Whether ``ending`` (a resignation, a draw) would end ``game`` before every side
    in it had flown a turn; tried on a copy, so the game itself is untouched."""
    trial = game.copy()
    try:
        ending(trial)
    except RulesError:
        return False  # the real call explains why it cannot be done
    return trial.ended_early


def _turn_of(live: LiveMatch) -> tuple[int, int | None]:
    """Whose turn it is: the player-turn and the seat to move."""
    return live.game.turn, live.game.to_move


def _snapshot(game: Game, seats: Sequence[Occupant]) -> str:
    """The game JSON, with who sits where, so a match loads from this row alone."""
    data = serialize.to_dict(game)
    data["players"] = [
        {"user_id": e.user_id, "name": e.name, "strength": e.strength} for e in seats
    ]
    return json.dumps(data, separators=(",", ":"))


def _name_of(live: LiveMatch, user_id: int) -> str:
    seats = live.seats_of(user_id)
    return live.who(seats[0]) if seats else "a player"
