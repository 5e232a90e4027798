"""Render benchmark: ``.venv/bin/python bench/render.py``.

Prints the median time to draw one 1024 px board (and to encode it as PNG), the PNG's
size, and the time and size of the GIF replay of a 60-turn game. Targets: under 40 ms
a board, a board PNG under 250 KB, a 60-turn replay under 1.5 s and under 2 MB.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

# Run as a script, this file's folder comes first on sys.path and its own name would
# hide the render package: put the repository root there instead.
HERE = str(Path(__file__).resolve().parent)
sys.path[:] = [str(Path(HERE).parent) if p == HERE else p for p in sys.path]

from render.board import board_png, render_board  # noqa: E402
from render.replay import replay_gif  # noqa: E402
from render.samples import careful_game  # noqa: E402
from rules.game import Game  # noqa: E402

TURNS = 60


def sixty_turn_game() -> Game:
    """The first seeded careful duel that lasts the whole 60 player-turns."""
    for seed in range(100):
        game = careful_game("duel", seed, turn_limit=TURNS)
        if game.turn > TURNS:
            return game
    raise RuntimeError("no seed gave a 60-turn game")


def median_ms(job: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        job()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    board_game = careful_game("ffa6", 2, 70, variants=frozenset({"aces"}))
    render_board(board_game, lines=True)  # warm the background and sprite caches
    draw = median_ms(lambda: render_board(board_game, lines=True), 30)
    encode = median_ms(lambda: board_png(board_game, lines=True), 15)
    size = len(board_png(board_game, lines=True))
    print(f"board 1024 px, 6 players: {draw:.1f} ms to draw, {encode:.1f} ms with PNG encoding")
    print(f"board PNG: {size / 1024:.0f} KB")

    game = sixty_turn_game()
    start = time.perf_counter()
    gif = replay_gif(game)
    took = time.perf_counter() - start
    print(f"replay of {game.turn - 1} turns ({len(game.history)} steps):")
    print(f"  {took:.2f} s, {len(gif) / 1024 / 1024:.2f} MB")


if __name__ == "__main__":
    main()
