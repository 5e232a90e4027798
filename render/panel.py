"""The title strip above the board and the seat cards below it.

A card tells a seat's story without colour: its insignia and label, the player's name,
one small plane per plane left (hollow ones are still in reserve), then trophies,
handicap tokens and, for the seat to move, how many actions are left.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw
from PIL.ImageFont import FreeTypeFont

from i18n import _, current, n_
from render import sprites
from render.geometry import Layout
from render.palette import GOLD, INK, RGB, SHAPES, TEAM_NAMES, Theme, as_text, mix, seat_colours
from render.palette import theme as get_theme
from render.typeface import font
from rules.game import Game
from rules.words.common import turn_left, why


def seat_name(game: Game, seat: int, names: Sequence[str] | None) -> str:
    label = game.mode.seat_label(seat)
    if names and seat < len(names) and names[seat]:
        return f"{label} {names[seat]}"
    return label


def status(game: Game, names: Sequence[str] | None) -> str:
    if game.phase == "over":
        result = game.result
        if result is None or not result.winners:
            return _("Drawn · {reason}", reason=why(game, names or ()) if result else _("over"))
        who = " & ".join(seat_name(game, s, names) for s in result.winners)
        return n_(
            "{who} wins · {reason}",
            "{who} win · {reason}",
            len(result.winners),
            who=who,
            reason=why(game, names or ()),
        )
    who = seat_name(game, game.active, names)
    if game.phase == "setup":
        return _("{who} places a cloud ({n} of 16)", who=who, n=len(game.clouds))
    return _("{who} to move · {left}", who=who, left=turn_left(game))


def draw_title(
    img: Image.Image, layout: Layout, game: Game, theme: Theme, names: Sequence[str] | None
) -> None:
    """Mode and turn on the left, whose move it is on the right. When both do not fit,
    the turn goes first, then the status shrinks: the status is what players need."""
    d = ImageDraw.Draw(img)
    r = layout.r
    y = layout.board_top * 0.55
    pad = r * 0.35
    gap = r * 0.4
    title_font = font(round(r * 0.56), True)
    sub_font = font(round(r * 0.45))
    sub = _("turn {turn} · {ruleset} rules", turn=game.turn, ruleset=game.settings.ruleset)
    text = status(game, names)
    status_px = round(r * 0.5)
    title_w = d.textlength(game.mode.title, font=title_font)
    sub_w = d.textlength(sub, font=sub_font) + gap
    room = layout.width - 2 * pad - title_w - gap

    def status_w() -> float:
        return d.textlength(text, font=font(status_px, True))

    if status_w() + sub_w > room:
        sub = ""
        while status_w() > room and status_px > r * 0.45:
            status_px -= 1
        if status_w() > room:  # the seat's label without the name, not the turn cut short
            text = status(game, None)
        while status_w() > room and len(text) > 4:
            text = text[:-2] + "…"
    d.text((pad, y), _(game.mode.title), fill=theme.text, font=title_font, anchor="lm")
    if sub:
        d.text((pad + title_w + gap, y), sub, fill=theme.muted, font=sub_font, anchor="lm")
    seat_colour = seat_colours(game.mode, theme)[game.active]
    colour = theme.text if game.phase == "over" else as_text(seat_colour, theme)
    d.text((layout.width - pad, y), text, fill=colour, font=font(status_px, True), anchor="rm")


@dataclass(frozen=True)
class Face:
    """Everything one seat card shows, as plain values: cards are drawn once per face
    and reused, since most of them do not change from one board to the next."""

    seat: int
    shape: str
    colour: RGB
    name: str
    out: bool
    active: bool
    won: bool
    on_board: int
    reserve: int
    line: str


def draw_cards(
    img: Image.Image, layout: Layout, game: Game, theme: Theme, names: Sequence[str] | None
) -> None:
    colours = seat_colours(game.mode, theme)
    winners = game.result.winners if game.result else ()
    for seat in range(game.seats):
        face = _face(game, seat, colours[seat], names, seat in winners)
        x0, y0, x1, y1 = layout.card_box(seat)
        img.paste(_card(face, x1 - x0, y1 - y0, layout.r, theme.name, current()), (x0, y0))


def _face(game: Game, seat: int, colour: RGB, names: Sequence[str] | None, won: bool) -> Face:
    state = game.seat(seat)
    active = game.phase != "over" and game.active == seat
    bits = []
    if game.mode.family.trophies:
        bits.append(_("trophies {n}", n=state.trophies))
    if state.handicap:
        bits.append(_("handicap {n}", n=state.handicap))
    if game.settings.rules.rings and not state.out:
        bits.append(_("rings {n}", n=state.rings))
    # first: what is left of the turn is never cut (the card wraps it onto its last row)
    if won:
        bits.insert(0, _("winner"))
    elif active:
        bits.insert(0, turn_left(game) if game.phase == "play" else _("to move"))
    if game.mode.family.teams:
        bits.append(_(TEAM_NAMES[game.mode.teams[seat]]))
    return Face(
        seat,
        SHAPES[seat],
        colour,
        seat_name(game, seat, names),
        state.out,
        active,
        won,
        len(game.planes(seat)),
        state.reserve,
        " · ".join(bits),
    )


@lru_cache(maxsize=256)
def _card(face: Face, w: int, h: int, r: float, theme_name: str, language: str) -> Image.Image:
    """A seat's card; ``language``, what it is drawn in, keeps the cache's pictures apart."""
    theme = get_theme(theme_name)
    img = Image.new("RGB", (w, h), theme.page)
    d = ImageDraw.Draw(img)
    x1, y1 = w - 1, h - 1
    ink = theme.muted if face.out else theme.text
    shown = mix(face.colour, theme.card, 0.6) if face.out else face.colour
    radius = round(r * 0.22)
    d.rounded_rectangle((0, 0, x1, y1), radius, fill=theme.card)
    d.rounded_rectangle((0, 0, round(r * 0.16), y1), radius, fill=shown)
    if face.active or face.won:
        outline = GOLD if face.won else face.colour
        d.rounded_rectangle((0, 0, x1, y1), radius, outline=outline, width=max(2, round(r * 0.08)))
    ix = r * 0.62
    iy = r * 0.6
    d.polygon(sprites.shape_points(face.shape, ix, iy, r * 0.27), fill=INK)
    d.polygon(sprites.shape_points(face.shape, ix, iy, r * 0.2), fill=shown)
    name_font = _shrunk(d, face.name, round(r * 0.55), round(r * 0.45), x1 - ix - r * 0.6)
    name = _fit(d, face.name, name_font, x1 - ix - r * 0.6)
    d.text((ix + r * 0.45, iy), name, fill=ink, font=name_font, anchor="lm")
    small = font(round(r * 0.45))
    row2 = r * 1.3
    parts = face.line.split(" · ") if face.line else []
    if face.out:
        d.text((r * 0.4, row2), _("out of the game"), fill=theme.muted, font=small, anchor="lm")
    else:
        icon = round(r * 0.6)
        planes = _("{n} up", n=face.on_board)
        to_come = _("{n} to come", n=face.reserve) if face.reserve else ""
        count = face.on_board + face.reserve
        # the icons close up (down to half overlapping) before the words move or are cut
        both = f"{planes} · {to_come}" if to_come else planes
        room = x1 - r * 0.36 - r * 0.5 - d.textlength(both, font=small)
        step = max(icon * 0.5, min(icon * 0.8, (room - icon) / max(1, count - 1)))
        x = r * 0.36
        for k in range(count):  # faded: still in reserve
            sprite = sprites.plane(face.colour, face.shape, 1, icon, k >= face.on_board)
            img.paste(sprite, (round(x), round(row2 - icon / 2)), sprite)
            x += step
        x += icon - step
        if d.textlength(both, font=small) <= x1 - x - r * 0.3:
            planes = both
        elif to_come:  # on the rows below, after what is left of the turn
            parts.insert(1 if face.active or face.won else 0, to_come)
        planes = _fit(d, planes, small, x1 - x - r * 0.3)
        d.text((x + r * 0.2, row2), planes, fill=theme.muted, font=small, anchor="lm")
    if parts:
        colour = (
            as_text(GOLD if face.won else face.colour, theme) if face.active or face.won else ink
        )
        rows = _wrap(d, parts, small, x1 - r * 0.55)
        for k, row in enumerate(rows[:2]):
            said = _fit(d, row + (" …" if k == 1 and len(rows) > 2 else ""), small, x1 - r * 0.55)
            d.text((r * 0.4, r * (1.98 + 0.55 * k)), said, fill=colour, font=small, anchor="lm")
    return img


def _shrunk(
    d: ImageDraw.ImageDraw, text: str, largest: int, smallest: int, width: float
) -> FreeTypeFont:
    """The bold face, from ``largest`` px down to ``smallest``, first to fit ``text``."""
    size = largest
    while size > smallest and d.textlength(text, font=font(size, True)) > width:
        size -= 1
    return font(size, True)


def _wrap(d: ImageDraw.ImageDraw, parts: list[str], f: FreeTypeFont, width: float) -> list[str]:
    """``parts`` joined by " · " in rows no wider than ``width``, broken between parts
    first, then between words."""
    rows: list[str] = []
    for part in parts:
        joined = f"{rows[-1]} · {part}" if rows else part
        if rows and d.textlength(joined, font=f) <= width:
            rows[-1] = joined
            continue
        row = ""
        for word in part.split(" "):
            longer = f"{row} {word}" if row else word
            if row and d.textlength(longer, font=f) > width:
                rows.append(row)
                row = word
            else:
                row = longer
        rows.append(row)
    return rows


def _fit(d: ImageDraw.ImageDraw, text: str, f: FreeTypeFont, width: float) -> str:
    """``text``, cut short with an ellipsis if it is wider than ``width``."""
    while d.textlength(text, font=f) > width and len(text) > 4:
        text = text[:-2] + "…"
    return text
