"""A series scoreboard: one row per competitor with games won, cards kept and points.

Rows come already in standing order (the caller applies the rules' tie-breaks, see
:func:`rules.achievements.series_standings`); the board only draws them, marking the
leaders with a gold bar so a shared lead is visible as two gold rows. Kept cards are
listed by name with their points, because "7 points" alone does not say how they were
earned, and earning them is what a series is about.

Its words are in the language being spoken (:mod:`i18n`): the worker that draws it is
told which (:mod:`bot.services.jobs`).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from PIL import Image, ImageDraw
from PIL.ImageFont import FreeTypeFont

from i18n import N_, _
from render.palette import DARK, GOLD, mix
from render.png import sheet_png
from render.typeface import font
from rules.achievements import CARDS

WIDTH: Final = 1100
ROW: Final = 64
HEAD: Final = 112
PAD: Final = 24
# headings (English, marked for translation) and where their columns start
COLUMNS: Final = ((N_("Games won"), 400), (N_("Points"), 530), (N_("Cards kept"), 620))


@dataclass(frozen=True)
class ScoreRow:
    """One competitor: a player, or a team in team play."""

    name: str
    wins: int
    points: int
    kept: tuple[str, ...]  # card keys
    leader: bool = False


def _fit(text: str, face: FreeTypeFont, room: float) -> str:
    """``text``, cut with an ellipsis if it is wider than ``room`` pixels."""
    if face.getlength(text) <= room:
        return text
    while text and face.getlength(text + "…") > room:
        text = text[:-1]
    return text + "…"


def _rooms() -> list[float]:
    """How wide each heading may be: up to the next column, or the page's edge."""
    starts = [x for _label, x in COLUMNS] + [WIDTH - PAD]
    return [after - x - 8 for x, after in itertools.pairwise(starts)]


def scoreboard_png(
    title: str, rows: Sequence[ScoreRow], *, subtitle: str = "", pool: Sequence[str] = ()
) -> bytes:
    """The scoreboard as PNG bytes; ``pool`` (card keys still to be won) is listed
    under the table when given."""
    foot = 48 if pool else 16
    image = Image.new("RGB", (WIDTH, HEAD + ROW * len(rows) + foot), DARK.page)
    draw = ImageDraw.Draw(image)
    draw.text((PAD, 20), title, font=font(30, bold=True), fill=DARK.text)
    if subtitle:
        draw.text((PAD, 58), subtitle, font=font(18), fill=DARK.muted)
    heading = font(15, bold=True)
    for (label, x), room in zip(COLUMNS, _rooms(), strict=True):
        draw.text((x, HEAD - 22), _fit(_(label), heading, room), font=heading, fill=DARK.muted)
    y = HEAD
    for i, row in enumerate(rows):
        fill = DARK.card if i % 2 == 0 else mix(DARK.card, DARK.page, 0.5)
        draw.rectangle((PAD, y, WIDTH - PAD, y + ROW - 6), fill=fill)
        if row.leader:
            draw.rectangle((PAD, y, PAD + 8, y + ROW - 6), fill=GOLD)
        middle = y + (ROW - 6) // 2
        name = row.name if len(row.name) <= 26 else row.name[:25] + "…"
        draw.text((PAD + 24, middle), name, font=font(24, bold=True), fill=DARK.text, anchor="lm")
        draw.text(
            (COLUMNS[0][1] + 30, middle), str(row.wins), font=font(26), fill=DARK.text, anchor="mm"
        )
        draw.text(
            (COLUMNS[1][1] + 24, middle),
            str(row.points),
            font=font(26, bold=True),
            fill=GOLD,
            anchor="mm",
        )
        small = font(15)
        room = WIDTH - PAD - COLUMNS[2][1] - 8
        with_points = ", ".join(f"{_(CARDS[c].name)} ({CARDS[c].points})" for c in row.kept)
        kept = (
            with_points
            if small.getlength(with_points) <= room
            else _fit(", ".join(_(CARDS[c].name) for c in row.kept), small, room)
        )
        draw.text((COLUMNS[2][1], middle), kept or "—", font=small, fill=DARK.text, anchor="lm")
        y += ROW
    if pool:
        left = _("Still in the pool: {cards}.", cards=", ".join(_(CARDS[c].name) for c in pool))
        face = font(16)
        draw.text((PAD, y + 12), _fit(left, face, WIDTH - 2 * PAD), font=face, fill=DARK.muted)
    return sheet_png(image)
