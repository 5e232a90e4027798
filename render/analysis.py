"""The post-game analysis as pictures shaped for a chat preview and a phone: the
evaluation graph (about 2.4 : 1), then one picture per blunder, the board after the turn
played beside the board after the better turn (about 1.9 : 1), at most
:data:`MAX_BOARDS` of them (the costliest). :func:`analysis_image` stacks them all in one
tall picture for the command line's ``--png``.

The graph shows the evaluation at the end of each player-turn (:mod:`rules.ai.analysis`,
a plane = 10). With two sides it is one line from the first side's point of view, so it
rises when the first side gains and falls when it loses, and its key says whom "+"
favours; with more sides it is one line per seat, each from its own point of view, in the
seat's colour, named in the key. Marked turns get a dot, and the key says which colour is
which: yellow for an inaccuracy, orange for a mistake, red for a blunder. Values are
clipped to ±5 planes so a won game does not flatten everything else.

The boards are :func:`render.board.render_board` of the position after each turn, which
draws that turn's paths, dives, kills and crashes the way the bot's board does. The
words drawn are in the language being spoken (the bot's worker is told it).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Final

from PIL import Image, ImageDraw
from PIL.ImageFont import FreeTypeFont

from i18n import _
from render.board import render_board
from render.palette import ALERT, INK, ORANGE, RGB, YELLOW, Theme, mix, seat_colours
from render.palette import theme as get_theme
from render.typeface import font
from rules.ai.analysis import GAME, MARK_WORDS, PLANE, TurnReview, position_before
from rules.game import Game

CLIP: Final = 5 * PLANE
MARK_COLOURS: Final = {"inaccuracy": YELLOW, "mistake": ORANGE, "blunder": ALERT}
GRAPH_HEIGHT: Final = 0.36  # of the width
CAPTION: Final = 0.035  # height of a caption line above the boards, of the width


MAX_BOARDS: Final = 4  # blunder pictures in one post: the graph and these fit in one message


def analysis_pictures(
    game: Game,
    reviews: Sequence[TurnReview],
    *,
    size: int = 1100,
    theme: str = "dark",
    names: Sequence[str] | None = None,
) -> list[Image.Image]:
    """The graph, then the costliest blunders' boards (at most :data:`MAX_BOARDS`, in
    turn order), each ``size`` px wide."""
    th = get_theme(theme)
    graph = _graph(game, reviews, size, round(size * GRAPH_HEIGHT), th, names)
    return [
        graph,
        *(
            _blunder_pair(game, r, size, theme, names, th.page, th.text)
            for r in shown_blunders(reviews)
        ),
    ]


def shown_blunders(reviews: Sequence[TurnReview]) -> list[TurnReview]:
    """The blunders that get a picture: the costliest :data:`MAX_BOARDS`, in turn order."""
    blunders = [r for r in reviews if r.mark == "blunder"]
    costliest = sorted(blunders, key=lambda r: -r.loss)[:MAX_BOARDS]
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
    out = Image.new("RGB", (size, sum(p.height for p in parts)), get_theme(theme).page)
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
    top, bottom = row * 2.6, height - pad * 0.8
    left, right = pad, width - pad * 0.4
    colours = seat_colours(game.mode)
    teams = game.mode.teams
    two_sides = len(set(teams)) == 2

    def who(seat: int) -> str:
        return names[seat] if names and seat < len(names) else f"P{seat + 1}"

    first = [s for s in range(game.seats) if teams[s] == teams[0]]
    title = (
        _(
            "evaluation after each turn, in planes: + favours {side}",
            side=" & ".join(map(who, first)),
        )
        if two_sides
        else _(
            "evaluation after each turn, in planes: one line per pilot, + is good for that pilot"
        )
    )
    d.text(
        (left, row * 0.7), _fit(d, title, label, right - left), fill=text, font=label, anchor="lm"
    )
    x = float(left)
    rad = max(4, width // 160)
    key: list[tuple[RGB, str, bool]] = [
        (c, _(MARK_WORDS[m]), True) for m, c in MARK_COLOURS.items()
    ]
    if not two_sides:
        key += [(colours[s], who(s), False) for s in range(game.seats)]
    for colour, word, dot in key:
        y = row * 1.7
        if dot:
            d.ellipse((x, y - rad, x + 2 * rad, y + rad), fill=colour, outline=INK)
        else:
            d.line((x, y, x + 2 * rad, y), fill=colour, width=max(2, width // 400))
        d.text((x + 2 * rad + 6, y), word, fill=muted, font=label, anchor="lm")
        x += 2 * rad + 6 + d.textlength(word, font=label) + row
    mid = (top + bottom) / 2

    def y_of(v: float) -> float:
        return mid - max(-CLIP, min(CLIP, v)) / CLIP * (bottom - top) / 2

    for planes in range(-5, 6):
        y = y_of(planes * PLANE)
        d.line((left, y, right, y), fill=muted if planes == 0 else mix(muted, page, 0.75), width=1)
        if planes % 5 == 0:
            d.text(
                (left - 6, y),
                f"{planes:+d}" if planes else "0",
                fill=muted,
                font=label,
                anchor="rm",
            )
    if not reviews:
        return img
    n = len(reviews)

    def x_of(k: int) -> float:
        return left + (right - left) * (k + 0.5) / n

    lines: dict[int, list[tuple[float, float]]] = {}
    for k, r in enumerate(reviews):
        if two_sides:
            v = r.after if teams[r.seat] == teams[0] else -r.after
            lines.setdefault(0, []).append((x_of(k), y_of(v)))
        else:
            lines.setdefault(r.seat, []).append((x_of(k), y_of(r.after)))
    for seat, pts in lines.items():
        if len(pts) > 1:
            d.line(pts, fill=colours[seat], width=max(2, width // 400), joint="curve")
    for k, r in enumerate(reviews):
        if r.number % 5 == 0:
            d.text((x_of(k), bottom + 4), str(r.number), fill=muted, font=label, anchor="mt")
        if r.mark is None:
            continue
        v = r.after if not two_sides or teams[r.seat] == teams[0] else -r.after
        x, y = x_of(k), y_of(v)
        rad = max(4, width // 160)
        d.ellipse((x - rad, y - rad, x + rad, y + rad), fill=MARK_COLOURS[r.mark], outline=INK)
    return img


def _blunder_pair(
    game: Game,
    review: TurnReview,
    width: int,
    theme: str,
    names: Sequence[str] | None,
    page: RGB,
    text: RGB,
) -> Image.Image:
    before = position_before(game, review)
    played = before.copy()
    for s in review.played_plan:
        played.play(s)
    better = before.copy()
    for s in review.better_plan:
        better.play(s)
    half = width // 2
    boards = [render_board(g, size=half, theme=theme, names=names) for g in (played, better)]
    caption = round(width * CAPTION)
    who = names[review.seat] if names and review.seat < len(names) else f"P{review.seat + 1}"
    lost = (
        _("the game") if review.loss >= GAME else _("{planes} planes", planes=f"{review.loss:.1f}")
    )
    img = Image.new("RGB", (width, 2 * caption + boards[0].height), page)
    d = ImageDraw.Draw(img)
    f = font(max(10, round(caption * 0.5)))
    margin = caption * 0.3
    d.text(
        (margin, caption / 2),
        _("turn {n}: {who} blundered, losing {what}", n=review.number, who=who, what=lost),
        fill=ALERT,
        font=f,
        anchor="lm",
    )
    texts = [
        _("played: {turn}", turn=review.played),
        _("better: {turn}", turn=review.better or "-"),
    ]
    for k, (board_img, line) in enumerate(zip(boards, texts, strict=True)):
        img.paste(board_img, (k * half, 2 * caption))
        fitted = _fit(d, line, f, half - 2 * margin)
        d.text((k * half + margin, caption * 1.5), fitted, fill=text, font=f, anchor="lm")
    return img


def _fit(d: ImageDraw.ImageDraw, text: str, f: FreeTypeFont, room: float) -> str:
    """``text``, cut short with an ellipsis if it is wider than ``room`` pixels."""
    if d.textlength(text, font=f) <= room:
        return text
    while text and d.textlength(text + "…", font=f) > room:
        text = text[:-1]
    return text + "…"
