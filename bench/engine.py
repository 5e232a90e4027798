"""Rules engine speed: random games, as issue #2 and #3 ask.

Prints player-turns and games per second for random duels (2026 rules, random clouds,
automatic fire, each step uniform among the legal steps), the median time of one
legal-steps call over many mid-game positions, and games per second for a 6-player
free-for-all and a 3 vs 3. Rates are per second of this process's CPU time, which other
work on a shared machine does not inflate; the wall-clock rate is printed beside them.
Run: .venv/bin/python bench/engine.py
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.game import Game
from rules.modes import Settings
from rules.players import new_game

TURN_LIMIT = 1000


@dataclass(frozen=True)
class Played:
    games: int
    turns: int
    cpu: float  # seconds of this process's CPU time
    wall: float


def random_games(settings: Settings, seconds: float, seed: int) -> Played:
    """Play random games for about ``seconds`` of CPU time."""
    rng = random.Random(seed)
    games = turns = 0
    cpu, wall = time.process_time(), time.perf_counter()
    while time.process_time() - cpu < seconds:
        game = new_game(settings, rng.randrange(2**31))
        while not game.is_over:
            game.play(rng.choice(game.legal_steps()))
        games += 1
        turns += game.turn
    return Played(games, turns, time.process_time() - cpu, time.perf_counter() - wall)


def mid_game_positions(count: int, seed: int) -> list[Game]:
    """Positions after the opening ramp, taken from random duels."""
    rng = random.Random(seed)
    found: list[Game] = []
    settings = Settings(turn_limit=TURN_LIMIT)
    while len(found) < count:
        game = new_game(settings, rng.randrange(2**31))
        while not game.is_over:
            if game.turn > 6 and rng.random() < 0.2:
                found.append(game.copy(with_history=False))
            game.play(rng.choice(game.legal_steps()))
    return found[:count]


def legal_steps_micros(positions: list[Game]) -> float:
    """Median µs of CPU time for one uncached legal-steps generation (thread time: its
    clock ticks finely enough for a call of a few µs)."""
    times = []
    for game in positions:
        start = time.thread_time_ns()
        game._generate()
        times.append((time.thread_time_ns() - start) / 1000)
    return statistics.median(times)


def main() -> None:
    duel = Settings(turn_limit=TURN_LIMIT)
    p = random_games(duel, 5.0, seed=1)
    print(
        f"duel, random play: {p.turns / p.cpu:,.0f} player-turns per CPU second "
        f"({p.turns / p.wall:,.0f} per wall second), {p.games / p.cpu:,.1f} games per CPU "
        f"second ({p.games} games, {p.turns} player-turns)"
    )
    positions = mid_game_positions(5000, seed=2)
    steps = statistics.mean(len(g._generate()) for g in positions)
    print(
        f"legal steps: median {legal_steps_micros(positions):.1f} µs per call "
        f"over {len(positions)} mid-game positions ({steps:.1f} steps on average)"
    )
    for mode in ("ffa6", "3v3"):
        p = random_games(Settings(mode=mode, turn_limit=TURN_LIMIT), 3.0, 3)
        print(
            f"{mode}, random play: {p.games / p.cpu:,.1f} games per CPU second "
            f"({p.games / p.wall:,.1f} per wall second), "
            f"{p.turns / p.cpu:,.0f} player-turns per CPU second ({p.games} games)"
        )


if __name__ == "__main__":
    main()
