"""Colour distance as people with and without colour blindness see it.

Simulation: Machado, Oliveira & Fernandes (2009), severity 1.0, applied to linear sRGB,
for protanopia, deuteranopia and tritanopia. Distances: Euclidean in Oklab (Ottosson
2020), where 0.02 is about one just-noticeable difference and 1.0 the distance from
black to white; and CIEDE2000 (Sharma, Wu & Dalal 2005) in CIELAB under D65, where 1 is
about one just-noticeable difference.

Run as a script, it prints the table of docs/render.md: each palette's smallest
CIEDE2000 distance between two seat colours and between a seat colour and the sky, under
each vision.
"""

from __future__ import annotations

import itertools
import math

Matrix = tuple[tuple[float, float, float], ...]
Vec = tuple[float, float, float]
RGB = tuple[int, int, int]

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
TRITANOPIA: Matrix = (
    (1.255528, -0.076749, -0.178779),
    (-0.078411, 0.930809, 0.147602),
    (0.004733, 0.691367, 0.303900),
)
VISIONS: dict[str, Matrix | None] = {
    "normal": None,
    "deuteranopia": DEUTERANOPIA,
    "protanopia": PROTANOPIA,
}
EVERY_VISION: dict[str, Matrix | None] = {**VISIONS, "tritanopia": TRITANOPIA}


def linear(rgb: RGB) -> Vec:
    def one(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    return one(rgb[0]), one(rgb[1]), one(rgb[2])


def simulate(lin: Vec, m: Matrix | None) -> Vec:
    if m is None:
        return lin
    r, g, b = (min(1.0, max(0.0, row[0] * lin[0] + row[1] * lin[1] + row[2] * lin[2])) for row in m)
    return r, g, b


def oklab(lin: Vec) -> Vec:
    r, g, b = lin
    l_ = math.cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b)
    m_ = math.cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b)
    s_ = math.cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b)
    return (
        0.2104542553 * l_ + 0.7936177850 * m_ - 0.0040720468 * s_,
        1.9779984951 * l_ - 2.4285922050 * m_ + 0.4505937099 * s_,
        0.0259040371 * l_ + 0.7827717662 * m_ - 0.8086757660 * s_,
    )


def distance(a: RGB, b: RGB, vision: str) -> float:
    m = EVERY_VISION[vision]
    return math.dist(oklab(simulate(linear(a), m)), oklab(simulate(linear(b), m)))


def cielab(lin: Vec) -> Vec:
    """Linear sRGB to CIELAB, D65 white."""
    r, g, b = lin
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return math.cbrt(t) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def ciede2000(one: Vec, two: Vec) -> float:
    """ΔE00 between two CIELAB colours (kL = kC = kH = 1)."""
    l1, a1, b1 = one
    l2, a2, b2 = two
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean**7 / (c_mean**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360
    h2p = math.degrees(math.atan2(b2, a2p)) % 360
    dh = 0.0 if c1p * c2p == 0 else (h2p - h1p + 180) % 360 - 180
    d_l, d_c = l2 - l1, c2p - c1p
    d_h = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_mean, cp_mean = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_mean = (h1p + h2p) / 2
    else:
        h_mean = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(h_mean - 30))
        + 0.24 * math.cos(math.radians(2 * h_mean))
        + 0.32 * math.cos(math.radians(3 * h_mean + 6))
        - 0.20 * math.cos(math.radians(4 * h_mean - 63))
    )
    rotation = 30 * math.exp(-(((h_mean - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(cp_mean**7 / (cp_mean**7 + 25**7))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    s_c = 1 + 0.045 * cp_mean
    s_h = 1 + 0.015 * cp_mean * t
    r_t = -math.sin(math.radians(2 * rotation)) * r_c
    return math.sqrt(
        (d_l / s_l) ** 2 + (d_c / s_c) ** 2 + (d_h / s_h) ** 2 + r_t * (d_c / s_c) * (d_h / s_h)
    )


def delta_e(a: RGB, b: RGB, vision: str) -> float:
    """CIEDE2000 between ``a`` and ``b`` as a person with ``vision`` sees them."""
    m = EVERY_VISION[vision]
    return ciede2000(cielab(simulate(linear(a), m)), cielab(simulate(linear(b), m)))


def smallest(colours: tuple[RGB, ...], sky: RGB, vision: str) -> tuple[float, float]:
    """The smallest ΔE00 between two of ``colours``, and between one and ``sky``."""
    pairs = min(delta_e(a, b, vision) for a, b in itertools.combinations(colours, 2))
    return pairs, min(delta_e(c, sky, vision) for c in colours)


def table() -> str:
    """Markdown: each palette's smallest distances under each vision."""
    from render.palette import PALETTES

    head = "| palette | " + " | ".join(EVERY_VISION) + " |"
    lines = [head, "|---" * (len(EVERY_VISION) + 1) + "|"]
    for name, th in PALETTES.items():
        cells = []
        for vision in EVERY_VISION:
            pairs, sky = smallest(th.seats, th.sky, vision)
            cells.append(f"{pairs:.1f} / {sky:.1f}")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(table())
