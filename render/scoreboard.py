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

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from PIL import Image, ImageDraw
from PIL.ImageFont import FreeTypeFont

from i18n import N_, _
from render.palette import DARK, GOLD, mix
from render.png import sheet_png
from render.typeface import PHONE_PAD, PHONE_WIDTH, SMALLEST_TEXT, fitted, font, titled
from rules.achievements import CARDS

# Drawn for a phone (render.typeface): the kept cards take a line of their own under the name.
WIDTH: Final = PHONE_WIDTH
ROW: Final = 80
HEAD: Final = 104
PAD: Final = PHONE_PAD
SMALL: Final = SMALLEST_TEXT
# headings (English, marked for translation) and the centres of their columns
COLUMNS: Final = ((N_("Games won"), 420), (N_("Points"), 540))


@dataclass(frozen=True)
class ScoreRow:
    """One competitor: a player, or a team in team play."""

    name: str
    wins: int
    points: int
    kept: tuple[str, ...]  # card keys
    leader: bool = False


def scoreboard_png(
    title: str, rows: Sequence[ScoreRow], *, subtitle: str = "", pool: Sequence[str] = ()
) -> bytes:
    """The scoreboard as PNG bytes; ``pool`` (card keys still to be won) is listed
    under the table when given."""
    foot = 56 if pool else 16
    image = Image.new("RGB", (WIDTH, HEAD + ROW * len(rows) + foot), DARK.page)
    draw = ImageDraw.Draw(image)
    titled(draw, (PAD, 16), WIDTH - 2 * PAD, title, subtitle, (26, 17))
    heading = font(SMALL, bold=True)
    room = WIDTH - COLUMNS[-1][1] - PAD
    for label, x in COLUMNS:
        draw.text(
            (x, HEAD - 14),
            fitted(_(label), heading, 2 * room),
            font=heading,
            fill=DARK.muted,
            anchor="mm",
        )
    y = HEAD
    small = font(SMALL)
    name_room = COLUMNS[0][1] - 60 - PAD - 24
    for i, row in enumerate(rows):
        fill = DARK.card if i % 2 == 0 else mix(DARK.card, DARK.page, 0.5)
        draw.rectangle((PAD, y, WIDTH - PAD, y + ROW - 6), fill=fill)
        if row.leader:
            draw.rectangle((PAD, y, PAD + 8, y + ROW - 6), fill=GOLD)
        top = y + 24
        name = fitted(row.name, font(22, bold=True), name_room)
        draw.text((PAD + 20, top), name, font=font(22, bold=True), fill=DARK.text, anchor="lm")
        draw.text((COLUMNS[0][1], top), str(row.wins), font=font(24), fill=DARK.text, anchor="mm")
        points = font(24, bold=True)
        draw.text((COLUMNS[1][1], top), str(row.points), font=points, fill=GOLD, anchor="mm")
        wide = WIDTH - 2 * PAD - 28
        with_points = ", ".join(f"{_(CARDS[c].name)} ({CARDS[c].points})" for c in row.kept)
        names = ", ".join(_(CARDS[c].name) for c in row.kept)
        kept = _("Cards kept: {cards}", cards=with_points) if row.kept else ""
        if kept and small.getlength(kept) > wide:
            kept = fitted(_("Cards kept: {cards}", cards=names), small, wide)
        draw.text(
            (PAD + 20, y + 54), kept or _("no cards kept"), font=small, fill=DARK.muted, anchor="lm"
        )
        y += ROW
    if pool:
        left = _("Still in the pool: {cards}.", cards=", ".join(_(CARDS[c].name) for c in pool))
        for k, line in enumerate(_lines(left, small, WIDTH - 2 * PAD)[:2]):
            draw.text((PAD, y + 8 + 20 * k), line, font=small, fill=DARK.muted)
    return sheet_png(image)


def _lines(text: str, face: FreeTypeFont, room: float) -> list[str]:
    """``text`` broken between words into lines no wider than ``room``; the second
    of two lines ends with an ellipsis when more was left."""
    lines = [""]
    for word in text.split(" "):
        longer = f"{lines[-1]} {word}".strip()
        if lines[-1] and face.getlength(longer) > room:
            lines.append(word)
        else:
            lines[-1] = longer
    if len(lines) > 2:
        lines[1] = fitted(" ".join(lines[1:]), face, room)
    return lines
