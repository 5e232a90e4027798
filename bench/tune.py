"""Tune the computer player's evaluation weights and search parameters by self-play.

SPSA (simultaneous perturbation stochastic approximation), as chess engines tune by
self-play: every iteration draws a random sign (+1/-1) for every parameter, builds two
players, theta + c·sign and theta - c·sign, and lets them play a pair of duels (same
clouds, seats swapped). The pair's result, +1 … -1 for the plus side, nudges every
parameter in its sign's direction: one noisy game pair estimates the whole gradient.
Iterations run in parallel batches on a process pool; a batch's nudges are added up.

At the end the tuned parameters play the starting ones (``--check`` duels, seats
alternating). If they scored at least half, they are written, with the games and score
that justify them, to the block between the ``tuned`` markers of
``rules/ai/strengths.py`` (the expert's weights; search parameters too when tuning the
expert itself); if not, the block keeps its values and records the rejected run.
``--no-write`` only prints. Every line of the log also goes to ``--log``.

    nice -n 19 .venv/bin/python bench/tune.py --iterations 100 --workers 1
    .venv/bin/python bench/tune.py --level expert --iterations 2000   # hours
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import math
import os
import random
import re
import sys
import textwrap
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.ai import ComputerPlayer
from rules.ai.deep import Depth
from rules.ai.elo import standard_error
from rules.ai.evaluate import Weights
from rules.ai.strengths import EXPERT_DEPTH, EXPERT_WIDTH, TUNED_WEIGHTS, strength
from rules.modes import Settings
from rules.players import new_game

STRENGTHS_FILE = Path(__file__).resolve().parent.parent / "rules" / "ai" / "strengths.py"
TURN_LIMIT = 300
BASE_HEIGHT = Weights().height


@dataclass(frozen=True)
class Param:
    name: str  # a Weights field, "height" (a scale on the height curve) or a search field
    c: float  # perturbation: big enough that a game pair can tell the two sides apart
    lo: float
    hi: float
    integer: bool = False


WEIGHT_PARAMS = (
    Param("second_to_last", 1.5, 0.0, 12.0),
    Param("height", 0.15, 0.3, 3.0),
    Param("doomed", 2.0, 0.0, 15.0),
    Param("blocked", 1.0, 0.0, 8.0),
    Param("danger", 2.0, 0.0, 15.0),
    Param("cloud", 0.4, 0.0, 4.0),
    Param("aim", 0.4, 0.0, 4.0),
    Param("trophy", 2.0, 0.0, 20.0),
)
SEARCH_PARAMS = (Param("width", 1.0, 2.0, 14.0, integer=True),)
EXPERT_PARAMS = (
    Param("candidates", 3.0, 4.0, 32.0, integer=True),
    Param("reply_width", 1.0, 1.0, 6.0, integer=True),
    Param("answer", 1.0, 0.0, 6.0, integer=True),
)

Theta = dict[str, float]
GameJob = tuple[str, float, Theta, Theta, int]  # level, budget, seat-0 theta, seat-1, seed


def start_theta(level: str) -> Theta:
    w = TUNED_WEIGHTS
    theta: Theta = {p.name: float(getattr(w, p.name)) for p in WEIGHT_PARAMS if p.name != "height"}
    theta["height"] = w.height[-1] / BASE_HEIGHT[-1]
    if level == "expert":
        theta["width"] = float(EXPERT_WIDTH)
        theta.update({p.name: float(getattr(EXPERT_DEPTH, p.name)) for p in EXPERT_PARAMS})
    else:
        theta["width"] = float(strength(level).width)
    return theta


def params_for(level: str) -> tuple[Param, ...]:
    return WEIGHT_PARAMS + SEARCH_PARAMS + (EXPERT_PARAMS if level == "expert" else ())


def weights_of(theta: Theta) -> Weights:
    fields = {p.name: round(theta[p.name], 2) for p in WEIGHT_PARAMS if p.name != "height"}
    height = tuple(round(h * theta["height"], 2) for h in BASE_HEIGHT)
    return Weights(height=height, **fields)


def player_of(level: str, budget: float, theta: Theta, seed: int) -> ComputerPlayer:
    base = strength(level)
    search: dict[str, object] = {"width": round(theta["width"])}
    if base.depth is not None:
        search["depth"] = Depth(**{p.name: round(theta[p.name]) for p in EXPERT_PARAMS})
    # Noise (a weaker preset's blur) would only hide what the weights are worth.
    tuned = dataclasses.replace(base, noise=0.0, **search)  # type: ignore[arg-type]
    # CPU time, so that other work on the machine does not change what a budget buys
    return ComputerPlayer(
        tuned, time_budget=budget, seed=seed, weights=weights_of(theta), clock=time.thread_time
    )


def play(job: GameJob) -> float:
    """One duel; seat 0's points (1 win, ½ draw or turn limit, 0 loss)."""
    level, budget, first, second, seed = job
    game = new_game(Settings(turn_limit=TURN_LIMIT), seed)
    players = [player_of(level, budget, first, seed), player_of(level, budget, second, seed + 1)]
    while not game.is_over:
        game.play(players[game.active].choose(game))
    assert game.result is not None
    winners = game.result.winners
    return 0.5 if not winners else float(0 in winners)


