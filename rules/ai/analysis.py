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
* **mark** — by the loss, in planes' worth: an *inaccuracy* from 0.3 of a plane, a
  *mistake* from 0.6, a *blunder* from a whole plane (see :data:`THRESHOLDS`).

:func:`review` is a generator yielding one :class:`TurnReview` per player-turn as soon
as it is judged, so an interface can show progress; :func:`turn_count` says how many
to expect.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from i18n import N_, _, n_
from rules import notation, serialize
from rules.ai.deep import distinct, play_round
from rules.ai.evaluate import Evaluator, Weights
from rules.ai.search import Deadline, Plan, plan_turn
from rules.ai.strengths import TUNED_WEIGHTS
from rules.game import PLAY, Game
from rules.steps import Step

PLANE: Final = 10.0  # the evaluation's scale
THRESHOLDS: Final = (  # (mark, loss from which it applies, in planes), worst first
    ("blunder", 1.0),
    ("mistake", 0.6),
    ("inaccuracy", 0.3),
)
# a mark's word, where it is shown (the report, the graph's key)
MARK_WORDS: Final = {
    "blunder": N_("blunder"),
    "mistake": N_("mistake"),
    "inaccuracy": N_("inaccuracy"),
}
GAME: Final = 10.0  # planes: a loss this big decided the game (the evaluation's win is 100)
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
    def loss(self) -> float:
        """Value given away, in planes; at most :data:`GAME`, which means the turn
        threw away a game that was there to win (or not to lose)."""
        return min((self.best_value - self.value) / PLANE, GAME)


def mark_for(loss: float) -> str | None:
    """The mark a turn that gave away ``loss`` planes earns."""
    for name, at in THRESHOLDS:
        if loss >= at:
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
    loss = min((best_value - value) / PLANE, GAME)
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
        mark=mark_for(loss),
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


def report(reviews: list[TurnReview], names: list[str] | None = None) -> str:
    """The analysis as text, in the language being spoken: one line per turn (marked
    turns with the better turn in notation), then each seat's count of marks and average
    loss."""
    seats = sorted({r.seat for r in reviews})

    def who(seat: int) -> str:
        return names[seat] if names and seat < len(names) else f"P{seat + 1}"

    lines = [_("turn  player  played  (evaluation before -> after, value given away)")]
    for r in reviews:
        lost = _("the game") if r.loss >= GAME else _("{planes} planes", planes=f"{r.loss:.1f}")
        given = _("lost {what}", what=lost)
        line = (
            f"{r.number:>4}  {who(r.seat):<6}  {r.played}  "
            f"({r.before:+.1f} -> {r.after:+.1f}, {given})"
        )
        if r.mark:
            line += f"  {_(MARK_WORDS[r.mark]).upper()}"
            if r.better:
                line += "; " + _("better: {turn}", turn=r.better)
        lines.append(line)
    lines.append("")
    for seat in seats:
        mine = [r for r in reviews if r.seat == seat]
        counts = ", ".join(
            [
                n_("{n} blunder", "{n} blunders", _count(mine, "blunder")),
                n_("{n} mistake", "{n} mistakes", _count(mine, "mistake")),
                n_("{n} inaccuracy", "{n} inaccuracies", _count(mine, "inaccuracy")),
            ]
        )
        mean = sum(r.loss for r in mine) / len(mine)
        lines.append(
            _(
                "{who}: {turns}, {counts}; average loss {mean} planes",
                who=who(seat),
                turns=n_("{n} turn", "{n} turns", len(mine)),
                counts=counts,
                mean=f"{mean:.2f}",
            )
        )
    return "\n".join(lines)


def _count(reviews: list[TurnReview], mark: str) -> int:
    return sum(1 for r in reviews if r.mark == mark)
