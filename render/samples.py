"""Realistic sample games for the README images, the benchmark and the golden tests.

Uniformly random play flies planes off the board within a few turns, which makes dull
pictures and short replays. :class:`CarefulPlayer` looks one step ahead and avoids losing
planes, leaving its planes caught, and pointing them at the edge; games between careful
players last dozens of turns and look like real ones. Everything is seeded, so a sample
is the same game on every machine.

``python -m render.samples docs/images`` redraws the README's example images.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from rules import board
from rules.game import Game
from rules.modes import Settings
from rules.players import new_game, play_out
from rules.steps import Step


class CarefulPlayer:
    """Picks the step that keeps its side's planes safest, breaking ties at random."""

    name = "careful"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> Step:
        team = game.mode.teams[game.active]
        best: tuple[float, Step] | None = None
        for step in game.legal_steps():
            game.push(step)
            score = self._danger(game, team)
            game.pop()
            if best is None or score < best[0]:
                best = (score, step)
        assert best is not None
        return best[1]

    def _danger(self, game: Game, team: int) -> float:
        teams = game.mode.teams
        left = sum(game.planes_left(s) for s in range(game.seats) if teams[s] == team)
        caught = 0
        for victim in game.caught():
            p = game.plane(victim)
            caught += p is not None and teams[p.seat] == team
        cornered = 0
        for p in game.planes():
            ahead = board.step(p.cell, p.facing)
            cornered += teams[p.seat] == team and (ahead < 0 or board.step(ahead, p.facing) < 0)
        return -10 * left + 3 * caught + 2 * cornered + self.rng.random()


def careful_game(mode: str, seed: int, steps: int | None = None, **settings: object) -> Game:
    """A game of ``mode`` between careful players, stopped after ``steps`` steps (or
    played out). Extra keyword arguments are :class:`Settings` fields."""
    game = new_game(Settings(mode=mode, **settings), seed)  # type: ignore[arg-type]
    players = [CarefulPlayer(seed * 10 + s) for s in range(game.seats)]
    if steps is None:
        return play_out(game, players)
    for _ in range(steps):
        if game.is_over:
            break
        game.play(players[game.active].choose(game))
    return game


# (file name, mode, seed, steps, player names): the README's example images.
EXAMPLES = (
    ("duel.png", "duel", 4, 70, ("Albatros", "Sopwith")),
    (
        "ffa6.png",
        "ffa6",
        2,
        60,
        ("Red", "Biggles", "Nungesser", "Rickenbacker", "Immelmann", "Ball"),
    ),
    ("3v3.png", "3v3", 3, 64, ("Boelcke", "Fonck", "Guynemer", "Mannock", "McCudden", "Udet")),
)


PHONE_WIDTH = 400  # about what Discord gives a picture on a phone


def main(argv: list[str]) -> int:
    import io

    from PIL import Image

    from render.board import board_png
    from render.palette import PALETTES, palette_theme

    out = Path(argv[0] if argv else "docs/images")
    out.mkdir(parents=True, exist_ok=True)
    for filename, mode, seed, steps, names in EXAMPLES:
        game = careful_game(mode, seed, steps, variants=frozenset({"aces"}))
        png = board_png(game, names=names, lines=True)
        (out / filename).write_bytes(png)
        print(out / filename)
    # The 3 vs 3 board as a phone shows it: the same picture scaled down by Discord.
    big = Image.open(io.BytesIO(png)).convert("RGB")
    phone = big.resize(
        (PHONE_WIDTH, round(big.height * PHONE_WIDTH / big.width)), Image.Resampling.LANCZOS
    )
    flat = phone.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    flat.save(out / "3v3-phone.png", optimize=True)
    print(out / "3v3-phone.png")
    # The same board in each palette, drawn at a phone's width.
    for palette in PALETTES:
        shown = board_png(
            game, names=names, lines=True, size=PHONE_WIDTH, theme=palette_theme(palette)
        )
        (out / f"palette-{palette}.png").write_bytes(shown)
        print(out / f"palette-{palette}.png")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
