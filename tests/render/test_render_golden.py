"""Golden images: the board of a game in progress in every mode at phone width (400 px),
the duel, the six-player free-for-all and 3 vs 3 at the bot's 1024 px too, the
achievement cards and a series scoreboard. Boards are compared as uploaded: the PNG
that :func:`render.board.board_png` makes, decoded.

Each board golden is a game record (``golden/<mode>.json``, replayed through the rules)
and the picture it must give (``golden/<mode>.png``, ``golden/<mode>-1024.png``). After
a deliberate change to the look, redraw the pictures and look at every one before
committing::

    UPDATE_GOLDEN=1 .venv/bin/pytest tests/render/test_render_golden.py

Comparison allows small differences (FreeType or Pillow versions may move an edge by a
shade): at most 0.5 % of pixels may differ by more than 24 in any channel.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from render.board import board_png
from render.cards import card_png, cards_png
from render.samples import careful_game
from render.scoreboard import ScoreRow, scoreboard_png
from rules import board, serialize
from rules.achievements import CARDS
from rules.modes import MODES

GOLDEN = Path(__file__).parent / "golden"
STEPS = 36
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"
NAMES = ("Boelcke", "Fonck", "Guynemer", "Mannock", "McCudden", "Udet")


def differing_fraction(a: Image.Image, b: Image.Image, threshold: int = 24) -> float:
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    worst = ImageChops.lighter(ImageChops.lighter(*diff.split()[:2]), diff.split()[2])
    over = worst.point(lambda v: 255 if v > threshold else 0).histogram()[255]
    return over / (a.width * a.height)


def check(png: bytes, name: str) -> None:
    picture = GOLDEN / name
    if UPDATE:
        picture.write_bytes(png)
    img = Image.open(io.BytesIO(png))
    golden = Image.open(picture)
    assert golden.size == img.size
    assert differing_fraction(img, golden) <= 0.005


def game_of(mode: str) -> str:
    record = GOLDEN / f"{mode}.json"
    if UPDATE and not record.exists():
        record.write_text(serialize.dumps(careful_game(mode, seed=1, steps=STEPS)) + "\n")
    return record.read_text()


@pytest.mark.parametrize("mode", sorted(MODES))
def test_board_at_phone_width(mode: str) -> None:
    game = serialize.loads(game_of(mode))
    names = NAMES[: game.seats]
    check(board_png(game, size=400, lines=True, names=names), f"{mode}.png")


@pytest.mark.parametrize("mode", ["duel", "ffa6", "3v3"])
def test_board_at_full_size(mode: str) -> None:
    game = serialize.loads(game_of(mode))
    names = NAMES[: game.seats]
    check(board_png(game, lines=True, names=names), f"{mode}-1024.png")


def test_light_board() -> None:
    game = serialize.loads(game_of("3v3"))
    check(board_png(game, size=400, lines=True, theme="light"), "3v3-light.png")


def test_cockpit_preview_with_labels() -> None:
    # A cockpit preview: a plane's cell and its neighbours highlighted and lettered (the
    # plane's own letter goes beside it), at phone width.
    game = serialize.loads(game_of("duel"))
    plane = game.planes(game.active)[0]
    around = [n for n in board.NEIGHBOUR[plane.cell * 6 : plane.cell * 6 + 6] if n >= 0]
    cells = sorted({plane.cell, *around})
    labels = {c: chr(ord("A") + i) for i, c in enumerate(cells)}
    labels[cells[-1]] = "AB"  # two letters, as past the 26th cell
    png = board_png(
        game, size=400, highlight_cells=cells, highlight_plane=plane.id, highlight_labels=labels
    )
    check(png, "duel-labels.png")


def test_cards() -> None:
    check(card_png(CARDS["first-blood"], claimed_by="Mannock"), "card-claimed.png")
    sheet = [CARDS[k] for k in ("double-kill", "out-of-the-blue", "power-diver", "ace-of-aces")]
    check(cards_png(sheet, title="Cards in play"), "cards.png")


def test_scoreboard() -> None:
    rows = [
        ScoreRow("Mannock", 2, 5, ("first-blood", "power-diver"), leader=True),
        ScoreRow("Boelcke", 2, 5, ("double-kill",), leader=True),
        ScoreRow("Udet", 1, 0, ()),
    ]
    png = scoreboard_png(
        "Series: best of five", rows, subtitle="game 5 of 5", pool=("ace-of-aces", "untouchable")
    )
    check(png, "scoreboard.png")
