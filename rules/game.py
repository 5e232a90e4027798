"""A game of Crosshairs: the one object that holds a game, from setup to its result.

The model follows python-chess: a mutable :class:`Game` that lists its legal steps,
applies one with :meth:`Game.push` (reporting what happened as typed events) and takes
it back with :meth:`Game.pop`::

    >>> from rules.modes import Settings
    >>> from rules.steps import Step
    >>> game = Game(Settings())  # a 2026 duel, no clouds, automatic fire
    >>> len(game.legal_steps())  # a plane on any of 6 home cells, facing any of 6 ways
    36
    >>> game.push(Step.parse("+a3NE"))[0]
    Placed(seat=0, plane=0, cell=2, facing=1, height=0)
    >>> game.active  # player-turn 1 allows one action: the turn has passed
    1

A player-turn is a series of steps by the active seat:

* an **action** is a placement (``+a3NE``) or one plane's manoeuvre: a climb (``c3C<``),
  a level flight (``c3F``, classic also ``c3F1``), a crash (``c3X``, only when the plane
  can do nothing else) or a dive, which is one step per manoeuvre (``e6S``, ``e7S>``,
  ``e8P``) and ends when the player acts with another plane or plays ``-``;
* **shots** (``*d4``) take down a plane caught in the line of fire of two planes hostile
  to its owner. In automatic fire every available shot is fired as soon as it appears;
  in manual fire shots are offered as steps and ``-`` holds fire to end the turn.

The turn passes by itself when the active seat has nothing left to decide. The game ends
the moment one player or team is left, even in the middle of a turn.

:class:`Game` is the position (:mod:`rules.state`) with a player's verbs. Each part of the
rules lives in one module, as one collaborator the game holds, built once for its
settings: the :class:`~rules.ends.Referee` (eliminations, trophies, results), the
:class:`~rules.fire.Guns` (lines of fire, shots), :class:`~rules.legal.LegalSteps` and
the :class:`~rules.turns.TurnFlow` (playing a step, passing the turn); :mod:`rules.undo`
keeps the snapshots that :meth:`Game.pop` restores. This module adds starting a game,
resigning and draws. The pieces (:class:`Plane`, :class:`SeatState`, :class:`Result`,
:class:`Played`) live in :mod:`rules.pieces` and can be imported from here too.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Self

from i18n import N_
from rules import events, undo
from rules.ends import Referee
from rules.errors import IllegalStep, RulesError
from rules.events import Event
from rules.explain import why_illegal
from rules.fire import Guns
from rules.legal import LegalSteps
from rules.modes import Settings
from rules.pieces import CLOUD_COUNT, OVER, PLAY, SETUP, Plane, Played, Result, SeatState
from rules.state import GameState
from rules.steps import Step
from rules.turns import TurnFlow

__all__ = [
    "CLOUD_COUNT",
    "OVER",
    "PLAY",
    "SETUP",
    "Game",
    "Plane",
    "Played",
    "Result",
    "SeatState",
]


class Game(GameState):
    """One game, from cloud setup to its result. See the module docstring."""

    def __init__(self, settings: Settings | None = None, clouds: Iterable[int] | None = ()) -> None:
        """A new game with every plane in reserve. ``clouds=None`` starts the setup
        phase in which players place the 16 clouds in turn; otherwise ``clouds`` are the
        cloud cells (see :mod:`rules.clouds` for random layouts and presets)."""
        super().__init__(settings)
        rules = self.settings.rules
        self._referee = Referee(self.mode)
        self._guns = Guns(rules, self.mode, self._referee)
        self._steps = LegalSteps(rules, self._guns)
        self._flow = TurnFlow(rules, self._referee, self._guns, self._steps)
        self._undo: list[undo.Snapshot] = []
        if clouds is not None:
            for c in clouds:
                self._cloud[c] = True
            self.phase = PLAY
            self._flow.begin_play(self)

    # ------------------------------------------------------------ steps

    def legal_steps(self) -> list[Step]:
        """Every step the seat to move may take now. Dive manoeuvres are listed one at a
        time; a crash only for a plane that can do nothing else."""
        if self._legal is None:
            self._legal = self._steps.generate(self)
        return list(self._legal)

    def is_legal(self, step: Step) -> bool:
        if self._legal is None:
            self._legal = self._steps.generate(self)
        return step in self._legal

    def why_illegal(self, step: Step) -> str:
        """A player-facing reason why ``step`` is not legal now."""
        return why_illegal(self, step, self.caught())

    def push(self, step: Step) -> tuple[Event, ...]:
        """Apply a legal step and return what happened; :class:`IllegalStep` says why
        not. The step can be taken back with :meth:`pop`."""
        if not self.is_legal(step):
            raise IllegalStep(step.token, self.why_illegal(step))
        self._undo.append(undo.snapshot(self))
        return self._flow.play(self, step)

    def pop(self) -> Played:
        """Take back the last step pushed; returns its record."""
        if not self._undo:
            raise RulesError("there is no step to take back")
        last = self.history[-1]
        undo.restore(self, self._undo.pop())
        return last

    def play(self, step: Step) -> tuple[Event, ...]:
        """Apply a legal step without keeping what :meth:`pop` needs (replays, servers)."""
        if not self.is_legal(step):
            raise IllegalStep(step.token, self.why_illegal(step))
        return self._flow.play(self, step)

    def copy(self, with_history: bool = True) -> Self:
        """An independent game in the same state (without the steps to take back)."""
        other = super().copy(with_history)
        other._undo = []
        return other

    # ------------------------------------------------------------ lines of fire

    def line_of_fire(self, plane: Plane) -> list[int]:
        """The cells a plane's guns cover, nearest first; the last may hold its target."""
        return self._guns.line_of_fire(self, plane)

    def lines_of_fire(self) -> list[tuple[Plane, list[int]]]:
        """The lines of fire a board shows: those of the side to move's planes, while
        planes are in play, each with the cells it covers (none for a plane whose guns
        cover nothing)."""
        if self.phase != "play":
            return []
        team = self.mode.teams[self.active]
        own = [p for p in self.planes() if self.mode.teams[p.seat] == team]
        return [(p, cells) for p in own if (cells := self.line_of_fire(p))]

    def target(self, plane: Plane) -> Plane | None:
        """The plane in ``plane``'s line of fire, if any (friend or foe)."""
        cells = self._guns.line_of_fire(self, plane)
        return self._at[cells[-1]] if cells else None

    def caught(self) -> dict[int, tuple[Plane, ...]]:
        """Every caught plane (by id) with the hostile planes that have it in their sights."""
        return self._guns.caught(self)

    # ------------------------------------------------------------ ends

    def concede(self, seat: int, reason: str = "resign") -> tuple[Event, ...]:
        """A player resigns (or loses on time): they leave the game at once with all
        their planes, and nobody takes trophies for them. The others play on while more
        than one player or team is left."""
        if self.phase == OVER:
            raise RulesError("the game is already over")
        if not 0 <= seat < self.seats or self._seats[seat].out:
            raise RulesError("that seat is not playing")
        if reason not in ("resign", "timeout"):
            raise RulesError(f"unknown reason {reason!r}")
        if self.phase == SETUP:
            raise RulesError("the game has not started yet: abort it instead")
        self._undo.append(undo.snapshot(self))
        ev: list[Event] = []
        for p in [p for p in self._planes.values() if p.seat == seat]:
            self._remove(p)
        self._seats[seat] = self._seats[seat]._replace(reserve=0, out=True)
        ev.append(events.Eliminated(seat, None, reason, -1))
        turn = self.turn
        if not self._referee.check_end(self, ev) and seat == self.active:
            self._flow.next_turn(self, ev)
            self._flow.settle(self, ev)
        record = tuple(ev)
        self.history.append(Played(f"{reason}:{seat + 1}", seat, turn, record))
        self._legal = None
        return record

    def agree_draw(self) -> tuple[Event, ...]:
        """End the game drawn because every player still in it agreed."""
        if self.phase == OVER:
            raise RulesError("the game is already over")
        self._undo.append(undo.snapshot(self))
        ev: list[Event] = [events.DrawAgreed()]
        self._referee.finish(self, (), N_("draw agreed"), ev)
        record = tuple(ev)
        self.history.append(Played("draw", self.active, self.turn, record))
        self._legal = None
        return record

    def unflown(self) -> frozenset[int]:
        """Seats that have not yet completed a player-turn of play (placing clouds, a
        resignation or the turn still being played does not count)."""
        flown = {
            p.seat
            for p in self.history
            if p.turn < self.turn and not p.token.startswith(("~", "resign:", "timeout:", "draw"))
        }
        return frozenset(range(self.seats)) - flown

    @property
    def ended_early(self) -> bool:
        """Whether the game ended before every side in its final act had completed a
        turn: one still in the game, or the one whose resignation or clock ended it. Such
        a game says nothing about skill (docs/ratings.md, the abort rule)."""
        if not self.is_over or not self.history:
            return False
        last = self.history[-1]
        involved = set(self.alive())
        if last.token.startswith(("resign:", "timeout:")):
            involved.add(last.seat)
        return not involved.isdisjoint(self.unflown())

    @classmethod
    def _from_parts(
        cls,
        settings: Settings,
        clouds: Iterable[int],
        planes: Iterable[tuple[int, int, int, int, bool]],
        seats: list[SeatState],
        turn: int,
        active: int,
    ) -> Game:
        """A game about to start ``active``'s player-turn ``turn``; planes are (seat, cell,
        facing, height, ace). Used by position text, which then calls :meth:`begin`."""
        game = cls(settings, clouds=None)
        game.phase = PLAY
        for c in clouds:
            game._cloud[c] = True
        for seat, c, facing, height, ace in planes:
            p = Plane(game._next_id, seat, c, facing, height, ace)
            game._next_id += 1
            game._at[c] = p
            game._planes[p.id] = p
        game._seats = list(seats)
        game.turn = turn
        game.active = active
        return game

    def begin(self) -> None:
        """Start play of a game built by :meth:`_from_parts` (fires opening shots)."""
        self._flow.begin_play(self)

    def _generate(self) -> list[Step]:
        """The legal steps worked out afresh, without the cache (for benchmarks)."""
        return self._steps.generate(self)
