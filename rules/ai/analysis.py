"""Post-game analysis: how much each player-turn of a game gave away.

Every player-turn is replayed and judged by a fixed-depth search with no clock, so the
same game always gets the same analysis, on any machine:

* **before** and **after** — the evaluation (:mod:`rules.ai.evaluate`, a plane = 10)
  at the start and at the end of the turn, from the mover's point of view.
* **value** — what a turn is worth once the other seats have answered it: the turn,
  then every other seat's best turn in seat order until the mover is to move again
  (:func:`rules.ai.deep.play_round`), scored for the mover.
* **best** — the turn, among the best ``candidates`` a beam search ``width`` wide finds,
  with the highest value; the played turn counts as a candidate too, so the loss
  (best value minus played value) is never negative.
* **chance** — a value as the mover's winning chance, as Lichess judges moves: a
  logistic curve of the planes ahead (:func:`chance`; even is 50 %, a plane ahead
  65 %), a decided game 100 % or 0 %.
* **mark** — by the winning chance the turn gave away (best minus played, in
  percentage points): an *inaccuracy* from 5, a *mistake* from 10, a *blunder* from 15
  (see :data:`THRESHOLDS`); from an even position that is about a third, two thirds and
  a whole plane. A turn that keeps a won game won costs nothing, however many planes
  a faster win would have taken.
* **accuracy** — as Lichess counts it: each turn's is a curve of the winning chance
  its mover lost across it (from the evaluation after the turn before, even at the
  start, to the evaluation after it: the report's numbers), 100 % for none; a
  player's accuracy is the mean over their turns. What one side loses across its
  turns the other gains across its own, so the side the game went against has the
  lower accuracy. (With more than two sides, each turn's chance given away against
  the better turn.)

The report speaks from one point of view, the first side's (P1's, with its partners),
on every row and in the graph: ``+2.5`` is two and a half planes ahead for P1, and a
decided game reads "Amy wins", never the evaluation's ±1000.

:func:`review` is a generator yielding one :class:`TurnReview` per player-turn as soon
as it is judged, so an interface can show progress; :func:`turn_count` says how many
to expect.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Final

from i18n import N_, _, n_
from rules import notation, serialize
from rules.ai.deep import distinct, play_round
from rules.ai.evaluate import WIN, Evaluator, Weights
from rules.ai.search import Deadline, Plan, plan_turn
from rules.ai.strengths import TUNED_WEIGHTS
from rules.game import PLAY, Game
from rules.steps import Step

PLANE: Final = 10.0  # the evaluation's scale
THRESHOLDS: Final = (  # (mark, winning chance given away from which it applies, in %)
    ("blunder", 15.0),
    ("mistake", 10.0),
    ("inaccuracy", 5.0),
)
STEEPNESS: Final = 0.62  # of the winning-chance curve, per plane: a plane ahead is 65 %
DECIDED: Final = WIN / 2  # a value this far from 0 is a game decided (won or lost)
# a mark's word, where it is shown (the report, the graph's key)
MARK_WORDS: Final = {
    "blunder": N_("blunder"),
    "mistake": N_("mistake"),
    "inaccuracy": N_("inaccuracy"),
}
NO_CLOCK: Final = 1e9  # seconds: the analysis is fixed-depth, never cut by time


@dataclass(frozen=True)
class AnalysisDepth:
    """How hard the analysis looks at each turn."""

    width: int = 6  # beam of the search for better turns
    candidates: int = 6  # best distinct turns taken round the table
    reply_width: int = 2  # beam of the next seat's reply; later seats play greedily


@dataclass(frozen=True)
class TurnReview:
    number: int  # the game's player-turn number
    first: int  # index in the game's history of the turn's first step
    seat: int
    played: str  # the turn in notation
    before: float  # evaluation at the turn's start, mover's view
    after: float  # evaluation at its end, mover's view
    value: float  # value of the played turn after the other seats' replies
    best_value: float
    better: str | None  # the best turn found, in notation, when it beats the played one
    played_plan: Plan
    better_plan: Plan
    mark: str | None  # "inaccuracy", "mistake", "blunder" or None

    @property
    def drop(self) -> float:
        """The mover's winning chance given away, in percentage points."""
        return max(chance(self.best_value) - chance(self.value), 0.0)


def chance(value: float) -> float:
    """A value for the mover as their winning chance, in %."""
    if abs(value) >= DECIDED:
        return 100.0 if value > 0 else 0.0
    return 100.0 / (1.0 + math.exp(-STEEPNESS * value / PLANE))


def mark_for(drop: float) -> str | None:
    """The mark a turn that gave away ``drop`` points of winning chance earns."""
    for name, at in THRESHOLDS:
        if drop >= at:
            return name
    return None


def start_of(game: Game) -> Game:
    """A new game standing where ``game`` began (clouds or start position included)."""
    data = serialize.to_dict(game)
    data["steps"] = []
    return serialize.from_dict(data)


