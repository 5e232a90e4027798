"""A whole game as an animated GIF, for the end-of-game post.

The game is rebuilt from its start by replaying its record on one fresh game, drawing a
frame at the end of every player-turn (or after every step). GIF allows 256 colours, so
every frame is mapped without dithering onto the match's palette (the one its boards are
encoded with, :func:`render.static.palette`, made for the clouds of the end position;
earlier frames have fewer clouds but no other colours): the colours stay put from frame
to frame, flat areas stay flat, and Pillow can store each frame as just the rectangle
that changed, which keeps a long game well under Discord's upload limit.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Final

from PIL import Image

from render import static
from render.board import render_board
from rules import events, serialize
from rules.game import Game

FRAME_MS: Final = 700
FINAL_MS: Final = 3000


def replay_gif(
    game: Game,
    *,
    size: int = 560,
    per: str = "turn",
    theme: str = "dark",
    names: Sequence[str] | None = None,
    frame_ms: int = FRAME_MS,
    final_ms: int = FINAL_MS,
) -> bytes:
    """``game`` from its start to where it stands now, one frame per player-turn
    (``per="turn"``) or per step (``per="step"``); the last frame is held longer."""
    if per not in ("turn", "step"):
        raise ValueError("per is 'turn' or 'step'")
    frames = [render_board(g, size=size, theme=theme, names=names) for g in _positions(game, per)]
    palette = static.palette(size, game.mode.key, theme, frozenset(game.clouds))
    quantized = [f.quantize(palette=palette, dither=Image.Dither.NONE) for f in frames]
    durations = [frame_ms] * (len(quantized) - 1) + [final_ms]
    out = io.BytesIO()
    quantized[0].save(
        out,
        "GIF",
        save_all=True,
        append_images=quantized[1:],
        duration=durations,
        loop=0,
        optimize=True,
    )
    return out.getvalue()


def _positions(game: Game, per: str) -> list[Game]:
    """Snapshots of the game rebuilt from its start: the start, then one per frame."""
    start = serialize.to_dict(game)
    tokens = start["steps"]
    start["steps"] = []
    fresh = serialize.from_dict(start)
    shots = [fresh.copy()]
    for k, token in enumerate(tokens):
        serialize.apply_record(fresh, token)
        last = k == len(tokens) - 1
        turn_over = any(
            isinstance(e, events.TurnPassed | events.GameOver) for e in fresh.history[-1].events
        )
        if per == "step" or turn_over or last:
            shots.append(fresh.copy())
    return shots
