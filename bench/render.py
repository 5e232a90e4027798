"""Render benchmark: ``.venv/bin/python bench/render.py [--encoders] [--matches 100]``.

Prints medians of CPU time (other work on a shared machine inflates wall time): drawing
and encoding the 1024 px board of a six-player game at each of 30 successive positions,
as a match in progress asks for them; the same at 400 px; the board job as a loaded bot
runs it (``--matches`` duels, 100 by default, each board after each of their actions
in turn, so that one match's caches must survive the others' boards; from the game's
JSON, names on, as a worker is handed it); the first board of a match (which also draws
the static layer and its palette); and the GIF replay of a 60-turn game. Targets: board
draw + encode under 15 ms and under 150 KB, replay under 0.5 s.
``--encoders`` prints the table of encoder settings behind the choice in render.png.
"""

from __future__ import annotations

import io
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

# Run as a script, this file's folder comes first on sys.path and its own name would
# hide the render package: put the repository root there instead.
HERE = str(Path(__file__).resolve().parent)
sys.path[:] = [str(Path(HERE).parent) if p == HERE else p for p in sys.path]


from PIL import Image  # noqa: E402

from render import png, static  # noqa: E402
from render.board import board_png, encode, render_board  # noqa: E402
from render.replay import replay_gif  # noqa: E402
from render.samples import careful_game  # noqa: E402
from rules import serialize  # noqa: E402
from rules.game import Game  # noqa: E402

TURNS = 60


def sixty_turn_game() -> Game:
    """The first seeded careful duel that lasts the whole 60 player-turns."""
    for seed in range(100):
        game = careful_game("duel", seed, turn_limit=TURNS)
        if game.turn > TURNS:
            return game
    raise RuntimeError("no seed gave a 60-turn game")


def cpu_ms(job: Callable[[], object]) -> float:
    start = time.process_time()
    job()
    return (time.process_time() - start) * 1000


def positions(game: Game, last: int) -> list[Game]:
    """The game after each of its last ``last`` steps, as the bot draws them."""
    record = serialize.to_dict(game)
    tokens = record["steps"]
    record["steps"] = []
    fresh = serialize.from_dict(record)
    out = []
    for k, token in enumerate(tokens):
        serialize.apply_record(fresh, token)
        if k >= len(tokens) - last:
            out.append(fresh.copy())
    return out


def boards(games: list[Game], size: int) -> None:
    draws, encodes, sizes = [], [], []
    for game in games:
        palette = static.palette(size, game.mode.key, "dark", frozenset(game.clouds))
        img = render_board(game, size=size, lines=True)
        draws.append(cpu_ms(lambda g=game: render_board(g, size=size, lines=True)))  # type: ignore[misc]
        start = time.process_time()
        data = encode(img, palette, (size, game.mode.key))
        encodes.append((time.process_time() - start) * 1000)
        sizes.append(len(data))
    draw, enc = statistics.median(draws), statistics.median(encodes)
    print(
        f"board {size} px, 6 players, {len(games)} positions: draw {draw:.1f} ms, "
        f"encode {enc:.1f} ms, draw + encode {draw + enc:.1f} ms; "
        f"PNG median {statistics.median(sizes) / 1024:.0f} KB, largest {max(sizes) / 1024:.0f} KB"
    )


def interleaved(matches: int) -> None:
    games = [positions(careful_game("duel", seed, 60), 40) for seed in range(matches)]
    snapshots = [[serialize.dumps(g, indent=None) for g in match] for match in games]
    names = ["Boelcke", "Fonck"]
    times = [
        cpu_ms(lambda s=match[k]: board_png(s, names=names))  # type: ignore[misc]
        for k in range(40)
        for match in snapshots
        if k < len(match)
    ]
    print(
        f"board job, {matches} duels in turn ({len(times)} boards, 1024 px, from JSON): "
        f"median {statistics.median(times):.1f} ms, mean {statistics.mean(times):.1f} ms"
    )


def first_board(game: Game) -> float:
    static.forget_layers()
    static.palette.cache_clear()
    png.clear()
    return cpu_ms(lambda: board_png(game, lines=True))


def encoders(games: list[Game]) -> None:
    """Whole-image Pillow PNG at several levels against render.png's bands."""
    imgs = []
    for game in games:
        palette = static.palette(1024, game.mode.key, "dark", frozenset(game.clouds))
        imgs.append(
            render_board(game, lines=True).quantize(palette=palette, dither=Image.Dither.NONE)
        )
    print("encoder (256-colour palette image)        ms   KB")
    for level in (1, 3, 6, 9):
        times, sizes = [], []
        for img in imgs[:8]:
            out = io.BytesIO()
            times.append(cpu_ms(lambda i=img, o=out, v=level: i.save(o, "PNG", compress_level=v)))  # type: ignore[misc]
            sizes.append(out.tell())
        t, kb = statistics.median(times), statistics.median(sizes) / 1024
        print(f"Pillow, whole image, level {level}           {t:5.1f} {kb:4.0f}")
    for level in (1, 3, 6):
        png.LEVEL = level  # type: ignore[misc]
        png.clear()
        times, sizes = [], []
        for img in imgs:
            start = time.process_time()
            sizes.append(len(png.palette_png(img, "successive")))
            times.append((time.process_time() - start) * 1000)
        t, kb = statistics.median(times), statistics.median(sizes) / 1024
        print(f"bands of {png.BAND} rows, level {level}, successive   {t:5.1f} {kb:4.0f}")
    rgb = render_board(games[-1], lines=True)
    out = io.BytesIO()
    t = cpu_ms(lambda: rgb.save(out, "PNG", compress_level=1))
    print(f"Pillow, full colour, level 1              {t:5.1f} {out.tell() / 1024:4.0f}")


def main() -> None:
    game = careful_game("ffa6", 2, 70, variants=frozenset({"aces"}))
    games = positions(game, 30)
    if "--encoders" in sys.argv:
        encoders(games)
        return
    for size in (1024, 400):
        render_board(games[0], size=size)  # the static layer: drawn once per match
        boards(games, size)
    interleaved(int(sys.argv[sys.argv.index("--matches") + 1]) if "--matches" in sys.argv else 100)
    first = statistics.median(first_board(game) for _ in range(5))
    print(f"first board of a match (static layer and palette too): {first:.0f} ms")

    long = sixty_turn_game()
    gif = replay_gif(long)
    cold = []
    for _ in range(3):
        static.forget_layers()
        cold.append(cpu_ms(lambda: replay_gif(long)))
    warm = statistics.median(cpu_ms(lambda: replay_gif(long)) for _ in range(3))
    print(f"replay GIF of {long.turn - 1} turns ({len(long.history)} steps): ", end="")
    print(
        f"{statistics.median(cold) / 1000:.2f} s from cold caches, {warm / 1000:.2f} s warm, ",
        end="",
    )
    print(f"{len(gif) / 1024 / 1024:.2f} MB")


if __name__ == "__main__":
    main()
