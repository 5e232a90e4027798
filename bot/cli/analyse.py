"""``crosshairs analyse``: judge every player-turn of a game (:mod:`rules.ai.analysis`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rules import serialize
from rules.ai.analysis import AnalysisDepth, report, review, turn_count


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("analyse", help="find the inaccuracies, mistakes and blunders of a game")
    p.add_argument("game", help="game JSON file, or - for standard input")
    p.add_argument("--png", help="also draw the evaluation graph and the blunders to this PNG")
    p.add_argument("--width", type=int, default=AnalysisDepth.width, help="beam of the search")
    p.add_argument(
        "--candidates",
        type=int,
        default=AnalysisDepth.candidates,
        help="turns checked against the replies",
    )
    p.add_argument("--names", default="", help="player names by seat, comma-separated")
    p.add_argument("--quiet", action="store_true", help="no progress on standard error")
    p.set_defaults(handler=cmd_analyse)


def cmd_analyse(args: argparse.Namespace) -> int:
    from bot.cli.main import CliError

    if args.width < 1 or args.candidates < 1:
        raise CliError("--width and --candidates must be at least 1")
    source = sys.stdin.read() if args.game == "-" else Path(args.game).read_text(encoding="utf-8")
    game = serialize.loads(source)
    names = [n.strip() for n in args.names.split(",")] if args.names.strip() else None
    total = turn_count(game)
    if not total:
        raise CliError("the game has no finished player-turn to analyse")
    reviews = []
    for r in review(game, AnalysisDepth(width=args.width, candidates=args.candidates)):
        reviews.append(r)
        if not args.quiet:
            print(f"\ranalysed {len(reviews)}/{total} turns", end="", file=sys.stderr, flush=True)
    if not args.quiet:
        print(file=sys.stderr)
    print(report(reviews, names, game.mode.teams))
    if args.png:
        from render.analysis import analysis_png

        Path(args.png).write_bytes(analysis_png(game, reviews, names=names))
    return 0
