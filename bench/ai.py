"""Benchmark of the computer player: how often it wins, and how long it thinks.

Default: duels of a hero (hard) against random, easy and medium (200 games each; the
players swap seats every game, every game has its own random cloud layout).

``--ladder``: a round robin of random, easy, medium, hard and expert (``--games`` duels
per pair, seats alternating, random clouds), then each strength's Elo with error bars
from a maximum-likelihood Bradley-Terry fit (:mod:`rules.ai.elo`), the pairwise scores with
standard errors, and the decision time per strength.

Two times are reported, because a decision is made once per player-turn and then
replayed step by step: "per turn" is the time the first step of a turn took (the real
thinking), "per step" covers every call to ``choose``.

The players' budgets are measured in CPU time by default (``--clock cpu``): on a shared
machine a wall-clock budget buys less search whenever other work runs, so the same
strength would play weaker by the hour. ``--clock wall`` is what the bot uses. Both
the wall time and the CPU time of every decision are printed either way.

    .venv/bin/python bench/ai.py            # hard against the rest (a few minutes)
    .venv/bin/python bench/ai.py --games 20 --against medium
    .venv/bin/python bench/ai.py --mode ffa4 --hero expert --against hard --games 20
    nice -n 19 .venv/bin/python bench/ai.py --ladder --games 10 --workers 1
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.ai import ComputerPlayer
from rules.ai.elo import fit, standard_error
from rules.modes import Settings
from rules.players import Player, RandomPlayer, new_game

TURN_LIMIT = 400  # player-turns; a game this long is counted as drawn
LADDER = ("random", "easy", "medium", "hard", "expert")

CLOCKS = {"cpu": time.thread_time, "wall": time.perf_counter}

Job = tuple[str, str, int, str, int, str]  # hero, other, game number, mode, first seed, clock
Times = dict[str, list[float]]
# hero, other, hero's points, per strength: wall per turn, wall per step, CPU per turn
Outcome = tuple[str, str, float, Times, Times, Times]


def _player(level: str, seed: int, clock: str) -> Player:
    if level == "random":
        return RandomPlayer(seed)
    return ComputerPlayer(level, seed=seed, clock=CLOCKS[clock])


def play(job: Job) -> Outcome:
    """One game of ``hero`` against ``other`` in every other seat; the hero's seat
    goes round with the game number. Returns both names, the hero's points (1 win, a
    share when several win, par (1/seats) for a draw), and per strength its times per turn and per
    step."""
    hero, other, number, mode, first_seed, clock = job
    seed = first_seed + number
    game = new_game(Settings(mode=mode, turn_limit=TURN_LIMIT), seed)
    hero_seat = number % game.seats
    names = [other] * game.seats
    names[hero_seat] = hero
    players = [_player(n, seed + k, clock) for k, n in enumerate(names)]
    per_turn: Times = {hero: [], other: []}
    per_step: Times = {hero: [], other: []}
    cpu_turn: Times = {hero: [], other: []}
    last_turn = -1
    while not game.is_over:
        seat = game.active
        start, start_cpu = time.perf_counter(), time.thread_time()
        step = players[seat].choose(game)
        took = time.perf_counter() - start
        per_step[names[seat]].append(took)
        if game.turn != last_turn:
            per_turn[names[seat]].append(took)
            cpu_turn[names[seat]].append(time.thread_time() - start_cpu)
            last_turn = game.turn
        game.play(step)
    assert game.result is not None
    winners = game.result.winners
    # A draw is worth par, 1/seats: half a point in a duel.
    won = (1 / len(winners) if hero_seat in winners else 0.0) if winners else 1 / game.seats
    return hero, other, won, per_turn, per_step, cpu_turn


def _run(jobs: list[Job], workers: int) -> tuple[list[Outcome], float]:
    start = time.perf_counter()
    if workers == 1:
        results = [play(j) for j in jobs]
    else:
        with Pool(workers) as pool:
            results = pool.map(play, jobs, chunksize=1)
    return results, time.perf_counter() - start


def _times(label: str, values: list[float]) -> str:
    if not values:
        return f"{label}: -"
    return (
        f"{label}: median {statistics.median(values) * 1000:.0f} ms, "
        f"max {max(values) * 1000:.0f} ms ({len(values)})"
    )


def hero_bench(args: argparse.Namespace) -> None:
    opponents = args.against.split(",")
    jobs = [
        (args.hero, o, n, args.mode, args.seed, args.clock)
        for o in opponents
        for n in range(args.games)
    ]
    results, wall = _run(jobs, args.workers)
    print(
        f"{args.hero} in {args.mode}, {args.games} games per opponent, seats rotating, "
        f"budgets in {args.clock} time"
    )
    for o in opponents:
        points = [r[2] for r in results if r[1] == o]
        wins = sum(1 for p in points if p == 1.0)
        draws = sum(1 for p in points if 0 < p < 1)  # drawn or shared
        rate = sum(points) / len(points)
        err = standard_error(sum(points), len(points))
        print(
            f"  vs {o:<7} {100 * rate:5.1f}% ± {100 * err:.1f}  "
            f"({wins} won, {draws} drawn, {len(points)} games)"
        )
    print(_times("time per turn", [t for r in results for t in r[3][args.hero]]))
    print(_times("CPU time per turn", [t for r in results for t in r[5][args.hero]]))
    print(_times("time per step", [t for r in results for t in r[4][args.hero]]))
    print(f"wall time {wall:.0f} s on {args.workers} workers")


def ladder(args: argparse.Namespace) -> None:
    levels = args.levels.split(",")
    pairs = list(itertools.combinations(levels, 2))
    jobs = [(a, b, n, "duel", args.seed, args.clock) for a, b in pairs for n in range(args.games)]
    results, wall = _run(jobs, args.workers)
    points: dict[tuple[str, str], tuple[float, int]] = {}
    for a, b in pairs:
        scored = [r[2] for r in results if r[0] == a and r[1] == b]
        points[(a, b)] = (sum(scored), len(scored))
    ratings = fit(levels, points)
    print(
        f"ladder: duels, {args.games} games per pair, seats alternating, random clouds, "
        f"budgets in {args.clock} time"
    )
    print("Elo (Bradley-Terry maximum likelihood, mean 0, ± one standard error):")
    for name in sorted(levels, key=lambda n: -ratings[n][0]):
        elo, err = ratings[name]
        print(f"  {name:<7} {elo:+6.0f} ± {err:.0f}")
    print("pairwise (score of the stronger-listed side, ± one standard error):")
    for (a, b), (score, games) in points.items():
        b_first = f"{b} vs {a}"
        rate = (games - score) / games
        err = standard_error(games - score, games)
        print(f"  {b_first:<18} {100 * rate:5.1f}% ± {100 * err:4.1f}  ({games} games)")
    print("decision time per turn (first step of a player-turn):")
    for name in levels:
        turns = [t for r in results for t in r[3].get(name, [])]
        steps = [t for r in results for t in r[4].get(name, [])]
        cpu = [t for r in results for t in r[5].get(name, [])]
        print(f"  {name:<7} {_times('turn', turns)}; {_times('CPU', cpu)}; {_times('step', steps)}")
    print(f"wall time {wall:.0f} s on {args.workers} workers")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per opponent or pair")
    parser.add_argument("--hero", default="hard")
    parser.add_argument("--against", default="random,easy,medium")
    parser.add_argument("--mode", default="duel", help="mode of the hero's games (not --ladder)")
    parser.add_argument("--ladder", action="store_true", help="round robin with Elo ratings")
    parser.add_argument("--levels", default=",".join(LADDER), help="strengths in the ladder")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=10_000, help="seed of the first game")
    parser.add_argument(
        "--clock", choices=tuple(CLOCKS), default="cpu", help="what the players' budgets measure"
    )
    args = parser.parse_args()
    if args.ladder:
        ladder(args)
    else:
        hero_bench(args)


if __name__ == "__main__":
    main()
