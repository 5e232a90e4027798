"""Benchmark of the computer player: how often hard wins, and how long it thinks.

Plays duels of hard against random, easy and medium (200 games each by default; the
players swap seats every game, every game has its own random cloud layout) on two
worker processes, then prints the win rates and the time per decision.

Two times are reported, because a decision is made once per player-turn and then
replayed step by step: "per turn" is the time the first step of a turn took (the real
thinking), "per step" covers every call to ``choose``. Both are measured for the
hard player only.

    .venv/bin/python bench/ai.py            # the full run (a few minutes)
    .venv/bin/python bench/ai.py --games 20 --against medium
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.ai import ComputerPlayer
from rules.modes import Settings
from rules.players import Player, RandomPlayer, new_game

TURN_LIMIT = 400  # player-turns; a game this long is counted as drawn


def _player(level: str, seed: int) -> Player:
    return RandomPlayer(seed) if level == "random" else ComputerPlayer(level, seed=seed)


def play(job: tuple[str, str, int]) -> tuple[str, float, list[float], list[float]]:
    """One game of ``hero`` against ``other``; the hero is seat 0 in even games.
    Returns the opponent, the hero's points (1 win, ½ draw), and its times per turn and
    per step."""
    hero, other, number = job
    hero_seat = number % 2
    seed = 10_000 + number
    game = new_game(Settings(turn_limit=TURN_LIMIT), seed)
    players = [_player(other, seed), _player(other, seed)]
    players[hero_seat] = _player(hero, seed)
    per_turn: list[float] = []
    per_step: list[float] = []
    last_turn = -1
    while not game.is_over:
        seat = game.active
        start = time.perf_counter()
        step = players[seat].choose(game)
        took = time.perf_counter() - start
        if seat == hero_seat:
            per_step.append(took)
            if game.turn != last_turn:
                per_turn.append(took)
                last_turn = game.turn
        game.play(step)
    assert game.result is not None
    winners = game.result.winners
    points = 0.5 if not winners else float(hero_seat in winners)
    return other, points, per_turn, per_step


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per opponent")
    parser.add_argument("--hero", default="hard")
    parser.add_argument("--against", default="random,easy,medium")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    opponents = args.against.split(",")
    jobs = [(args.hero, o, n) for o in opponents for n in range(args.games)]
    start = time.perf_counter()
    with Pool(args.workers) as pool:
        results = pool.map(play, jobs, chunksize=1)
    wall = time.perf_counter() - start
    per_turn = [t for r in results for t in r[2]]
    per_step = [t for r in results for t in r[3]]
    print(f"{args.hero} in duels, {args.games} games per opponent, seats alternating")
    for o in opponents:
        points = [r[1] for r in results if r[0] == o]
        wins = sum(1 for p in points if p == 1.0)
        draws = sum(1 for p in points if p == 0.5)
        rate = 100 * sum(points) / len(points)
        print(f"  vs {o:<7} {rate:5.1f}%  ({wins} won, {draws} drawn, {len(points)} games)")
    print(
        f"time per turn: median {statistics.median(per_turn) * 1000:.0f} ms, "
        f"max {max(per_turn) * 1000:.0f} ms ({len(per_turn)} turns)"
    )
    print(
        f"time per step: median {statistics.median(per_step) * 1000:.2f} ms, "
        f"max {max(per_step) * 1000:.0f} ms ({len(per_step)} steps)"
    )
    print(f"wall time {wall:.0f} s on {args.workers} workers")


if __name__ == "__main__":
    main()