def _segments(game: Game) -> list[tuple[int, int, int]]:
    """(first, end, turn) history indices of every player-turn played in full."""
    out: list[tuple[int, int, int]] = []
    history = game.history
    i = 0
    while i < len(history):
        turn = history[i].turn
        j = i
        while j < len(history) and history[j].turn == turn:
            j += 1
        tokens = [p.token for p in history[i:j]]
        setup = any(t.startswith("~") for t in tokens)
        conceded = any(":" in t or t == "draw" for t in tokens)
        if not setup and not conceded:
            out.append((i, j, turn))
        i = j
    return out


def position_before(game: Game, review: TurnReview) -> Game:
    """A new game standing where ``game`` stood when ``review``'s turn began."""
    replay = start_of(game)
    for played in game.history[: review.first]:
        serialize.apply_record(replay, played.token)
    return replay


def turn_count(game: Game) -> int:
    """How many turns :func:`review` will yield for ``game``."""
    return len(_segments(game))


def review(
    game: Game,
    depth: AnalysisDepth | None = None,
    weights: Weights | None = None,
    only: int | None = None,
) -> Iterator[TurnReview]:
    """Judge every fully played player-turn of ``game``, in order (see the module
    docstring); with ``only``, just the turn of that index (0 for the first of the
    :func:`turn_count`), so that separate processes can take a turn each. ``game``
    itself is not changed."""
    depth = depth or AnalysisDepth()
    replay = start_of(game)
    ev: Evaluator | None = None  # built once the clouds are placed
    tokens = [p.token for p in game.history]
    done = 0
    for index, (first, end, turn) in enumerate(_segments(game)):
        if only is not None and index > only:
            return
        for token in tokens[done:first]:
            serialize.apply_record(replay, token)
        done = first
        if replay.phase != PLAY or (only is not None and index != only):
            continue
        plan = tuple(Step.parse(t) for t in tokens[first:end])
        if ev is None:
            ev = Evaluator(replay, weights or TUNED_WEIGHTS)
        yield _judge(replay, plan, first, turn, ev, depth)


def _judge(
    game: Game, plan: Plan, first: int, turn: int, ev: Evaluator, depth: AnalysisDepth
) -> TurnReview:
    seat = game.active
    deadline = Deadline(NO_CLOCK)
    work = game.copy(with_history=False)
    before = ev.score(work, seat)
    for s in plan:
        work.push(s)
    after = ev.score(work, seat)
    played_key = work.state_key()
    for _step in plan:
        work.pop()
    played = play_round(work, seat, plan, ev, depth.reply_width, deadline)
    value = played[0].score if played else after
    best_value, best_plan = value, plan
    found = plan_turn(work, seat, ev, depth.width, deadline)
    for cand in distinct(work, found, depth.candidates):
        result = play_round(work, seat, cand.plan, ev, depth.reply_width, deadline)
        if (
            result is not None
            and result[0].score > best_value + 1e-9
            and _ends_in(work, cand.plan) != played_key
        ):
            best_value, best_plan = result[0].score, cand.plan
    better = best_plan if best_plan != plan else ()
    return TurnReview(
        number=turn,
        first=first,
        seat=seat,
        played=in_notation(game, plan, turn),
        before=before,
        after=after,
        value=value,
        best_value=best_value,
        better=in_notation(game, better, turn) if better else None,
        played_plan=plan,
        better_plan=better,
        mark=mark_for(max(chance(best_value) - chance(value), 0.0)),
    )


def _ends_in(work: Game, plan: Plan) -> object:
    for s in plan:
        work.push(s)
    key = work.state_key()
    for _step in plan:
        work.pop()
    return key


def in_notation(game: Game, plan: Plan, turn: int) -> str:
    """``plan``, played from ``game`` (standing at the start of player-turn ``turn``),
    written as the game record would write it."""
    line = game.copy()
    for s in plan:
        line.play(s)
    texts = [text for t, _end, text in notation.turn_texts(line) if t == turn]
    return texts[0] if texts else " ".join(s.token for s in plan)


def first_side(seats: int, teams: Sequence[int]) -> list[int]:
    """The seats of P1's side, whose point of view the report takes."""
    return [s for s in range(seats) if teams[s] == teams[0]]


def for_first_side(r: TurnReview, teams: Sequence[int]) -> float:
    """The value of ``r``'s turn (after the replies) from P1's side's point of view;
    with more than two sides, from the mover's, the only view the search scores."""
    if len(set(teams)) != 2 or teams[r.seat] == teams[0]:
        return r.value
    return -r.value


def evaluation_series(reviews: Sequence[TurnReview], teams: Sequence[int]) -> list[float]:
    """The evaluation after each turn and its replies, as the report and the graph
    show it (:func:`for_first_side`)."""
    return [for_first_side(r, teams) for r in reviews]


