"""The computer player: a :class:`~rules.players.Player` that plans its turns.

A player-turn is many steps (one per placement, climb, level flight, dive manoeuvre,
shot), but it is one decision. So the player plans the whole turn at its first step and
then replays the plan one step per call. Before each replayed step it checks that the
game stands exactly where the plan expected; if not (someone else moved, a game was
reloaded, the plan was cut short by the deadline) it simply plans again from here.

Whatever happens inside the search, :meth:`ComputerPlayer.choose` returns a legal step:
an unexpected error falls back to the first sensible legal step.
"""

from __future__ import annotations

import random
import time

from rules import steps
from rules.ai.deep import deep_turn
from rules.ai.evaluate import Evaluator, Weights
from rules.ai.search import Clock, Deadline, Plan, plan_turn
from rules.ai.strengths import HARD_CAP, Strength, strength
from rules.game import PLAY, Game
from rules.steps import Step

StateKey = tuple[object, ...]


def state_key(game: Game) -> StateKey:
    """Everything a plan depends on: equal keys mean the same decision."""
    return (
        game.turn,
        game.active,
        game.actions,
        game.diving,
        game.acted,
        tuple(game.planes()),
        tuple(game.seat(s) for s in range(game.seats)),
    )


class ComputerPlayer:
    """Plays any mode and variant at any strength of :data:`~rules.ai.strengths.STRENGTHS`.

    ``time_budget`` (seconds per decision) overrides the strength's default; it is
    capped at :data:`~rules.ai.strengths.HARD_CAP`. ``seed`` fixes the noise of the easy
    player and the cloud placement in a manual cloud setup; ``weights`` replace the
    strength's own (self-play tuning tries candidates this way); ``clock`` measures
    the budget (the wall clock unless a benchmark asks for CPU time).
    """

    def __init__(
        self,
        level: str | Strength = "medium",
        time_budget: float | None = None,
        seed: int = 0,
        weights: Weights | None = None,
        clock: Clock = time.perf_counter,
    ) -> None:
        self.strength = strength(level) if isinstance(level, str) else level
        self.name = self.strength.name
        self.budget = min(time_budget or self.strength.budget, HARD_CAP)
        self.rng = random.Random(seed)
        self.weights = weights
        self.clock = clock
        self._evaluator: Evaluator | None = None
        self._evaluator_key: object = None
        self._plan: Plan = ()
        self._keys: list[StateKey] = []
        self._next = 0

    def choose(self, game: Game) -> Step:
        legal = game.legal_steps()
        if game.phase != PLAY:
            return self.rng.choice(legal)
        key = state_key(game)
        if self._next < len(self._plan) and self._keys[self._next] == key:
            step = self._plan[self._next]
            self._next += 1
            if game.is_legal(step):
                return step
        try:
            self._make_plan(game, key)
        except Exception:  # the search must never cost a game: play safe instead
            self._plan = ()
        if self._plan and game.is_legal(self._plan[0]):
            self._next = 1
            return self._plan[0]
        return _fallback(legal)

    def _make_plan(self, game: Game, key: StateKey) -> None:
        deadline = Deadline(self.budget, self.clock)
        ev = self._evaluator_for(game)
        seat = game.active
        s = self.strength
        if s.depth is not None:
            deep = deep_turn(game, seat, ev, s.width, s.depth, self.budget, self.clock)
            self._plan = deep.plan if deep is not None else ()
            self._remember(game, key)
            return
        found = plan_turn(game, seat, ev, s.width, deadline, self.rng, s.noise)
        if not found:
            self._plan = ()
            return
        self._plan = found[0].plan
        self._remember(game, key)

    def _remember(self, game: Game, key: StateKey) -> None:
        """The state each step of the plan expects, to notice when play left it."""
        self._keys = [key]
        work = game.copy(with_history=False)
        for step in self._plan[:-1]:
            work.push(step)
            self._keys.append(state_key(work))

    def _evaluator_for(self, game: Game) -> Evaluator:
        key = (game.clouds, game.settings)
        if self._evaluator is None or key != self._evaluator_key:
            self._evaluator = Evaluator(game, self.weights or self.strength.weights)
            self._evaluator_key = key
        return self._evaluator


def _fallback(legal: list[Step]) -> Step:
    for s in legal:
        if s.kind not in (steps.CRASH, steps.END):
            return s
    return legal[0]
