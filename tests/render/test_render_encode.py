"""What makes a board cheap to draw and encode must not change a pixel of it: cell names
printed from kept glyph masks, and a match's PNG bands kept while other matches draw."""

from __future__ import annotations

import io
import random
import zlib
from typing import Any

import pytest
from PIL import Image, ImageDraw

from render import png
from render.typeface import font, stamp

TEXTS = ("f11", "a1", "▼2", "Gold team", "dived, n lost", "k7")


@pytest.mark.parametrize("anchor", ["mm", "lm", "rm"])
def test_stamp_draws_exactly_what_draw_text_draws(anchor: str) -> None:
    rng = random.Random(anchor)
    drawn = Image.new("RGB", (400, 300), (44, 70, 104))
    stamped = drawn.copy()
    d, s = ImageDraw.Draw(drawn), ImageDraw.Draw(stamped)
    for k in range(60):
        text = TEXTS[k % len(TEXTS)]
        face = font(rng.randrange(8, 30), k % 2 == 0)
        xy = (rng.uniform(0, 400), rng.uniform(0, 300))
        colour = (rng.randrange(256), rng.randrange(256), rng.randrange(256))
        d.text(xy, text, fill=colour, font=face, anchor=anchor)
        stamp(s, xy, text, colour, face, anchor)
    assert stamped.tobytes() == drawn.tobytes()
    assert drawn.tobytes() != Image.new("RGB", (400, 300), (44, 70, 104)).tobytes()


def noise(seed: int, size: tuple[int, int] = (300, 200)) -> Image.Image:
    rng = random.Random(seed)
    img = Image.frombytes("P", size, bytes(rng.randrange(8) for _ in range(size[0] * size[1])))
    img.putpalette([v for i in range(256) for v in (i, 255 - i, i // 2)])
    return img


def decoded(data: bytes) -> bytes:
    img = Image.open(io.BytesIO(data))
    assert img.mode == "P"
    return img.tobytes()


def test_a_match_keeps_its_bands_while_hundreds_of_others_are_drawn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    mine = noise(0)
    first = png.palette_png(mine, family="match 1")
    for other in range(1, png.FAMILIES // 2):
        png.palette_png(noise(other, (60, 40)), family=f"match {other + 1}")
    compressed: list[Any] = []
    real = zlib.compressobj

    def counting(*args: Any) -> Any:
        compressed.append(args)
        return real(*args)

    monkeypatch.setattr(zlib, "compressobj", counting)
    again = png.palette_png(mine, family="match 1")
    assert again == first
    assert compressed == []  # every band came from the match's own keeping
    assert decoded(again) == mine.tobytes()
    changed = mine.copy()
    changed.putpixel((5, 150), 7 - changed.getpixel((5, 150)))  # type: ignore[operator]
    out = png.palette_png(changed, family="match 1")
    assert len(compressed) == 1  # only the band holding row 150
    assert decoded(out) == changed.tobytes()


def test_a_palette_png_is_an_ordinary_png_of_the_image() -> None:
    img = noise(5, (257, 71))  # neither dimension a multiple of the band
    data = png.palette_png(img)
    assert decoded(data) == img.tobytes()
    assert Image.open(io.BytesIO(data)).getpalette() == img.getpalette()
    with pytest.raises(ValueError):
        png.palette_png(img.convert("RGB"))
