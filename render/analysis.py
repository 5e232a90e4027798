"""The post-game analysis as pictures shaped for a chat preview and a phone: the
evaluation graph (about 2.4 : 1), then for each blunder two pictures, one board each
(the board after the turn played, then the board after the better turn, each
:data:`BOARD` px wide under a caption), for at most :data:`MAX_BOARDS` blunders (the
costliest). :func:`analysis_image` stacks them all in one tall picture for the command
line's ``--png``.

The graph shows the evaluation after each player-turn and its replies, exactly the
numbers of the report's rows (:func:`rules.ai.analysis.evaluation_series`, in planes).
With two sides it is one line from the first side's point of view, stated in its title
in the report's words, so it rises when the first side gains and falls when it loses;
with more sides it is one point per turn for the player who moved it, in that seat's
colour. Its scale is the report's: it reaches the largest value of the game, and a
decided game is drawn at the edge, in the band that names the winner. Marked turns get
a dot, and the key says which colour is which: yellow for an inaccuracy, orange for a
mistake, red for a blunder.

The boards are :func:`render.board.render_board` of the position after each turn, which
draws that turn's paths, dives, kills and crashes the way the bot's board does. The
words drawn are in the language being spoken (the bot's worker is told it).
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from typing import Final

from PIL import Image, ImageDraw
from PIL.ImageFont import FreeTypeFont

from i18n import _
from render.board import render_board
from render.palette import ALERT, INK, ORANGE, RGB, YELLOW, Theme, mix, seat_colours
from render.palette import theme as get_theme
from render.typeface import font
from rules.ai.analysis import (
    DECIDED,
    MARK_WORDS,
    PLANE,
    TurnReview,
    evaluation_series,
    given_away,
    point_of_view,
    position_before,
)
from rules.game import Game

MARK_COLOURS: Final = {"inaccuracy": YELLOW, "mistake": ORANGE, "blunder": ALERT}
GRAPH_HEIGHT: Final = 0.36  # of the width
BOARD: Final = 1024  # px: one board per picture, readable when a chat shrinks it to half


MAX_BOARDS: Final = 4  # blunders drawn (two pictures each): with the graph and the report's
# file, ten attachments, Discord's most for one message


def analysis_pictures(
    game: Game,
    reviews: Sequence[TurnReview],
    *,
    size: int = 1100,
    theme: str = "dark",
    names: Sequence[str] | None = None,
) -> list[Image.Image]:
    """The graph (``size`` px wide), then the costliest blunders' boards (at most
    :data:`MAX_BOARDS`, in turn order), the turn played and the better turn, one board
    per picture."""
    th = get_theme(theme)
    graph = _graph(game, reviews, size, round(size * GRAPH_HEIGHT), th, names)
    boards = [
        board
        for r in shown_blunders(reviews)
        for board in _blunder_boards(game, r, theme, names, th.page, th.text)
    ]
    return [graph, *boards]


def shown_blunders(reviews: Sequence[TurnReview]) -> list[TurnReview]:
    """The blunders that get a picture: the costliest :data:`MAX_BOARDS`, in turn order."""
    blunders = [r for r in reviews if r.mark == "blunder"]
    costliest = sorted(blunders, key=lambda r: -r.drop)[:MAX_BOARDS]
    return [r for r in blunders if r in costliest]


def analysis_image(
    game: Game,
    reviews: Sequence[TurnReview],
    *,
    size: int = 1100,
    theme: str = "dark",
    names: Sequence[str] | None = None,
) -> Image.Image:
    """Every picture of :func:`analysis_pictures` stacked in one, for a file."""
    parts = analysis_pictures(game, reviews, size=size, theme=theme, names=names)
    wide = max(p.width for p in parts)
    out = Image.new("RGB", (wide, sum(p.height for p in parts)), get_theme(theme).page)
    y = 0
    for p in parts:
        out.paste(p, (0, y))
        y += p.height
    return out


def analysis_png(game: Game, reviews: Sequence[TurnReview], **options: object) -> bytes:
    """:func:`analysis_image` as PNG bytes."""
    return _png(analysis_image(game, reviews, **options))  # type: ignore[arg-type]


def analysis_pngs(game: Game, reviews: Sequence[TurnReview], **options: object) -> list[bytes]:
    """:func:`analysis_pictures` as PNG bytes, one each."""
    return [_png(img) for img in analysis_pictures(game, reviews, **options)]  # type: ignore[arg-type]


def _png(img: Image.Image) -> bytes:
    out = io.BytesIO()
    img.save(out, "PNG", optimize=False, compress_level=6)
    return out.getvalue()


def scale(values: Sequence[float]) -> float:
    """The graph's reach, in planes: the largest value of the game that is not a decided
    one, rounded up to a whole plane (at least 2), so nothing the report shows is cut."""
    undecided = [abs(v) / PLANE for v in values if abs(v) < DECIDED]
    return float(max(2, math.ceil(max(undecided, default=0.0))))


def _graph(
    game: Game,
    reviews: Sequence[TurnReview],
    width: int,
    height: int,
    th: Theme,
    names: Sequence[str] | None,
) -> Image.Image:
    page, text, muted = th.page, th.text, th.muted
    img = Image.new("RGB", (width, height), page)
    d = ImageDraw.Draw(img)
    pad = round(width * 0.06)
    label = font(max(10, round(width * 0.016)))
    row = label.size * 1.5
    top, bottom = row * 3.6, height - pad * 0.8
    left, right = pad, width - pad * 0.4
    colours = seat_colours(game.mode, th)
    teams = game.mode.teams
    two_sides = len(set(teams)) == 2
    who = [names[s] if names and s < len(names) else f"P{s + 1}" for s in range(game.seats)]
    for k, line in enumerate(
        (_("evaluation after each turn and the replies"), point_of_view(who, teams))
    ):
        fitted = _fit(d, line, label, right - left)
        d.text((left, row * (0.7 + k)), fitted, fill=text, font=label, anchor="lm")
    x = float(left)
    rad = max(4, width // 160)
    key: list[tuple[RGB, str, bool]] = [
        (c, _(MARK_WORDS[m]), True) for m, c in MARK_COLOURS.items()
    ]
    if not two_sides:
        key += [(colours[s], who[s], False) for s in range(game.seats)]
    for colour, word, dot in key:
        y = row * 2.7
        if dot:
            d.ellipse((x, y - rad, x + 2 * rad, y + rad), fill=colour, outline=INK)
        else:
            d.line((x, y, x + 2 * rad, y), fill=colour, width=max(2, width // 400))
        d.text((x + 2 * rad + 6, y), word, fill=muted, font=label, anchor="lm")
        x += 2 * rad + 6 + d.textlength(word, font=label) + row
    values = evaluation_series(reviews, teams)
    reach = scale(values)
    band = row * 1.2  # the decided games' band at either edge
    mid = (top + bottom) / 2
    half = (bottom - top) / 2 - band

    def y_of(v: float) -> float:
        if abs(v) >= DECIDED:
            return mid - (half + band / 2) * (1 if v > 0 else -1)
        return mid - v / PLANE / reach * half

    step = max(1, round(reach / 4))
    for planes in range(-int(reach), int(reach) + 1):
        y = y_of(planes * PLANE)
        d.line((left, y, right, y), fill=muted if planes == 0 else mix(muted, page, 0.75), width=1)
        if planes % step == 0:
            d.text(
                (left - 6, y),
                f"{planes:+d}" if planes else "0",
                fill=muted,
                font=label,
                anchor="rm",
            )
    if two_sides:
        other = " & ".join(who[s] for s in range(game.seats) if teams[s] != teams[0])
        first = " & ".join(who[s] for s in range(game.seats) if teams[s] == teams[0])
        for sign, winner in ((1, first), (-1, other)):
            y = y_of(sign * WIN_DRAWN)
            d.text((right, y), _("{who} wins", who=winner), fill=muted, font=label, anchor="rm")
    if not reviews:
        return img
    n = len(reviews)

    def x_of(k: int) -> float:
        return left + (right - left) * (k + 0.5) / n

    if two_sides:
        pts = [(x_of(k), y_of(v)) for k, v in enumerate(values)]
        if len(pts) > 1:
            d.line(pts, fill=text, width=max(2, width // 400), joint="curve")
    for k, (r, v) in enumerate(zip(reviews, values, strict=True)):
        if r.number % 5 == 0:
            d.text((x_of(k), bottom + 4), str(r.number), fill=muted, font=label, anchor="mt")
        if not two_sides:
            x, y = x_of(k), y_of(v)
            d.ellipse((x - rad / 2, y - rad / 2, x + rad / 2, y + rad / 2), fill=colours[r.seat])
        if r.mark is not None:
            x, y = x_of(k), y_of(v)
            d.ellipse((x - rad, y - rad, x + rad, y + rad), fill=MARK_COLOURS[r.mark], outline=INK)
    return img


WIN_DRAWN: Final = 2 * DECIDED  # any decided value: where the winner's band is labelled


def _blunder_boards(
    game: Game,
    review: TurnReview,
    theme: str,
    names: Sequence[str] | None,
    page: RGB,
    text: RGB,
) -> list[Image.Image]:
    """The board after the turn played and the board after the better turn, each in a
    picture of its own under a caption that says which it is."""
    before = position_before(game, review)
    who = names[review.seat] if names and review.seat < len(names) else f"P{review.seat + 1}"
    head = _("turn {n}: {who}'s blunder", n=review.number, who=who)
    captions = [
        (f"{head}: " + _("played {turn}", turn=review.played), given_away(review, who)),
        (f"{head}: " + _("better {turn}", turn=review.better or "-"), ""),
    ]
    pictures = []
    for plan, (line, sub) in zip((review.played_plan, review.better_plan), captions, strict=True):
        shown = before.copy()
        for s in plan:
            shown.play(s)
        board = render_board(shown, size=BOARD, theme=theme, names=names)
        f = font(round(BOARD * 0.03))
        caption = round(f.size * (3.4 if sub else 2.0))
        img = Image.new("RGB", (board.width, caption + board.height), page)
        d = ImageDraw.Draw(img)
        margin = f.size * 0.6
        d.text(
            (margin, f.size),
            _fit(d, line, f, board.width - 2 * margin),
            fill=text,
            font=f,
            anchor="lm",
        )
        if sub:
            d.text(
                (margin, f.size * 2.4),
                _fit(d, sub, f, board.width - 2 * margin),
                fill=ALERT,
                font=f,
                anchor="lm",
            )
        img.paste(board, (0, caption))
        pictures.append(img)
    return pictures


def _fit(d: ImageDraw.ImageDraw, text: str, f: FreeTypeFont, room: float) -> str:
    """``text``, cut short with an ellipsis if it is wider than ``room`` pixels."""
    if d.textlength(text, font=f) <= room:
        return text
    while text and d.textlength(text + "…", font=f) > room:
        text = text[:-1]
    return text + "…"
