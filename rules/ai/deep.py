"""The search of hard and expert: iterative deepening over whole player-turns.

Both deepen as long as their deadline allows; the :class:`Depth` of a strength says
how far. The expert goes round the whole table; hard hears only the next seat and
gives no answer (``seats=1, answer=0``):

1. **Its own turn** — the beam search of :func:`~rules.ai.search.plan_turn`, on a
   share of the budget so the deeper levels get time. Turns that
   end in the same position (planes acting in a different order, nothing in between
   that matters) are one candidate: checking both would only spend time twice.
2. **The round** — for each candidate, best first, every other seat plays its own
   best turn in seat order until the player is to move again (a *max-n* reply
   model: each seat maximises its own evaluation, teammates included). In a duel that
   is the opponent's reply; in free-for-all and Circle of Death it is all the rivals
   in turn, so a turn that leaves a plane for the *second* rival to kill is seen. The
   first reply gets a beam ``reply_width`` wide, later seats a greedy one (they are
   further away and many more of them).
3. **Its answer** — for the ``answer`` best candidates after the round, its own best
   turn again; the one whose answer scores best wins. This catches turns that look
   equal after the round but where one leaves a kill set up for next time.

Every level compares candidates evaluated to the same depth only (a position with the
player to move is not scored like one with a rival to move), and a level cut short by
the deadline is used only for the candidates it finished.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from rules.ai.evaluate import Evaluator
from rules.ai.search import Clock, Deadline, Plan, Scored, plan_turn
from rules.game import Game

FIRST_LEVEL_SHARE = 0.35  # of the budget, for the player's own beam search


@dataclass(frozen=True)
class Depth:
    """How far a deep strength (hard, expert) looks beyond its own turn."""

    candidates: int  # turns taken round the table
    reply_width: int  # beam of the next seat's reply; later seats play greedily
    answer: int  # candidates given the player's own answer (0: none)
    seats: int = 0  # how many of the following seats reply (0: all, round the table)


def deep_turn(
    game: Game,
    seat: int,
    ev: Evaluator,
    width: int,
    depth: Depth,
    budget: float,
    clock: Clock = time.perf_counter,
) -> Scored | None:
    """The turn for ``seat`` (to move in ``game``) from a beam ``width`` wide, looked
    at as far as ``depth`` says, or ``None`` if there is no action to plan. May be a
    partial turn when the deadline cut the first level short; the player then plans
    the rest at its next step."""
    deadline = Deadline(budget, clock)
    found = plan_turn(game, seat, ev, width, Deadline(budget * FIRST_LEVEL_SHARE, clock))
    if not found:
        found = plan_turn(game, seat, ev, 1, deadline)
    if not found or not found[0].finished or len(found) == 1:
        return found[0] if found else None
    work = game.copy(with_history=False)
    candidates = distinct(work, found, depth.candidates)
    rounds: list[tuple[Scored, Plan]] = []  # (candidate scored after the round, replies)
    for cand in candidates:
        replies = play_round(work, seat, cand.plan, ev, depth.reply_width, deadline, depth.seats)
        if replies is None:
            break
        rounds.append(replies)
    if not rounds:
        return candidates[0]
    rounds.sort(key=lambda r: -r[0].score)
    best = rounds[0][0]
    if depth.answer and len(rounds) > 1:
        answered = _answers(work, seat, rounds[: depth.answer], ev, deadline)
        if answered is not None:
            best = answered
    return best


def distinct(work: Game, found: list[Scored], limit: int) -> list[Scored]:
    """Of ``found`` (best first, from the position ``work`` stands in), the best
    ``limit`` finished turns that end in different positions."""
    seen: set[object] = set()
    out: list[Scored] = []
    for cand in found:
        if not cand.finished:
            continue
        for s in cand.plan:
            work.push(s)
        key = work.state_key()
        for _ in cand.plan:
            work.pop()
        if key not in seen:
            seen.add(key)
            out.append(cand)
            if len(out) == limit:
                break
    return out


def play_round(
    work: Game,
    seat: int,
    plan: Plan,
    ev: Evaluator,
    reply_width: int,
    deadline: Deadline,
    seats: int = 0,
) -> tuple[Scored, Plan] | None:
    """The value of ``plan`` for ``seat`` and the replies it met: ``plan`` followed
    by every other seat's best turn until ``seat`` is to move again (or only the next
    ``seats`` of them), scored for ``seat``; ``None`` if the deadline passed on the
    way."""
    pushed: list[int] = [0]

    def push_all(p: Plan) -> None:
        for s in p:
            work.push(s)
        pushed[0] += len(p)

    push_all(plan)
    replies: Plan = ()
    width = reply_width
    complete = True
    replied = 0
    while not work.is_over and work.active != seat and not (seats and replied == seats):
        found = plan_turn(work, work.active, ev, width, deadline)
        if deadline.passed or not found or not found[0].finished:
            complete = False
            break
        push_all(found[0].plan)
        replies += found[0].plan
        replied += 1
        width = 1
    score = ev.score(work, seat)
    for _ in range(pushed[0]):
        work.pop()
    if not complete:
        return None
    return Scored(score, plan, True), replies


def _answers(
    work: Game, seat: int, rounds: list[tuple[Scored, Plan]], ev: Evaluator, deadline: Deadline
) -> Scored | None:
    """Of the candidates (after their round of replies), the one whose best answer
    scores best; ``None`` unless every one of them could be answered in time."""
    best: Scored | None = None
    for cand, replies in rounds:
        line = cand.plan + replies
        for s in line:
            work.push(s)
        score = ev.score(work, seat)
        if not work.is_over and work.active == seat:
            found = plan_turn(work, seat, ev, 2, deadline)
            if found and found[0].finished and not deadline.passed:
                score = found[0].score
            else:
                for _ in line:
                    work.pop()
                return None
        for _ in line:
            work.pop()
        if best is None or score > best.score:
            best = Scored(score, cand.plan, True)
    return best