def evaluation_words(value: float, winner: str, loser: str) -> str:
    """A value in the report: planes ahead (``+1.5``), or who wins a decided game."""
    if abs(value) >= DECIDED:
        return _("{who} wins", who=winner if value > 0 else loser)
    return f"{value / PLANE:+.1f}"


def point_of_view(names: Sequence[str], teams: Sequence[int]) -> str:
    """Whose point of view the numbers take, in words (the report's and the graph's)."""
    if len(set(teams)) != 2:
        return _("each turn's number is for the player who moved it")
    first = " & ".join(names[s] for s in first_side(len(teams), teams))
    other = " & ".join(names[s] for s in range(len(teams)) if teams[s] != teams[0])
    return _(
        "in planes ahead for {first}: + is good for {first}, - for {other}",
        first=first,
        other=other,
    )


def report(
    reviews: list[TurnReview], names: list[str] | None = None, teams: Sequence[int] = (0, 1)
) -> str:
    """The analysis as text, in the language being spoken: which point of view it
    takes, one line per turn with the evaluation after it (marked turns with the
    winning chance given away and the better turn in notation), then each seat's
    marks and accuracy."""
    seats = sorted({r.seat for r in reviews})
    who = [
        names[s] if names and s < len(names) else f"P{s + 1}"
        for s in range(max(len(teams), *(r.seat + 1 for r in reviews), 1))
    ]
    two_sides = len(set(teams)) == 2
    first = " & ".join(who[s] for s in first_side(len(teams), teams))
    other = " & ".join(who[s] for s in range(len(teams)) if teams[s] != teams[0])
    view = point_of_view(who, teams)
    lines = [_("Evaluation after each turn and the replies, {view}.", view=view)]
    wide = max(len(who[s]) for s in seats) if seats else 2
    for r, value in zip(reviews, evaluation_series(reviews, teams), strict=True):
        if two_sides:
            shown = evaluation_words(value, first, other)
        else:
            shown = evaluation_words(value, who[r.seat], _("a rival"))
        line = f"{r.number:>4}  {who[r.seat]:<{wide}}  {shown:>7}  {r.played}"
        if r.mark:
            line += f"  {_(MARK_WORDS[r.mark]).upper()}: {given_away(r, who[r.seat])}"
            if r.better:
                line += "; " + _("better: {turn}", turn=r.better)
        lines.append(line)
    lines.append("")
    accuracy = accuracies(reviews, teams)
    for seat in seats:
        mine = [r for r in reviews if r.seat == seat]
        counts = ", ".join(
            [
                n_("{n} blunder", "{n} blunders", _count(mine, "blunder")),
                n_("{n} mistake", "{n} mistakes", _count(mine, "mistake")),
                n_("{n} inaccuracy", "{n} inaccuracies", _count(mine, "inaccuracy")),
            ]
        )
        lines.append(
            _(
                "{who}: {turns}, {counts}; accuracy {accuracy}%",
                who=who[seat],
                turns=n_("{n} turn", "{n} turns", len(mine)),
                counts=counts,
                accuracy=f"{accuracy[seat]:.0f}",
            )
        )
    return "\n".join(lines)


def move_accuracy(drop: float) -> float:
    """Lichess's accuracy of a move that lost ``drop`` points of winning chance (%)."""
    return min(max(103.1668 * math.exp(-0.04354 * drop) - 3.1669, 0.0), 100.0)


def accuracies(reviews: Sequence[TurnReview], teams: Sequence[int]) -> dict[int, float]:
    """Each seat's accuracy over its turns, in % (see the module's docstring)."""
    turns: dict[int, list[float]] = {}
    if len(set(teams)) == 2:
        before = 0.0
        for r, value in zip(reviews, evaluation_series(reviews, teams), strict=True):
            sign = 1.0 if teams[r.seat] == teams[0] else -1.0
            drop = chance(sign * before) - chance(sign * value)
            turns.setdefault(r.seat, []).append(move_accuracy(max(drop, 0.0)))
            before = value
    else:
        for r in reviews:
            turns.setdefault(r.seat, []).append(move_accuracy(r.drop))
    return {seat: sum(found) / len(found) for seat, found in turns.items()}


def given_away(r: TurnReview, mover: str) -> str:
    """What a marked turn cost its mover, in words."""
    if r.value <= -DECIDED:
        return _("it lost the game")
    if r.best_value >= DECIDED:
        return _("it missed a win")
    return _(
        "{who}'s winning chance {played}%, {best}% with the better turn",
        who=mover,
        best=f"{chance(r.best_value):.0f}",
        played=f"{chance(r.value):.0f}",
    )


def _count(reviews: list[TurnReview], mark: str) -> int:
    return sum(1 for r in reviews if r.mark == mark)
