"""One golden image per mode: a game in progress, drawn at 400 px with its lines of fire.

Each golden is a game record (``golden/<mode>.json``, replayed through the rules) and
the picture it must give (``golden/<mode>.png``). After a deliberate change to the look,
redraw the pictures and look at every one before committing::

    UPDATE_GOLDEN=1 .venv/bin/pytest tests/render/test_render_golden.py

Comparison allows small differences (FreeType or Pillow versions may move an edge by a
shade): at most 0.5 % of pixels may differ by more than 24 in any channel.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from render.board import render_board
from render.samples import careful_game
from rules import serialize
from rules.modes import MODES

GOLDEN = Path(__file__).parent / "golden"
SIZE = 400
STEPS = 36
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"


def differing_fraction(a: Image.Image, b: Image.Image, threshold: int = 24) -> float:
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    worst = ImageChops.lighter(ImageChops.lighter(*diff.split()[:2]), diff.split()[2])
    over = worst.point(lambda v: 255 if v > threshold else 0).histogram()[255]
    return over / (a.width * a.height)


@pytest.mark.parametrize("mode", sorted(MODES))
def test_golden(mode: str) -> None:
    record = GOLDEN / f"{mode}.json"
    picture = GOLDEN / f"{mode}.png"
    if UPDATE and not record.exists():
        record.write_text(serialize.dumps(careful_game(mode, seed=1, steps=STEPS)) + "\n")
    game = serialize.loads(record.read_text())
    img = render_board(game, size=SIZE, lines=True)
    if UPDATE:
        img.save(picture, optimize=True)
    golden = Image.open(picture)
    assert golden.size == img.size
    assert differing_fraction(img, golden) <= 0.005
