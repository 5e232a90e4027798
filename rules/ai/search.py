"""Planning a whole player-turn, and looking at the reply.

A player-turn is a series of plane actions, and their order matters: one plane moving
out of the way lets another through, and a kill happens the moment the second plane of
a crossfire is in place. So the planner searches over *orders of plane actions*:

* :func:`actions` lists every complete action open to the seat now — a placement, a
  climb, a level flight, or a whole dive (every prefix of every sequence of dive
  manoeuvres, ending it with ``-`` where the plane could go on). Dives that end in the
  same place, facing and height after the same shots are the same action, which keeps a
  plane at height 6 from flooding the search.
* :func:`plan_turn` is a beam search: from the turn's start it applies every action to
  every position in the beam, scores the results with the :class:`Evaluator`, keeps the
  best ``width`` unfinished ones and goes on until the turn passes. Every finished turn
  is kept, so the caller can choose among the best few (:mod:`rules.ai.deep` takes
  them round the table).

Everything works on one scratch copy of the game with ``push``/``pop``, and every loop
watches a :class:`Deadline`, returning the best found so far when time is up.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from rules import steps
from rules.ai.evaluate import Evaluator
from rules.board import NEIGHBOUR
from rules.game import Game
from rules.steps import Step

Plan = tuple[Step, ...]


Clock = Callable[[], float]


class Deadline:
    """A point in time after which searches stop and answer with what they have.

    ``clock`` is the wall clock by default. Benchmarks pass ``time.thread_time`` so that
    a budget means the same search on a busy machine as on a free core.
    """

    def __init__(self, seconds: float, clock: Clock = time.perf_counter) -> None:
        self.clock = clock
        self.at = clock() + seconds

    @property
    def passed(self) -> bool:
        return self.clock() >= self.at


@dataclass(frozen=True)
class Scored:
    score: float
    plan: Plan
    finished: bool  # the turn passed (or the game ended) at the end of the plan


def settle(game: Game, seat: int, ev: Evaluator, done: list[Step]) -> None:
    """Take the shots worth taking (manual fire only) and end the turn if nothing but
    shots is left. Steps taken are pushed on ``game`` and appended to ``done``.

    A shot is nearly always right, but not always: in Circle of Death eliminating a
    player hands the win to their right neighbour, who may not be us. So each shot is
    tried and kept only if the position scores no worse for it.
    """
    while not game.is_over and game.active == seat and game.diving < 0:
        legal = game.legal_steps()
        shots = [s for s in legal if s.kind == steps.SHOOT]
        if not shots:
            return
        base = ev.score(game, seat)
        taken = False
        for shot in shots:
            game.push(shot)
            if ev.score(game, seat) >= base:
                done.append(shot)
                taken = True
                break
            game.pop()
        if taken:
            continue
        if all(s.kind in (steps.SHOOT, steps.END) for s in legal):
            game.push(steps.END_STEP)
            done.append(steps.END_STEP)
        return


def actions(
    game: Game,
    seat: int,
    ev: Evaluator,
    visit: Callable[[Plan], None],
    deadline: Deadline | None = None,
) -> None:
    """Call ``visit(plan)`` once for every distinct complete action of ``seat``, with
    ``game`` standing in the position after it (restored afterwards). Stops early, with
    the actions seen so far, once ``deadline`` has passed."""
    legal = game.legal_steps()
    placements = [s for s in legal if s.kind == steps.PLACE]
    sensible = [s for s in placements if NEIGHBOUR[s.cell * 6 + s.facing] >= 0]
    # Placing a plane nose to the board edge means a crash next turn; keep those only
    # when nothing else is possible.
    firsts = [s for s in legal if s.kind != steps.PLACE] + (sensible or placements)
    seen: set[object] = set()
    for first in firsts:
        if first.kind == steps.SHOOT:
            continue
        if deadline is not None and deadline.passed:
            return
        if first.kind in steps.DIVES:
            _dives(game, seat, ev, (), first, seen, visit, deadline)
        else:
            _apply(game, seat, ev, (first,), visit)


def _apply(game: Game, seat: int, ev: Evaluator, plan: Plan, visit: Callable[[Plan], None]) -> None:
    for s in plan:
        game.push(s)
    done: list[Step] = []
    settle(game, seat, ev, done)
    visit(plan + tuple(done))
    for _ in range(len(plan) + len(done)):
        game.pop()


def _dives(
    game: Game,
    seat: int,
    ev: Evaluator,
    before: Plan,
    step: Step,
    seen: set[object],
    visit: Callable[[Plan], None],
    deadline: Deadline | None = None,
) -> None:
    # A plane high up has hundreds of dive sequences: the deadline is watched inside
    # the dive too, or one enumeration could run half a second past it.
    game.push(step)
    done: list[Step] = []
    settle(game, seat, ev, done)
    _dive_goes_on(game, seat, ev, (*before, step, *done), seen, visit, deadline)
    for _ in range(1 + len(done)):
        game.pop()


def _dive_goes_on(
    game: Game,
    seat: int,
    ev: Evaluator,
    plan: Plan,
    seen: set[object],
    visit: Callable[[Plan], None],
    deadline: Deadline | None = None,
) -> None:
    diving = game.plane(game.diving) if game.diving >= 0 and game.active == seat else None
    if diving is None:
        key: object = ("ended", game.turn, len(game.history), tuple(game.planes()))
        if key not in seen:
            seen.add(key)
            visit(plan)
        return
    key = (diving.cell, diving.facing, diving.height, len(game.planes()))
    if key in seen:
        return
    seen.add(key)
    _apply(game, seat, ev, (steps.END_STEP,), lambda tail: visit(plan + tail))
    legal = game.legal_steps()
    onward = [s for s in legal if s.kind in steps.DIVES and s.cell == diving.cell]
    for nxt in onward:
        if deadline is not None and deadline.passed:
            return
        _dives(game, seat, ev, plan, nxt, seen, visit, deadline)
    if not onward:
        # A blocked dive stays open (manual fire) while a shot could clear its way.
        for shot in (s for s in legal if s.kind == steps.SHOOT):
            game.push(shot)
            _dive_goes_on(game, seat, ev, (*plan, shot), seen, visit, deadline)
            game.pop()


def plan_turn(
    game: Game,
    seat: int,
    ev: Evaluator,
    width: int,
    deadline: Deadline,
    rng: random.Random | None = None,
    noise: float = 0.0,
) -> list[Scored]:
    """Beam search over the orders of ``seat``'s plane actions, from ``game`` (where
    ``seat`` is to move). Returns the finished turns found, best first; when time runs
    out before any turn finishes, the best partial turn instead (the caller plans the
    rest later)."""
    work = game.copy(with_history=False)
    beam: list[Plan] = [()]
    finished: list[Scored] = []
    best_open: list[Scored] = []
    children: list[Scored] = []
    while beam and not deadline.passed:
        children.clear()
        for prefix in beam:
            for s in prefix:
                work.push(s)

            def visit(plan: Plan, prefix: Plan = prefix) -> None:
                score = ev.score(work, seat)
                if noise and rng is not None:
                    score += rng.gauss(0.0, noise)
                done = work.is_over or work.active != seat
                children.append(Scored(score, prefix + plan, done))

            actions(work, seat, ev, visit, deadline)
            for _ in prefix:
                work.pop()
            if deadline.passed:
                break
        finished.extend(c for c in children if c.finished)
        open_ = sorted((c for c in children if not c.finished), key=_by_score)
        best_open = open_[:width] or best_open
        beam = [c.plan for c in open_[:width]]
    if finished:
        return sorted(finished, key=_by_score)
    return best_open[:1]


def _by_score(s: Scored) -> float:
    return -s.score
