"""The strengths of the computer player, and what makes them differ.

* **easy** plans its turn one plane action at a time, taking the action that looks best
  right now, and its judgement is blurred by a lot of noise, so it blunders often.
* **medium** plans its whole turn: a beam search over the orders in which its planes
  act, which finds kills that need two planes and keeps planes out of crossfires; a
  little noise (a fifth of a plane) makes it misjudge close positions now and then.
* **hard** plans with a wider beam, then checks its best few turns against the next
  seat's best reply (:mod:`rules.ai.deep`) and plays the turn that holds up best.
* **expert** searches deeper with the same machinery: more turns, each taken round the
  whole table (every other seat replies in turn, so in free-for-all it models all its
  rivals, not one), then its own answer to the replies, on a bigger budget, with the
  weights found by self-play tuning (``bench/tune.py``, which rewrites the block
  marked below).

The ladder (``bench/ai.py --ladder``, docs/ai.md) measures how far apart they are.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from rules.ai.deep import Depth
from rules.ai.evaluate import Weights


@dataclass(frozen=True)
class Strength:
    name: str
    width: int  # positions kept per level of the turn's beam search
    noise: float  # standard deviation added to every score (a plane is worth 10)
    budget: float  # seconds per decision by default
    weights: Weights = field(default_factory=Weights)
    depth: Depth | None = None  # how far round the table it looks (None: its own turn only)


# --- tuned: begin (written by bench/tune.py; edit by hand only to revert) ---
# bench/tune.py 2026-11-22: SPSA, 2000 self-play duels at medium (0.15 s/decision, seed 1)
# check: tuned vs before 96/200 = 48.0% ± 3.5 (-14 Elo); 2200 games in 1922 s
# not adopted; the values it found: second_to_last=4.56 height=1.12 doomed=9.24 blocked=3.02
# danger=5.60 cloud=0.14 aim=0.02 trophy=13.16 width=2.17
TUNED_WEIGHTS: Final = Weights(
    plane=10.0,
    second_to_last=4.0,
    height=(0.0, 1.2, 2.1, 2.8, 3.3, 3.6, 3.8),
    doomed=8.0,
    blocked=2.0,
    danger=7.0,
    cloud=0.6,
    aim=0.4,
    trophy=8.0,
)
EXPERT_WIDTH: Final = 8
EXPERT_DEPTH: Final = Depth(candidates=16, reply_width=3, answer=3)
# --- tuned: end ---

# Hard hears the next seat only; the expert models the whole table (in a duel the same).
HARD_DEPTH: Final = Depth(candidates=8, reply_width=3, answer=0, seats=1)

STRENGTHS: Final = {
    s.name: s
    for s in (
        Strength("easy", width=1, noise=4.0, budget=0.3),
        Strength("medium", width=3, noise=2.0, budget=0.6),
        Strength("hard", width=6, noise=0.0, budget=1.0, depth=HARD_DEPTH),
        Strength(
            "expert",
            width=EXPERT_WIDTH,
            noise=0.0,
            budget=1.5,
            weights=TUNED_WEIGHTS,
            depth=EXPERT_DEPTH,
        ),
    )
}

HARD_CAP: Final = 1.5  # seconds: no decision may take longer than 2 s, whatever is asked


def strength(name: str) -> Strength:
    """The named preset; ``ValueError`` lists the names."""
    found = STRENGTHS.get(name.lower())
    if found is None:
        raise ValueError(f"unknown strength {name!r}; strengths are: {', '.join(STRENGTHS)}")
    return found
