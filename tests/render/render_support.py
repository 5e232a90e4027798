"""Helpers for the render tests: pixel sampling and colour comparison."""

from __future__ import annotations

from PIL import Image

from render.palette import RGB


def pixel(img: Image.Image, x: float, y: float) -> RGB:
    r, g, b = img.convert("RGB").getpixel((round(x), round(y)))  # type: ignore[misc]
    return int(r), int(g), int(b)


def near(a: RGB, b: RGB, tolerance: int = 12) -> bool:
    return all(abs(p - q) <= tolerance for p, q in zip(a, b, strict=True))
