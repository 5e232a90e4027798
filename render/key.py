"""The key under the board: what the marks mean, and in team modes who is on which side.

Players read a red burst as "shot down" only if the picture says so somewhere, and team
colours only tell sides apart once the picture names the teams: the key does both in a
row or two between the board and the seat cards.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from i18n import _
from render import sprites
from render.geometry import KEY_ROW, PILL_FONT, Layout
from render.palette import ALERT, CRASH_GREY, INK, SHAPES, TEAM_NAMES, Theme, ink_on, seat_colours
from render.typeface import font, stamp
from rules.modes import Mode


def draw_key(img: Image.Image, layout: Layout, mode: Mode, theme: Theme) -> None:
    """Part of the static layer: it depends only on the mode and the theme."""
    d = ImageDraw.Draw(img)
    r = layout.r
    text_font = font(round(r * 0.45))
    pill_font = font(round(r * PILL_FONT), True)
    mark = round(r * 0.62)
    y = layout.key_top(0) + KEY_ROW * r / 2
    x = r * 0.5
    for colour, label in ((ALERT, _("shot down")), (CRASH_GREY, _("crashed or withdrawn"))):
        sprites.paste_centred(img, sprites.burst(colour, mark), x + mark / 2, y)
        x += mark + r * 0.15
        stamp(d, (x, y), label, theme.text, text_font, "lm")
        x += d.textlength(label, font=text_font) + r * 0.5
    half = d.textlength("▼n", font=pill_font) / 2 + r * 0.1
    d.rounded_rectangle(
        (x, y - r * 0.2, x + 2 * half, y + r * 0.2), r * 0.2, fill=theme.muted, outline=INK
    )
    stamp(d, (x + half, y), "▼n", ink_on(theme.muted), pill_font, "mm")
    stamp(d, (x + 2 * half + r * 0.15, y), _("dived, n lost"), theme.text, text_font, "lm")
    if not mode.family.teams:
        return
    y += KEY_ROW * r
    x = r * 0.5
    colours = seat_colours(mode, theme)
    for team, name in enumerate(map(_, TEAM_NAMES)):
        stamp(d, (x, y), name, theme.text, font(round(r * 0.45), True), "lm")
        x += d.textlength(name, font=font(round(r * 0.45), True)) + r * 0.35
        for seat in range(mode.seats):
            if mode.teams[seat] != team:
                continue
            d.polygon(sprites.shape_points(SHAPES[seat], x + r * 0.2, y, r * 0.26), fill=INK)
            d.polygon(
                sprites.shape_points(SHAPES[seat], x + r * 0.2, y, r * 0.19), fill=colours[seat]
            )
            x += r * 0.5
            label = mode.seat_label(seat)
            stamp(d, (x, y), label, theme.text, text_font, "lm")
            x += d.textlength(label, font=text_font) + r * 0.3
        x += r * 0.6
