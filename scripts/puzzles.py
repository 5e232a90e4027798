"""Generate the shipped puzzle set from the computer's self-play, reproducibly from a seed.

    .venv/bin/python scripts/puzzles.py --seed 1 --minutes 40 --out rules/training/data/puzzles.json

Games are played by a quick, slightly noisy computer (a beam of 2) in the modes listed,
on random clouds; from the fourth player-turn on, each position at a turn's start is
offered to :func:`rules.training.puzzles.mine`, and every proposal is checked by the
deeper :func:`~rules.training.puzzles.verify`. The figures (positions tried, proposed,
kept, rejected and why, time) are printed at the end and kept in the output file.
With ``--verify FILE`` it re-verifies a whole puzzle file instead and prints the same
figures (the check the tests make on a sample); ``--merge A B … --out C`` joins runs.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

from rules import clouds, position
from rules.ai.evaluate import Evaluator
from rules.ai.search import Deadline, plan_turn
from rules.ai.strengths import TUNED_WEIGHTS
from rules.game import Game
from rules.modes import Settings, mode
from rules.notation import play_tokens
from rules.training.puzzles import NO_CLOCK, Puzzle, mine, verify

MODES = ("duel", "ffa3", "2v2", "cod4")
FIRST_TURN = 4  # the opening placements make poor puzzles
MAX_TURNS = 80


def _positions(seed: int, key: str) -> list[str]:
    """The turn-start positions of one self-play game, as position text."""
    rng = random.Random(seed)
    settings = Settings(mode=key)
    game = Game(settings, clouds=clouds.random_layout(mode(key), seed))
    ev = Evaluator(game, TUNED_WEIGHTS)
    found: list[str] = []
    while not game.is_over and game.turn < MAX_TURNS:
        if game.turn >= FIRST_TURN and game.at_turn_start:
            found.append(position.format_position(game))
        plan = plan_turn(game, game.active, ev, 2, Deadline(NO_CLOCK), rng, noise=2.0)
        if not plan:
            break
        for s in plan[0].plan:
            if game.is_over:
                break
            game.push(s)
    return found


def generate(
    seed: int, minutes: float, want: int, every: int, modes: tuple[str, ...] = MODES
) -> tuple[list[Puzzle], Counter[str]]:
    rng = random.Random(seed)
    figures: Counter[str] = Counter()
    kept: list[Puzzle] = []
    seen: set[str] = set()
    until = time.monotonic() + minutes * 60
    game_no = 0
    while len(kept) < want and time.monotonic() < until:
        key = modes[game_no % len(modes)]
        game_seed = rng.randrange(1 << 30)
        game_no += 1
        figures["games"] += 1
        for n, text in enumerate(_positions(game_seed, key)):
            if n % every or text in seen or time.monotonic() >= until or len(kept) >= want:
                continue
            seen.add(text)
            figures["tried"] += 1
            game = position.parse(text)
            ev = Evaluator(game, TUNED_WEIGHTS)
            answer = mine(game, ev)
            if answer is None:
                continue
            figures["proposed"] += 1
            verdict = verify(game, answer, ev)
            if not verdict.kept:
                figures[f"rejected: {verdict.why}"] += 1
                continue
            figures["kept"] += 1
            figures[f"kept {key}"] += 1
            line = game.copy()
            for s in answer:
                line.push(s)
            tokens = [p.token for p in line.history[len(game.history) :]]
            kept.append(
                Puzzle(
                    id=f"{seed}-{len(kept) + 1:04d}",
                    position=text,
                    answer=" ".join(tokens),
                    best=verdict.best,
                    rating=verdict.rating,
                    themes=verdict.themes,
                    source=f"self-play {key} seed {game_seed}, turn {game.turn}",
                )
            )
            print(
                f"{len(kept):4d} kept · {figures['tried']} tried · {key} t{game.turn} "
                f"{verdict.rating} {', '.join(verdict.themes)}",
                flush=True,
            )
    return kept, figures


def reverify(path: Path, part: int = 0, parts: int = 1) -> Counter[str]:
    """Verify every puzzle of the file again (every ``parts``-th one from ``part``, to
    share the work between processes)."""
    figures: Counter[str] = Counter()
    for raw in json.loads(path.read_text())["puzzles"][part::parts]:
        puzzle = Puzzle.from_dict(raw)
        game = position.parse(puzzle.position)
        work = game.copy()
        plan = tuple(step for step, _ in play_tokens(work, puzzle.answer.split()))
        verdict = verify(game, plan)
        same = verdict.kept and verdict.best == puzzle.best
        figures["checked"] += 1
        figures["still verified" if same else "changed"] += 1
    return figures


def merge(paths: list[Path]) -> dict[str, object]:
    """Several generator runs as one set: the puzzles (a position once), the figures summed."""
    figures: Counter[str] = Counter()
    kept: list[dict[str, object]] = []
    seen: set[object] = set()
    seeds = []
    for path in paths:
        data = json.loads(path.read_text())
        seeds.append(data["seed"])
        figures.update(data["figures"])
        for raw in data["puzzles"]:
            if raw["position"] not in seen:
                seen.add(raw["position"])
                kept.append(raw)
    figures["kept after merging"] = len(kept)
    return {
        "generator": "scripts/puzzles.py",
        "seeds": seeds,
        "figures": dict(sorted(figures.items())),
        "puzzles": kept,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--minutes", type=float, default=40.0)
    parser.add_argument("--want", type=int, default=600)
    parser.add_argument("--every", type=int, default=2, help="offer every n-th position")
    parser.add_argument("--modes", default=",".join(MODES), help="the self-play modes, in turn")
    parser.add_argument("--out", type=Path, default=Path("rules/training/data/puzzles.json"))
    parser.add_argument("--verify", type=Path, help="re-verify this puzzle file instead")
    parser.add_argument("--merge", type=Path, nargs="+", help="merge these runs into --out")
    parser.add_argument("--part", default="1/1", help="with --verify: this share, e.g. 1/2")
    args = parser.parse_args(argv)
    started = time.monotonic()
    if args.merge:
        merged = merge(args.merge)
        args.out.write_text(json.dumps(merged, indent=1) + "\n")
        figures_of = merged["figures"]
        assert isinstance(figures_of, dict)
        for name, n in figures_of.items():
            print(f"{name}: {n}")
        return 0
    if args.verify is not None:
        part, _, parts = args.part.partition("/")
        figures = reverify(args.verify, int(part) - 1, int(parts))
        for name, n in sorted(figures.items()):
            print(f"{name}: {n}")
        print(f"time: {time.monotonic() - started:.0f} s")
        return 0 if figures["changed"] == 0 else 1
    modes = tuple(m.strip() for m in args.modes.split(",") if m.strip())
    kept, figures = generate(args.seed, args.minutes, args.want, args.every, modes)
    figures_out = dict(sorted(figures.items()))
    figures_out["seconds"] = round(time.monotonic() - started)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(
        json.dumps(
            {
                "generator": "scripts/puzzles.py",
                "seed": args.seed,
                "figures": figures_out,
                "puzzles": [p.to_dict() for p in kept],
            },
            indent=1,
        )
        + "\n"
    )
    for name, n in figures_out.items():
        print(f"{name}: {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
