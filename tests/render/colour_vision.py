"""Colour distance as people with and without colour blindness see it.

Simulation: Machado, Oliveira & Fernandes (2009), severity 1.0, applied to linear sRGB.
Distance: Euclidean in Oklab (Ottosson 2020), where 0.02 is about one just-noticeable
difference and 1.0 the distance from black to white.
"""

from __future__ import annotations

import math

Matrix = tuple[tuple[float, float, float], ...]

DEUTERANOPIA: Matrix = (
    (0.367322, 0.860646, -0.227968),
    (0.280085, 0.672501, 0.047413),
    (-0.011820, 0.042940, 0.968881),
)
PROTANOPIA: Matrix = (
    (0.152286, 1.052583, -0.204868),
    (0.114503, 0.786281, 0.099216),
    (-0.003882, -0.048116, 1.051998),
)
VISIONS: dict[str, Matrix | None] = {
    "normal": None,
    "deuteranopia": DEUTERANOPIA,
    "protanopia": PROTANOPIA,
}


def linear(rgb: tuple[int, int, int]) -> tuple[float, float, float]:
    def one(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    return one(rgb[0]), one(rgb[1]), one(rgb[2])


def simulate(lin: tuple[float, float, float], m: Matrix | None) -> tuple[float, float, float]:
    if m is None:
        return lin
    r, g, b = (min(1.0, max(0.0, row[0] * lin[0] + row[1] * lin[1] + row[2] * lin[2])) for row in m)
    return r, g, b


def oklab(lin: tuple[float, float, float]) -> tuple[float, float, float]:
    r, g, b = lin
    l_ = math.cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b)
    m_ = math.cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b)
    s_ = math.cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b)
    return (
        0.2104542553 * l_ + 0.7936177850 * m_ - 0.0040720468 * s_,
        1.9779984951 * l_ - 2.4285922050 * m_ + 0.4505937099 * s_,
        0.0259040371 * l_ + 0.7827717662 * m_ - 0.8086757660 * s_,
    )


def distance(a: tuple[int, int, int], b: tuple[int, int, int], vision: str) -> float:
    m = VISIONS[vision]
    return math.dist(oklab(simulate(linear(a), m)), oklab(simulate(linear(b), m)))