def clip(theta: Theta, params: Sequence[Param]) -> Theta:
    return {**theta, **{p.name: min(p.hi, max(p.lo, theta[p.name])) for p in params}}


def shifted(theta: Theta, params: Sequence[Param], signs: Sequence[int], scale: float) -> Theta:
    moved = {p.name: theta[p.name] + scale * s * p.c for p, s in zip(params, signs, strict=True)}
    return clip({**theta, **moved}, params)


def spsa(
    args: argparse.Namespace,
    run: Callable[[list[GameJob]], list[float]],
    log: Callable[[str], None],
) -> tuple[Theta, int]:
    params = params_for(args.level)
    theta = start_theta(args.level)
    rng = random.Random(args.seed)
    batch = max(1, args.workers // 2)
    games = 0
    k = 0
    while k < args.iterations:
        n = min(batch, args.iterations - k)
        # The perturbation shrinks slowly and the step faster (the usual SPSA decay).
        c_k = 1 / (1 + k / args.iterations) ** 0.101
        a_k = args.rate / (1 + 10 * k / args.iterations) ** 0.602
        draws = [[rng.choice((-1, 1)) for _ in params] for _ in range(n)]
        jobs: list[GameJob] = []
        for i, signs in enumerate(draws):
            plus = shifted(theta, params, signs, c_k)
            minus = shifted(theta, params, signs, -c_k)
            seed = args.seed * 1_000_003 + k + i
            jobs += [
                (args.level, args.budget, plus, minus, seed),
                (args.level, args.budget, minus, plus, seed),
            ]
        points = run(jobs)
        games += len(jobs)
        total = 0.0
        for i, signs in enumerate(draws):
            result = points[2 * i] - points[2 * i + 1]  # +1: plus won both, -1: minus did
            total += result
            for p, s in zip(params, signs, strict=True):
                theta[p.name] += a_k * c_k * p.c * result * s
        theta = clip(theta, params)
        k += n
        if k % args.report < n or k == args.iterations:
            log(f"iter {k:5d} games {games:6d} last batch {total:+.1f}  {_fmt(theta, params)}")
    return theta, games


def _fmt(theta: Theta, params: Sequence[Param]) -> str:
    return " ".join(f"{p.name}={theta[p.name]:.2f}" for p in params)


def check(
    args: argparse.Namespace, tuned: Theta, run: Callable[[list[GameJob]], list[float]]
) -> tuple[float, int]:
    """Points of the tuned parameters against the starting ones, seats alternating."""
    start = start_theta(args.level)
    jobs: list[GameJob] = []
    for n in range(args.check):
        seed = 777_000 + n
        jobs.append(
            (args.level, args.budget, tuned, start, seed)
            if n % 2 == 0
            else (args.level, args.budget, start, tuned, seed)
        )
    points = run(jobs)
    return sum(p if n % 2 == 0 else 1 - p for n, p in enumerate(points)), len(points)


def write_block(theta: Theta, level: str, note: list[str]) -> None:
    w = weights_of(theta)
    lines = [f"# {part}" for line in note for part in textwrap.wrap(line, 96)]
    lines.append("TUNED_WEIGHTS: Final = Weights(")
    lines += [f"    {f.name}={getattr(w, f.name)!r}," for f in dataclasses.fields(w)]
    lines.append(")")
    if level == "expert":
        depth = Depth(**{p.name: round(theta[p.name]) for p in EXPERT_PARAMS})
        lines.append(f"EXPERT_WIDTH: Final = {round(theta['width'])}")
        lines.append(f"EXPERT_DEPTH: Final = {depth!r}")
    else:
        lines.append(f"EXPERT_WIDTH: Final = {EXPERT_WIDTH}")
        lines.append(f"EXPERT_DEPTH: Final = {EXPERT_DEPTH!r}")
    text = STRENGTHS_FILE.read_text(encoding="utf-8")
    block = re.compile(r"(# --- tuned: begin[^\n]*\n).*?(# --- tuned: end)", re.S)
    if not block.search(text):
        raise SystemExit(f"no tuned block in {STRENGTHS_FILE}")
    new = block.sub(lambda m: m.group(1) + "\n".join(lines) + "\n" + m.group(2), text)
    STRENGTHS_FILE.write_text(new, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--level",
        choices=("medium", "expert"),
        default="medium",
        help="strength whose games tune: medium (fast) or the expert itself",
    )
    parser.add_argument("--budget", type=float, default=0.15, help="seconds per decision")
    parser.add_argument("--iterations", type=int, default=500, help="game pairs")
    parser.add_argument("--rate", type=float, default=0.1, help="step, in perturbations")
    parser.add_argument("--check", type=int, default=100, help="final tuned-vs-start duels")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--report", type=int, default=10, help="log every N iterations")
    parser.add_argument("--log", default="", help="also append the log to this file")
    parser.add_argument("--no-write", action="store_true", help="do not touch strengths.py")
    args = parser.parse_args()
    strength(args.level)
    params = params_for(args.level)

    def log(line: str) -> None:
        print(line, flush=True)
        if args.log:
            with open(args.log, "a", encoding="utf-8") as f:
                f.write(line + "\n")

    pool = Pool(args.workers) if args.workers > 1 else None

    def run(jobs: list[GameJob]) -> list[float]:
        return pool.map(play, jobs, chunksize=1) if pool else [play(j) for j in jobs]

    began = time.perf_counter()
    log(
        f"SPSA: level {args.level}, {args.budget} s per decision, {args.iterations} game pairs, "
        f"{args.workers} workers, seed {args.seed}"
    )
    log(f"before: {_fmt(start_theta(args.level), params)}")
    tuned, games = spsa(args, run, log)
    log(f"after:  {_fmt(tuned, params)}")
    score, played = check(args, tuned, run)
    if pool:
        pool.close()
    rate, err = score / played, standard_error(score, played)
    elo = 400 * math.log10(max(rate, 1e-3) / max(1 - rate, 1e-3))
    summary = (
        f"check: tuned vs before {score:g}/{played} = {100 * rate:.1f}% ± {100 * err:.1f} "
        f"({elo:+.0f} Elo); {games + played} games in {time.perf_counter() - began:.0f} s"
    )
    log(summary)
    if not args.no_write:
        # Only a check the tuned side did not lose changes the table; either way the
        # run is recorded there, so the values in use always come with their evidence.
        adopted = score >= played / 2
        day = datetime.date.today().isoformat()
        note = [
            f"bench/tune.py {day}: SPSA, {games} self-play duels at {args.level} "
            f"({args.budget} s/decision, seed {args.seed})",
            summary,
            "tuned values adopted"
            if adopted
            else f"not adopted; the values it found: {_fmt(tuned, params)}",
        ]
        write_block(tuned if adopted else start_theta(args.level), args.level, note)
        log(f"{'written' if adopted else 'run recorded'} in {STRENGTHS_FILE.name}")


if __name__ == "__main__":
    main()
