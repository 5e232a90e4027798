"""``crosshairs render|replay``: the board as a PNG, a whole game as an animated GIF."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.cli.game import load_game
from render.palette import THEMES


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("render", help="draw a game's board as a PNG")
    p.add_argument("game", help="game JSON file, or - for standard input")
    p.add_argument("-o", "--output", required=True, help="PNG file to write")
    p.add_argument("--size", type=int, default=1024, help="image width in pixels (default 1024)")
    p.add_argument(
        "--lines", action="store_true", help="show the lines of fire of the side to move"
    )
    p.add_argument("--theme", default="dark", choices=sorted(THEMES))
    p.add_argument("--names", default="", help="player names by seat, comma-separated")
    p.set_defaults(handler=cmd_render)

    p = sub.add_parser("replay", help="draw a whole game as an animated GIF")
    p.add_argument("game", help="game JSON file, or - for standard input")
    p.add_argument("-o", "--output", required=True, help="GIF file to write")
    p.add_argument("--size", type=int, default=560, help="frame width in pixels (default 560)")
    p.add_argument("--per", default="turn", choices=("turn", "step"), help="one frame per …")
    p.add_argument("--theme", default="dark", choices=sorted(THEMES))
    p.add_argument("--names", default="", help="player names by seat, comma-separated")
    p.set_defaults(handler=cmd_replay)


def _draw(args: argparse.Namespace, draw: Callable[..., bytes], **options: Any) -> int:
    """Draws the game of ``args`` with the options both commands share, and writes the file."""
    names = [n.strip() for n in args.names.split(",")] if args.names.strip() else None
    picture = draw(load_game(args.game), size=args.size, theme=args.theme, names=names, **options)
    Path(args.output).write_bytes(picture)
    return 0


def cmd_render(args: argparse.Namespace) -> int:
    from render.board import board_png

    return _draw(args, board_png, lines=args.lines)


def cmd_replay(args: argparse.Namespace) -> int:
    from render.replay import replay_gif

    return _draw(args, replay_gif, per=args.per)
