"""Puzzles: positions where one whole player-turn is clearly best, and how a try is judged.

A turn is judged by its **outcome**: the turn, then every other seat's best reply in seat
order until the mover is to move again (each seat plays the beam search of
:func:`rules.ai.search.plan_turn`, fixed-depth, no clock), scored as *material* from the
mover's side — a won game above everything, then the mover's side's planes left, then
the fewest planes left to the hostile seats (see :func:`material`). Material is counted
in whole planes, so two turns are either equally good or one is at least a plane better:
there is no "almost as good".

* :func:`mine` looks at a position with a small search (:data:`MINE`) and proposes an
  answer when some of the best-looking turns fall short of the best outcome.
* :func:`verify` checks a proposal with a deeper search (:data:`VERIFY`: a wider beam,
  more candidate turns, wider replies). The puzzle is kept only when no turn found
  beats the answer and some found turns fall short of it; every turn whose outcome is
  as good as the answer's solves the puzzle (the equally good alternatives).
* :func:`judge` scores a person's try with the verifier's search.

Everything here is deterministic: the same position always gives the same verdict.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from i18n import N_
from rules import events, steps
from rules.ai.deep import distinct
from rules.ai.evaluate import Evaluator
from rules.ai.search import Deadline, Plan, plan_turn
from rules.ai.strengths import TUNED_WEIGHTS
from rules.events import Event
from rules.game import Game

NO_CLOCK: Final = 1e9  # fixed-depth: never cut by time
WIN: Final = 1_000_000
OWN: Final = 100  # one of the mover's side's planes outweighs all hostile planes


@dataclass(frozen=True)
class Search:
    """How hard a position is looked at."""

    width: int  # beam of the mover's own turn
    candidates: int  # best distinct turns whose outcomes are compared
    reply_width: int  # beam of each reply


MINE: Final = Search(width=3, candidates=6, reply_width=1)
VERIFY: Final = Search(width=6, candidates=12, reply_width=2)
MOST_SOLVING: Final = 0.5  # a puzzle where more of the candidates solve it is too easy


@dataclass(frozen=True)
class Line:
    """A turn played out: its outcome and what happened on the way."""

    plan: Plan
    outcome: int
    own: tuple[Event, ...]  # the mover's turn
    replies: tuple[Event, ...]  # the other seats' turns after it


def material(game: Game, seat: int) -> int:
    """The position's material for ``seat``'s side: a won game, then own planes left,
    then the fewest planes left to hostile seats."""
    if game.is_over:
        assert game.result is not None
        winners = game.result.winners
        if not winners:
            return 0
        return WIN if any(not game.hostile(seat, w) for w in winners) else -WIN
    own = sum(game.planes_left(s) for s in game.alive() if not game.hostile(seat, s))
    hostile = sum(game.planes_left(s) for s in game.alive() if game.hostile(seat, s))
    return own * OWN - hostile


def play_out(game: Game, plan: Plan, reply_width: int, ev: Evaluator | None = None) -> Line:
    """``plan`` (a whole turn of the seat to move in ``game``) and the round of replies
    after it, scored for the mover. ``game`` is not changed."""
    work = game.copy(with_history=False)
    seat = work.active
    evaluator = ev or Evaluator(work, TUNED_WEIGHTS)
    own: list[Event] = []
    for s in plan:
        own.extend(work.push(s))
    replies: list[Event] = []
    while not work.is_over and work.active != seat:
        found = plan_turn(work, work.active, evaluator, reply_width, Deadline(NO_CLOCK))
        if not found:
            break
        for s in found[0].plan:
            replies.extend(work.push(s))
    return Line(plan, material(work, seat), tuple(own), tuple(replies))


def candidates(game: Game, search: Search, ev: Evaluator) -> list[Plan]:
    """The best distinct whole turns a beam ``search.width`` wide finds, best first."""
    found = plan_turn(game, game.active, ev, search.width, Deadline(NO_CLOCK))
    work = game.copy(with_history=False)
    return [s.plan for s in distinct(work, found, search.candidates)]


def end_key(game: Game, plan: Plan) -> object:
    """Where ``plan`` leaves the game: turns ending alike are the same turn."""
    work = game.copy(with_history=False)
    for s in plan:
        work.push(s)
    return work.state_key()


def mine(game: Game, ev: Evaluator | None = None) -> Plan | None:
    """A proposed answer for the position, or None when it is no puzzle: the small
    search finds a best outcome that some of its best-looking turns miss."""
    evaluator = ev or Evaluator(game, TUNED_WEIGHTS)
    plans = candidates(game, MINE, evaluator)
    if len(plans) < 2:
        return None
    lines = [play_out(game, p, MINE.reply_width, evaluator) for p in plans]
    best = max(line.outcome for line in lines)
    solving = [line for line in lines if line.outcome == best]
    if len(solving) == len(lines) or len(solving) / len(lines) > MOST_SOLVING:
        return None
    return solving[0].plan


@dataclass(frozen=True)
class SearchVerdict:
    """What the deeper search made of a proposed answer."""

    kept: bool
    why: str  # "kept", "beaten" (a turn found is better: ambiguous) or "too easy"
    best: int = 0  # the outcome that solves the puzzle
    tried: int = 0  # distinct turns compared
    solving: int = 0  # of them, how many solve it
    themes: tuple[str, ...] = ()
    rating: int = 0


def verify(game: Game, answer: Plan, ev: Evaluator | None = None) -> SearchVerdict:
    """Check ``answer`` with :data:`VERIFY` (deeper than :data:`MINE`, which proposed
    it): kept when no turn found does better and some fall short."""
    evaluator = ev or Evaluator(game, TUNED_WEIGHTS)
    plans = candidates(game, VERIFY, evaluator)
    answer_key = end_key(game, answer)
    keys = [end_key(game, p) for p in plans]
    if answer_key not in keys:
        plans.append(answer)
        keys.append(answer_key)
    lines = [play_out(game, p, VERIFY.reply_width, evaluator) for p in plans]
    mine_line = lines[keys.index(answer_key)]
    best = max(line.outcome for line in lines)
    if mine_line.outcome < best:
        return SearchVerdict(False, "beaten", best, len(lines))
    solving = sum(1 for line in lines if line.outcome == best)
    if solving == len(lines) or solving / len(lines) > MOST_SOLVING:
        return SearchVerdict(False, "too easy", best, len(lines), solving)
    rank = keys.index(answer_key)
    themes = themes_of(game, mine_line, [line for line in lines if line.outcome < best])
    return SearchVerdict(
        True,
        "kept",
        best,
        len(lines),
        solving,
        themes,
        difficulty(game, answer, rank, solving, len(lines), themes),
    )


def themes_of(game: Game, answer: Line, failing: list[Line]) -> tuple[str, ...]:
    """What the answer is about, from what happens in it and in the turns that fail (in
    English, as the puzzle set stores them: shown with ``_(theme)``)."""
    seat = game.active
    found: list[str] = []
    kills = sum(1 for e in answer.own if isinstance(e, events.ShotDown) and e.by == seat)
    if answer.outcome == WIN:
        found.append(N_("winning turn"))
    if kills >= 2:
        found.append(N_("double kill"))
    elif kills == 1:
        found.append(N_("double crosshairs"))
    dives = any(s.kind in steps.DIVES for s in answer.plan)
    if kills and dives:
        found.append(N_("dive attack"))
    crashed = any(
        isinstance(e, events.Crashed) and game.hostile(seat, e.seat) for e in answer.replies
    )
    if crashed:
        found.append(N_("forced crash"))
    lost_elsewhere = any(
        any(
            isinstance(e, (events.ShotDown, events.Crashed)) and not game.hostile(seat, e.seat)
            for e in line.replies
        )
        for line in failing
    )
    lost_here = any(
        isinstance(e, (events.ShotDown, events.Crashed)) and not game.hostile(seat, e.seat)
        for e in answer.replies
    )
    if lost_elsewhere and not lost_here:
        found.append(N_("escape"))
    work = game.copy(with_history=False)
    for s in answer.plan:
        work.push(s)
    if any(work.is_cloud(p.cell) for p in work.planes(seat)) and "escape" in found:
        found.append(N_("cloud cover"))
    return tuple(found) or (N_("quiet move"),)


def difficulty(
    game: Game, answer: Plan, rank: int, solving: int, tried: int, themes: tuple[str, ...]
) -> int:
    """A puzzle rating on the Glicko scale (1500 = average): harder when the search
    itself did not put the answer first, when few turns solve it, when the answer is
    a long turn, when the point only shows in the replies, and with more players."""
    actions = sum(1 for s in answer if s.kind not in (steps.SHOOT, steps.END))
    rating = 1000.0
    rating += 150 * min(rank, 4)
    rating += 400 * (1 - solving / tried)
    rating += 60 * min(max(actions - 1, 0), 5)
    if "escape" in themes or "forced crash" in themes:
        rating += 150
    rating += 80 * (game.seats - 2)
    return int(round(rating / 10) * 10)


@dataclass(frozen=True)
class Puzzle:
    """One shipped puzzle."""

    id: str
    position: str  # position text at the start of the turn to find
    answer: str  # one solving turn, in notation
    best: int  # the outcome a try must reach
    rating: int
    themes: tuple[str, ...] = field(default=())
    source: str = ""

    def to_dict(self) -> dict[str, object]:
        return {
            "id": self.id,
            "position": self.position,
            "answer": self.answer,
            "best": self.best,
            "rating": self.rating,
            "themes": list(self.themes),
            "source": self.source,
        }

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Puzzle:
        themes = data.get("themes", [])
        assert isinstance(themes, list)
        return cls(
            id=str(data["id"]),
            position=str(data["position"]),
            answer=str(data["answer"]),
            best=int(str(data["best"])),
            rating=int(str(data["rating"])),
            themes=tuple(str(t) for t in themes),
            source=str(data.get("source", "")),
        )


def judge(game: Game, plan: Plan) -> Line:
    """A person's whole turn from ``game`` played out as the verifier plays it; it
    solves a puzzle when its outcome reaches the puzzle's ``best``."""
    return play_out(game, plan, VERIFY.reply_width)
