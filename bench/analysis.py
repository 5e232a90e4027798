"""Benchmark of the post-game analysis: how long a 40-turn duel takes to analyse.

Plays duels between two medium players, capped at 40 player-turns, until one lasts to
the cap (most end sooner, in a kill), then analyses that one at the default depth
several times and prints the median and the maximum, as wall time and as the process's
own CPU time (the machine may be shared: CPU time is what one free core would need).

    nice -n 19 .venv/bin/python bench/analysis.py --runs 3
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.ai import ComputerPlayer
from rules.ai.analysis import review, turn_count
from rules.game import Game
from rules.modes import Settings
from rules.players import new_game

TURNS = 40


def forty_turn_duel(seed: int) -> Game:
    while True:
        game = new_game(Settings(turn_limit=TURNS), seed)
        players = [ComputerPlayer("medium", time_budget=0.2, seed=seed + k) for k in range(2)]
        while not game.is_over:
            game.play(players[game.active].choose(game))
        if turn_count(game) >= TURNS - 1:
            return game
        seed += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=4)
    args = parser.parse_args()
    game = forty_turn_duel(args.seed)
    walls: list[float] = []
    cpus: list[float] = []
    for _ in range(args.runs):
        wall, cpu = time.perf_counter(), time.process_time()
        reviews = list(review(game))
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    marked = sum(1 for r in reviews if r.mark)
    print(f"analysis of a {len(reviews)}-turn duel ({marked} turns marked), {args.runs} runs:")
    print(f"  wall time: median {statistics.median(walls):.1f} s, max {max(walls):.1f} s")
    print(f"  CPU time:  median {statistics.median(cpus):.1f} s, max {max(cpus):.1f} s")


if __name__ == "__main__":
    main()
