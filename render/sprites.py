"""Small pictures pasted onto the board: planes, their shadows, clouds, badges, markers.

Pillow draws polygons without anti-aliasing, so every sprite is drawn four times too
large and shrunk, which smooths its edges. That is slow, so each sprite is made once
per colour, facing and pixel size and kept: a board then costs a few pastes per plane.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from render.palette import GOLD, INK, RGB
from render.typeface import font

SUPER: Final = 4

Poly = Sequence[tuple[float, float]]

# A biplane seen from above, nose east, in units of its half-span.
_UPPER_WING: Final = (
    (-0.14, -0.96),
    (0.22, -0.96),
    (0.26, -0.9),
    (0.26, 0.9),
    (0.22, 0.96),
    (-0.14, 0.96),
    (-0.18, 0.9),
    (-0.18, -0.9),
)
_FUSELAGE: Final = (
    (0.84, -0.11),
    (0.9, -0.06),
    (0.9, 0.06),
    (0.84, 0.11),
    (0.2, 0.13),
    (-0.4, 0.08),
    (-0.78, 0.04),
    (-0.78, -0.04),
    (-0.4, -0.08),
    (0.2, -0.13),
)
_TAILPLANE: Final = (
    (-0.56, -0.08),
    (-0.64, -0.36),
    (-0.82, -0.36),
    (-0.86, -0.3),
    (-0.86, 0.3),
    (-0.82, 0.36),
    (-0.64, 0.36),
    (-0.56, 0.08),
)
_PROPELLER: Final = ((0.92, -0.34), (0.99, -0.34), (0.99, 0.34), (0.92, 0.34))


def _scaled(poly: Poly, half: float, centre: float) -> list[tuple[float, float]]:
    return [(centre + x * half, centre + y * half) for x, y in poly]


def _shrink(img: Image.Image, size: int) -> Image.Image:
    return img.resize((size, size), Image.Resampling.LANCZOS)


def shape_points(shape: str, cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """The outline of an insignia ``shape`` of radius ``r`` (``circle`` is a 24-gon)."""
    if shape == "circle":
        corners = [(a * 15.0, r) for a in range(24)]
    elif shape == "square":
        corners = [(45.0 + 90 * k, r * 1.05) for k in range(4)]
    elif shape == "triangle":
        corners = [(90.0 + 120 * k, r * 1.2) for k in range(3)]
        cy += r * 0.2
    elif shape == "diamond":
        corners = [(90.0 * k, r * 1.15) for k in range(4)]
    elif shape == "star":
        corners = [(90.0 + 36 * k, r * (1.25 if k % 2 == 0 else 0.52)) for k in range(10)]
        cy += r * 0.1
    else:  # a cross: its twelve corners lie on two radii
        arm = 0.36
        corners = []
        for k in range(4):
            base = 90.0 * k
            corners += [(base - math.degrees(math.atan(arm)), r / math.cos(math.atan(arm)))]
            corners += [(base + math.degrees(math.atan(arm)), r / math.cos(math.atan(arm)))]
            corners += [(base + 45, arm * r * math.sqrt(2))]
    return [
        (cx + d * math.cos(math.radians(a)), cy - d * math.sin(math.radians(a))) for a, d in corners
    ]


def _insignia(draw: ImageDraw.ImageDraw, shape: str, cx: float, cy: float, r: float) -> None:
    draw.polygon(shape_points(shape, cx, cy, r + SUPER * 1.2), fill=INK)
    draw.polygon(shape_points(shape, cx, cy, r), fill=(255, 255, 255))


def _airframe(big: int, fill: int) -> Image.Image:
    """The wings, fuselage and tailplane, nose up, as an alpha mask ``big`` px square."""
    mask = Image.new("L", (big, big), 0)
    d = ImageDraw.Draw(mask)
    for poly in (_UPPER_WING, _FUSELAGE, _TAILPLANE):
        d.polygon(_scaled(poly, big * 0.46, big / 2), fill=fill)
    return mask


@lru_cache(maxsize=512)
def plane(colour: RGB, shape: str, facing: int, size: int, faded: bool = False) -> Image.Image:
    """A plane ``size`` px square in ``colour``, nose towards ``facing``, with the seat's
    insignia upright on its wing so that shapes never turn into each other. A faded
    plane (one in reserve) is drawn at a third of its opacity."""
    big = size * SUPER
    c = big / 2
    half = big * 0.46
    mask = _airframe(big, 255)
    prop = Image.new("L", (big, big), 0)
    ImageDraw.Draw(prop).polygon(_scaled(_PROPELLER, half, c), fill=255)
    # An ink outline in proportion to the plane keeps it apart from any sky or cloud
    # even when Discord shrinks the picture to a phone's width.
    ring = 2 * max(SUPER, round(big * 0.03)) + 1
    outline = ImageChops.lighter(mask, prop).filter(ImageFilter.MaxFilter(ring))
    angle = facing * 60
    mask = mask.rotate(angle, Image.Resampling.BICUBIC)
    outline = outline.rotate(angle, Image.Resampling.BICUBIC)
    img = Image.new("RGBA", (big, big), (*INK, 0))
    img.putalpha(outline)
    body = Image.new("RGBA", (big, big), (*colour, 255))
    img.paste(body, (0, 0), mask)
    _insignia(ImageDraw.Draw(img), shape, c, c, big * 0.13)
    small = _shrink(img, size)
    if faded:
        small.putalpha(small.getchannel("A").point(lambda a: a // 3))
    return small


@lru_cache(maxsize=64)
def shadow(facing: int, size: int, strength: int) -> Image.Image:
    """The soft shadow a plane casts on the sky: an alpha mask, pasted in black."""
    mask = (
        _airframe(size * SUPER, strength)
        .rotate(facing * 60, Image.Resampling.BICUBIC)
        .filter(ImageFilter.GaussianBlur(SUPER * 1.5))
    )
    return _shrink(mask, size)


# A cloud is a cluster of puffs: (x, y, radius) in hex radii about the cell centre.
_PUFFS: Final = (
    (0.0, 0.08, 0.6),
    (-0.5, 0.22, 0.4),
    (0.52, 0.2, 0.42),
    (-0.28, -0.3, 0.44),
    (0.26, -0.36, 0.42),
    (0.0, 0.44, 0.44),
    (-0.74, -0.02, 0.3),
    (0.76, -0.04, 0.3),
    (-0.02, -0.6, 0.32),
    (0.52, -0.12, 0.36),
    (-0.5, -0.16, 0.34),
)


@lru_cache(maxsize=16)
def cloud(colour: RGB, shade: RGB, r: float) -> Image.Image:
    """A soft cloud a little larger than a hex of radius ``r``, so neighbouring clouds
    merge into one bank as they do on the physical board."""
    size = round(r * 2.5)
    big = size * SUPER
    c = big / 2
    rr = r * SUPER
    img = Image.new("RGBA", (big, big), (*shade, 0))
    shade_mask = Image.new("L", (big, big), 0)
    top_mask = Image.new("L", (big, big), 0)
    ds, dt = ImageDraw.Draw(shade_mask), ImageDraw.Draw(top_mask)
    for x, y, rad in _PUFFS:
        px, py, pr = c + x * rr, c + y * rr, rad * rr
        ds.ellipse((px - pr, py - pr + rr * 0.06, px + pr, py + pr + rr * 0.06), fill=235)
        dt.ellipse((px - pr * 0.94, py - pr * 0.94, px + pr * 0.94, py + pr * 0.94), fill=240)
    blur = ImageFilter.GaussianBlur(SUPER * r / 30)
    img.putalpha(shade_mask.filter(blur))
    img.paste(Image.new("RGBA", (big, big), (*colour, 240)), (0, 0), top_mask.filter(blur))
    return _shrink(img, size)


@lru_cache(maxsize=64)
def height_badge(height: int, size: int) -> Image.Image:
    """A round badge with the plane's height: white with a dark ring, readable on any
    seat colour and either theme."""
    big = size * SUPER
    c = big / 2
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.ellipse((0, 0, big - 1, big - 1), fill=INK)
    ring = big * 0.08
    d.ellipse((ring, ring, big - 1 - ring, big - 1 - ring), fill=(255, 255, 255))
    d.text(
        (c, c + big * 0.03), str(height), fill=INK, font=font(round(big * 0.7), True), anchor="mm"
    )
    return _shrink(img, size)


@lru_cache(maxsize=16)
def ace_star(size: int) -> Image.Image:
    big = size * SUPER
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.polygon(shape_points("star", big / 2, big / 2, big * 0.4), fill=INK)
    d.polygon(shape_points("star", big / 2, big / 2, big * 0.3), fill=GOLD)
    return _shrink(img, size)


@lru_cache(maxsize=32)
def burst(colour: RGB, size: int) -> Image.Image:
    """The mark left where a plane went down this turn: a jagged burst with a cross."""
    big = size * SUPER
    c = big / 2
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    spikes = [
        (
            c + math.cos(math.radians(a * 22.5 + 8)) * rr,
            c - math.sin(math.radians(a * 22.5 + 8)) * rr,
        )
        for a in range(16)
        for rr in [big * (0.48 if a % 2 == 0 else 0.3)]
    ]
    d.polygon(spikes, fill=INK)
    inner = [(c + (x - c) * 0.8, c + (y - c) * 0.8) for x, y in spikes]
    d.polygon(inner, fill=colour)
    arm, w = big * 0.16, round(big * 0.07)
    d.line((c - arm, c - arm, c + arm, c + arm), fill=(255, 255, 255), width=w)
    d.line((c - arm, c + arm, c + arm, c - arm), fill=(255, 255, 255), width=w)
    return _shrink(img, size)


@lru_cache(maxsize=16)
def glow(r: float, colour: RGB, alpha: int) -> Image.Image:
    """A filled hex of radius ``r`` in ``colour`` at ``alpha``, for highlighted cells."""
    size = math.ceil(r * 2) + 2
    big = size * SUPER
    c = big / 2
    img = Image.new("RGBA", (big, big), (*colour, 0))
    mask = Image.new("L", (big, big), 0)
    rr = r * SUPER
    pts = [
        (c + rr * math.cos(math.radians(a)), c - rr * math.sin(math.radians(a)))
        for a in range(30, 390, 60)
    ]
    ImageDraw.Draw(mask).polygon(pts, fill=alpha)
    img.putalpha(mask)
    return _shrink(img, size)


def paste_centred(canvas: Image.Image, sprite: Image.Image, x: float, y: float) -> None:
    """Paste an RGBA or L-mask sprite with its centre at (x, y)."""
    left = round(x - sprite.width / 2)
    top = round(y - sprite.height / 2)
    if sprite.mode == "RGBA":
        canvas.paste(sprite, (left, top), sprite)
    else:
        canvas.paste((0, 0, 0), (left, top, left + sprite.width, top + sprite.height), sprite)
