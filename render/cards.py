"""Achievement cards as pictures: one card when it is claimed, or a sheet of several.

The edition prints no card art (rules spec §8), so the look is ours: a dark card with
a gold frame, the points as pips along the top (the number alone reads as a score, the
pips say "worth this much" at a glance), the name, and the condition in full so nobody
has to look it up mid-game. A claimed card carries a ribbon naming who claimed it.

Its words are in the language being spoken (:mod:`i18n`): the worker that draws it is
told which (:mod:`bot.services.jobs`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from PIL import Image, ImageDraw
from PIL.ImageFont import FreeTypeFont

from i18n import _, n_
from render.palette import DARK, GOLD, INK, mix
from render.png import sheet_png
from render.typeface import font
from rules.achievements import Card

WIDTH: Final = 300
HEIGHT: Final = 340
GAP: Final = 16  # between cards on a sheet, and around them
PER_ROW: Final = 4
RIBBON: Final = (0, 158, 115)  # the palette's bluish green: "yours", not a seat colour


def _wrap(text: str, face: FreeTypeFont, width: int) -> list[str]:
    """Greedy word wrap to ``width`` pixels; a word longer than a line stands alone."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if line and face.getlength(trial) > width:
            lines.append(line)
            line = word
        else:
            line = trial
    if line:
        lines.append(line)
    return lines


def _draw_card(image: Image.Image, x: int, y: int, card: Card, claimed_by: str | None) -> None:
    draw = ImageDraw.Draw(image)
    face = DARK.card
    draw.rounded_rectangle(
        (x, y, x + WIDTH - 1, y + HEIGHT - 1), radius=18, fill=face, outline=GOLD, width=4
    )
    inner = mix(face, GOLD, 0.12)
    draw.rounded_rectangle((x + 14, y + 14, x + WIDTH - 15, y + 84), radius=10, fill=inner)
    pip_r, pip_gap = 11, 8
    row = card.points * 2 * pip_r + (card.points - 1) * pip_gap
    px = x + (WIDTH - row) // 2
    for _pip in range(card.points):
        draw.ellipse((px, y + 24, px + 2 * pip_r, y + 24 + 2 * pip_r), fill=GOLD, outline=INK)
        px += 2 * pip_r + pip_gap
    label = n_("{n} point", "{n} points", card.points)
    draw.text((x + WIDTH // 2, y + 66), label, font=font(16), fill=DARK.muted, anchor="mm")

    title = font(28, bold=True)
    ty = y + 114
    for line in _wrap(_(card.name), title, WIDTH - 40):
        draw.text((x + WIDTH // 2, ty), line, font=title, fill=DARK.text, anchor="mm")
        ty += 34
    draw.line((x + 40, ty, x + WIDTH - 40, ty), fill=mix(face, GOLD, 0.5), width=2)
    body = font(18)
    ty += 22
    for line in _wrap(_(card.rule), body, WIDTH - 48):
        draw.text((x + WIDTH // 2, ty), line, font=body, fill=DARK.text, anchor="mm")
        ty += 25

    if claimed_by is not None:
        band = (x + 4, y + HEIGHT - 62, x + WIDTH - 5, y + HEIGHT - 18)
        draw.rectangle(band, fill=RIBBON)
        who = claimed_by if len(claimed_by) <= 22 else claimed_by[:21] + "…"
        draw.text(
            (x + WIDTH // 2, (band[1] + band[3]) // 2),
            _("Claimed by {who}", who=who),
            font=font(18, bold=True),
            fill=(255, 255, 255),
            anchor="mm",
        )


def card_png(card: Card, *, claimed_by: str | None = None) -> bytes:
    """One card as PNG bytes; ``claimed_by`` adds the ribbon announcing a claim."""
    image = Image.new("RGB", (WIDTH + 2 * GAP, HEIGHT + 2 * GAP), DARK.page)
    _draw_card(image, GAP, GAP, card, claimed_by)
    return sheet_png(image)


def cards_png(cards: Sequence[Card], *, title: str | None = None) -> bytes:
    """Several cards in rows of four, with an optional title above them."""
    if not cards:
        raise ValueError("a sheet needs at least one card")
    columns = min(PER_ROW, len(cards))
    rows = -(-len(cards) // PER_ROW)
    head = 56 if title else 0
    size: tuple[int, int] = (
        GAP + columns * (WIDTH + GAP),
        head + GAP + rows * (HEIGHT + GAP),
    )
    image = Image.new("RGB", size, DARK.page)
    if title:
        ImageDraw.Draw(image).text(
            (GAP, GAP + 8), title, font=font(28, bold=True), fill=DARK.text, anchor="lt"
        )
    for i, card in enumerate(cards):
        col, row = i % PER_ROW, i // PER_ROW
        _draw_card(image, GAP + col * (WIDTH + GAP), head + GAP + row * (HEIGHT + GAP), card, None)
    return sheet_png(image)
