"""The glyphs uploaded as emojis: small PNGs Discord takes, named as emojis may be, one
for every seat's insignia in every mode and one per manoeuvre."""

from __future__ import annotations

import io
import re

from PIL import Image

from render.glyphs import MANOEUVRE_NAMES, glyphs, insignia_name, names
from rules.modes import MODES


def test_every_glyph_is_a_small_png_with_an_emoji_name() -> None:
    drawn = glyphs()
    assert list(drawn) == names()
    for name, data in drawn.items():
        assert re.fullmatch(r"[A-Za-z0-9_]{2,32}", name), name
        image = Image.open(io.BytesIO(data))
        assert image.format == "PNG" and image.size[0] <= 128 and image.size[1] <= 128
        assert len(data) < 256 * 1024
        assert image.mode == "RGBA" and image.getchannel("A").getextrema()[0] == 0  # see-through


def test_each_seat_of_each_mode_and_each_manoeuvre_has_its_own_glyph() -> None:
    drawn = glyphs()
    for mode in MODES.values():
        seats = [insignia_name(mode, s) for s in range(mode.seats)]
        assert len(set(seats)) == mode.seats and set(seats) <= set(drawn), mode.key
    pictures = {drawn[name] for name in set(MANOEUVRE_NAMES.values())}
    assert len(pictures) == len(set(MANOEUVRE_NAMES.values()))  # no two alike
