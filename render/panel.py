"""The title strip above the board and the seat cards below it.

A card tells a seat's story without colour: its insignia and label, the player's name,
one small plane per plane left (hollow ones are still in reserve), then trophies,
handicap tokens and, for the seat to move, how many actions are left.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw
from PIL.ImageFont import FreeTypeFont

from render import sprites
from render.geometry import Layout
from render.palette import GOLD, INK, SHAPES, TEAM_NAMES, Theme, mix, seat_colours
from render.typeface import font
from rules.game import Game
from rules.modes import ALL_ACTIONS


def seat_name(game: Game, seat: int, names: Sequence[str] | None) -> str:
    label = game.mode.seat_label(seat)
    if names and seat < len(names) and names[seat]:
        return f"{label} {names[seat]}"
    return label


def actions_left(game: Game) -> str:
    """How much of the player-turn is left, as the player would say it."""
    if game.ramp >= ALL_ACTIONS:
        waiting = sum(1 for p in game.planes(game.active) if p.id not in game.acted)
        if not waiting:
            return "every plane has acted"
        return f"{waiting} plane{'s' if waiting > 1 else ''} still to act"
    # Early free-for-all turns allow more actions than the seat has planes to use.
    usable = sum(1 for p in game.planes(game.active) if p.id not in game.acted)
    left = max(0, min(game.ramp - game.actions, usable + game.seat(game.active).reserve))
    return f"{left} action{'s' if left != 1 else ''} left"


def status(game: Game, names: Sequence[str] | None) -> str:
    if game.phase == "over":
        result = game.result
        if result is None or not result.winners:
            return f"Drawn · {result.reason if result else 'over'}"
        who = " & ".join(seat_name(game, s, names) for s in result.winners)
        return f"{who} win{'s' if len(result.winners) == 1 else ''} · {result.reason}"
    who = seat_name(game, game.active, names)
    if game.phase == "setup":
        return f"{who} places a cloud ({len(game.clouds)} of 16)"
    return f"{who} to move · {actions_left(game)}"


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
    rules = "classic" if game.settings.classic else "2026"
    sub = f"turn {game.turn} · {rules} rules"
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
        while status_w() > room and len(text) > 4:
            text = text[:-2] + "…"
    d.text((pad, y), game.mode.title, fill=theme.text, font=title_font, anchor="lm")
    if sub:
        d.text((pad + title_w + gap, y), sub, fill=theme.muted, font=sub_font, anchor="lm")
    colour = theme.text if game.phase == "over" else seat_colours(game.mode)[game.active]
    d.text((layout.width - pad, y), text, fill=colour, font=font(status_px, True), anchor="rm")


def draw_cards(
    img: Image.Image, layout: Layout, game: Game, theme: Theme, names: Sequence[str] | None
) -> None:
    d = ImageDraw.Draw(img)
    colours = seat_colours(game.mode)
    winners = game.result.winners if game.result else ()
    for seat in range(game.seats):
        _card(img, d, layout, game, theme, seat, colours[seat], names, seat in winners)


def _card(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    layout: Layout,
    game: Game,
    theme: Theme,
    seat: int,
    colour: tuple[int, int, int],
    names: Sequence[str] | None,
    won: bool,
) -> None:
    r = layout.r
    x0, y0, x1, y1 = layout.card_box(seat)
    state = game.seat(seat)
    active = game.phase != "over" and game.active == seat
    out = state.out
    ink = theme.muted if out else theme.text
    shown = mix(colour, theme.card, 0.6) if out else colour
    radius = round(r * 0.22)
    d.rounded_rectangle((x0, y0, x1, y1), radius, fill=theme.card)
    d.rounded_rectangle((x0, y0, x0 + round(r * 0.16), y1), radius, fill=shown)
    if active or won:
        d.rounded_rectangle(
            (x0, y0, x1, y1), radius, outline=GOLD if won else colour, width=max(2, round(r * 0.08))
        )
    ix = x0 + r * 0.62
    iy = y0 + r * 0.6
    d.polygon(sprites.shape_points(SHAPES[seat], ix, iy, r * 0.27), fill=INK)
    d.polygon(sprites.shape_points(SHAPES[seat], ix, iy, r * 0.2), fill=shown)
    name = seat_name(game, seat, names)
    name_font = font(round(r * 0.55), True)
    name = _fit(d, name, name_font, x1 - ix - r * 0.6)
    d.text((ix + r * 0.45, iy), name, fill=ink, font=name_font, anchor="lm")
    small = font(round(r * 0.45))
    row2 = y0 + r * 1.3
    if out:
        d.text((x0 + r * 0.4, row2), "out of the game", fill=theme.muted, font=small, anchor="lm")
    else:
        on_board = len(game.planes(seat))
        icon = round(r * 0.6)
        x = x0 + r * 0.36
        for k in range(on_board + state.reserve):  # faded: still in reserve
            sprite = sprites.plane(colour, SHAPES[seat], 1, icon, k >= on_board)
            img.paste(sprite, (round(x), round(row2 - icon / 2)), sprite)
            x += icon * 0.8
        planes = f"{on_board} up" + (f" · {state.reserve} to come" if state.reserve else "")
        planes = _fit(d, planes, small, x1 - x - r * 0.3)
        d.text((x + r * 0.2, row2), planes, fill=theme.muted, font=small, anchor="lm")
    bits = []
    if game.mode.family == "team":
        bits.append(TEAM_NAMES[game.mode.teams[seat]])
    if game.mode.family == "ffa":
        bits.append(f"trophies {state.trophies}")
    if state.handicap:
        bits.append(f"handicap {state.handicap}")
    if game.settings.classic and not out:
        bits.append(f"rings {state.rings}")
    if won:
        bits.append("winner")
    elif active:
        bits.append(actions_left(game) if game.phase == "play" else "to move")
    if bits:
        line = _fit(d, " · ".join(bits), small, x1 - x0 - r * 0.55)
        d.text(
            (x0 + r * 0.4, y0 + r * 1.98),
            line,
            fill=GOLD if won else (colour if active else ink),
            font=small,
            anchor="lm",
        )


def _fit(d: ImageDraw.ImageDraw, text: str, f: FreeTypeFont, width: float) -> str:
    """``text``, cut short with an ellipsis if it is wider than ``width``."""
    while d.textlength(text, font=f) > width and len(text) > 4:
        text = text[:-2] + "…"
    return text
