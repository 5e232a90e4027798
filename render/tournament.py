"""Tournament pictures: the standings table and an elimination bracket.

Render imports only the rules, so the caller hands over plain data: a
:class:`StandingRow` per player in standing order, and a :class:`BracketBox` per
bracket match (the service's ``Bracket`` flattened, with names instead of ids). Both
pictures use the board's dark theme so they sit well in a Discord channel.

A bracket is drawn as columns, one per round, each side (winners, losers, finals) as
its own band from top to bottom; a match is a box with its two players, the winner in
gold. Byes and matches still waiting show a dash, so the shape of the whole event is
visible from round one. The words drawn (headings, band titles) are in the language
being spoken (:mod:`i18n`); a worker process is told it (``bot.services.jobs``).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Final

from PIL import Image, ImageDraw

from i18n import N_, _
from render.palette import DARK, GOLD, mix
from render.png import sheet_png
from render.typeface import fitted, font, titled

PAD: Final = 24
ROW: Final = 44
HEAD: Final = 104
NAME_COLUMN: Final = 340  # room for the place and the name
NUMBER_COLUMN: Final = 150

BOX_W: Final = 220
BOX_H: Final = 58
GAP_X: Final = 40
GAP_Y: Final = 16
SIDE_TITLES: Final = {
    "W": N_("Winners' bracket"),
    "L": N_("Losers' bracket"),
    "GF": N_("Grand final"),
    "3RD": N_("Third place"),
}


def side_title(side: str, sides: Collection[str]) -> str:
    """A side's heading among a bracket's ``sides``: a single-elimination bracket has one
    side only, so it is just the bracket, not the winners' one."""
    if side == "W" and "L" not in sides:
        return _("Bracket")
    return _(SIDE_TITLES[side])


@dataclass(frozen=True)
class StandingRow:
    place: int
    name: str
    score: float
    tiebreaks: tuple[float, ...] = ()  # in the order of the table's tie-break columns
    dropped: bool = False


@dataclass(frozen=True)
class BracketBox:
    """One bracket match: ``side`` is W, L, GF or 3RD; players None for a bye or
    a slot still to be decided."""

    id: str
    side: str
    round: int
    first: str | None
    second: str | None
    winner: str | None


def _number(value: float) -> str:
    """Scores in halves read as 2½, other tie-break values with one decimal."""
    whole, frac = divmod(round(value * 2), 2)
    if abs(value * 2 - round(value * 2)) < 1e-9:
        return f"{whole or ''}½" if frac else str(whole)
    return f"{value:.1f}"


def standings_png(
    rows: Sequence[StandingRow], title: str, *, columns: Sequence[str] = (), subtitle: str = ""
) -> bytes:
    """The standings as PNG bytes: place, name, score, then one column per tie-break
    (``columns`` names them). Dropped players are greyed, leaders get a gold bar."""
    width = PAD * 2 + NAME_COLUMN + NUMBER_COLUMN * (1 + len(columns))
    image = Image.new("RGB", (max(width, 640), HEAD + ROW * len(rows) + PAD), DARK.page)
    draw = ImageDraw.Draw(image)
    titled(draw, (PAD, 18), width - 2 * PAD, title, subtitle, (28, 16))
    heads = (_("Score"), *columns)
    for i, label in enumerate(heads):
        x = PAD + NAME_COLUMN + NUMBER_COLUMN * i + NUMBER_COLUMN // 2
        draw.text((x, HEAD - 16), label, font=font(14, bold=True), fill=DARK.muted, anchor="mm")
    y = HEAD
    for i, row in enumerate(rows):
        fill = DARK.card if i % 2 == 0 else mix(DARK.card, DARK.page, 0.5)
        draw.rectangle((PAD, y, image.width - PAD, y + ROW - 4), fill=fill)
        if row.place == 1:
            draw.rectangle((PAD, y, PAD + 6, y + ROW - 4), fill=GOLD)
        middle = y + (ROW - 4) // 2
        ink = DARK.muted if row.dropped else DARK.text
        draw.text(
            (PAD + 20, middle), f"{row.place}.", font=font(20, bold=True), fill=ink, anchor="lm"
        )
        name = row.name + (" " + _("(dropped)") if row.dropped else "")
        face = font(20)
        draw.text(
            (PAD + 70, middle),
            fitted(name, face, NAME_COLUMN - 80),
            font=face,
            fill=ink,
            anchor="lm",
        )
        for j, value in enumerate((row.score, *row.tiebreaks)):
            x = PAD + NAME_COLUMN + NUMBER_COLUMN * j + NUMBER_COLUMN // 2
            face = font(20, bold=j == 0)
            draw.text(
                (x, middle), _number(value), font=face, fill=GOLD if j == 0 else ink, anchor="mm"
            )
        y += ROW
    return sheet_png(image)


def bracket_png(boxes: Sequence[BracketBox], title: str) -> bytes:
    """An elimination bracket as PNG bytes, one band per side, one column per round."""
    sides = [s for s in ("W", "L", "3RD", "GF") if any(b.side == s for b in boxes)]
    bands: list[tuple[str, list[list[BracketBox]]]] = []
    for side in sides:
        rounds = sorted({b.round for b in boxes if b.side == side})
        columns = [
            sorted((b for b in boxes if b.side == side and b.round == r), key=_order)
            for r in rounds
        ]
        bands.append((side, columns))
    widest = max((len(cols) for _, cols in bands), default=1)
    tallest = [max(len(col) for col in cols) for _, cols in bands]
    width = PAD * 2 + widest * (BOX_W + GAP_X)
    height = HEAD + sum(40 + n * (BOX_H + GAP_Y) for n in tallest) + PAD
    image = Image.new("RGB", (max(width, 480), height), DARK.page)
    draw = ImageDraw.Draw(image)
    draw.text((PAD, 18), title, font=font(28, bold=True), fill=DARK.text)
    y = HEAD - 24
    for (side, columns), rows in zip(bands, tallest, strict=True):
        draw.text(
            (PAD, y),
            side_title(side, sides),
            font=font(18, bold=True),
            fill=DARK.muted,
        )
        top = y + 32
        band = rows * (BOX_H + GAP_Y)
        for c, column in enumerate(columns):
            x = PAD + c * (BOX_W + GAP_X)
            step = band / max(len(column), 1)
            for r, box in enumerate(column):
                by = int(top + step * r + (step - BOX_H - GAP_Y) / 2)
                _box(draw, x, by, box)
        y = top + band + 8
    return sheet_png(image)


def _order(box: BracketBox) -> tuple[int, str]:
    """Matches of a round top to bottom by their number (W1-10 after W1-9)."""
    tail = box.id.rsplit("-", 1)[-1]
    return (int(tail) if tail.isdigit() else 0, box.id)


def _box(draw: ImageDraw.ImageDraw, x: int, y: int, box: BracketBox) -> None:
    draw.rounded_rectangle((x, y, x + BOX_W, y + BOX_H), radius=6, fill=DARK.card)
    face = font(16)
    for i, player in enumerate((box.first, box.second)):
        line_y = y + 15 + i * 28
        won = player is not None and player == box.winner
        text = fitted(player or "—", face, BOX_W - 20)
        draw.text(
            (x + 10, line_y),
            text,
            font=font(16, bold=won),
            fill=GOLD if won else DARK.text,
            anchor="lm",
        )
    draw.line((x + 6, y + BOX_H // 2, x + BOX_W - 6, y + BOX_H // 2), fill=DARK.grid, width=1)
