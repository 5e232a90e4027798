"""``crosshairs new|legal|play|show|selfplay``: the rules engine from the command line.

Games travel as the JSON of :mod:`rules.serialize`; input files are never modified and
``-`` reads a game from standard input.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from collections import Counter
from pathlib import Path

from bot.cli.main import CliError
from rules import clouds, notation, position, serialize, text
from rules.achievements import ALL_CARDS
from rules.ai import STRENGTHS, ComputerPlayer
from rules.errors import RulesError
from rules.game import Game
from rules.modes import MODES, Settings, mode
from rules.players import Player, RandomPlayer, new_game, play_out
from rules.variants import FIRE_MODES, RULESETS, VARIANTS, names, parse_variants
from rules.words.scene import position_text
from rules.words.telling import record_text

RANDOM_TURN_LIMIT = 1000  # random play can wander; the limit keeps selfplay finite
PLAYER_KINDS = ("random", *STRENGTHS)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("new", help="print a new game as JSON")
    _settings_options(p)
    p.add_argument(
        "--clouds",
        default="random",
        help="random (default), manual, none or a preset: " + ", ".join(clouds.PRESETS),
    )
    p.add_argument("--seed", type=int, default=None, help="seed of the random cloud layout")
    p.add_argument("--position", help="start from this position text (spec §10)")
    p.set_defaults(handler=cmd_new)

    p = sub.add_parser("legal", help="print the legal next steps, one per line")
    p.add_argument("game", help="game JSON file, or - for standard input")
    p.set_defaults(handler=cmd_legal)

    p = sub.add_parser("play", help="apply tokens and print the resulting game JSON")
    p.add_argument("game", help="game JSON file, or - for standard input")
    p.add_argument("tokens", nargs="+", help="tokens, whole-plane (e6SS>P) or single-step")
    p.set_defaults(handler=cmd_play)

    p = sub.add_parser("show", help="print a text board and the game's status")
    p.add_argument("game", help="game JSON file, or - for standard input")
    p.add_argument("--position", action="store_true", help="print the position text instead")
    p.add_argument("--moves", action="store_true", help="also print the game record")
    p.add_argument(
        "--words",
        action="store_true",
        help="the position in plain words instead of the text board (with --moves: the "
        "record in words)",
    )
    p.set_defaults(handler=cmd_show)

    p = sub.add_parser("selfplay", help="play games between computer players")
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--mode", default="duel", choices=sorted(MODES))
    p.add_argument("--rules", default="2026", choices=[r.name for r in RULESETS])
    p.add_argument("--variant", default="", help="comma-separated variants")
    p.add_argument("--turn-limit", type=int, default=RANDOM_TURN_LIMIT)
    p.add_argument("--white", default="random", choices=PLAYER_KINDS, help="seat 1's player")
    p.add_argument("--black", default="random", choices=PLAYER_KINDS, help="seat 2's player")
    p.add_argument(
        "--players",
        default=None,
        help="one player per seat, comma-separated, e.g. hard,medium,random (any mode)",
    )
    p.add_argument("--time-budget", type=float, default=None, help="seconds per computer decision")
    p.set_defaults(handler=cmd_selfplay)


def _settings_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--mode", default="duel", help="duel, ffa3..ffa6, cod3..cod6, 1v2, 1v3, 2v2, 3v3"
    )
    p.add_argument("--rules", default="2026", choices=[r.name for r in RULESETS])
    p.add_argument("--planes", type=int, default=None, help="planes per seat (3 to 6)")
    p.add_argument("--fire", default="auto", choices=[f.name for f in FIRE_MODES])
    p.add_argument("--variant", default="", help="comma-separated: " + names(VARIANTS))
    p.add_argument(
        "--handicap",
        action="append",
        default=[],
        metavar="SEAT=K",
        help="give a seat (1, 2 … or A, B …) K height tokens; repeatable",
    )
    p.add_argument("--turn-limit", type=int, default=None, help="draw after this many player-turns")
    p.add_argument("--cards", default="", help="achievement cards in play: all, or comma-separated")
    p.add_argument("--free-clouds", action="store_true", help="allow cloud groups over two cells")


def _seat_number(text: str, seats: int) -> int:
    t = text.strip().upper().removeprefix("P")
    if re.fullmatch(r"[0-9]{1,2}", t):
        seat = int(t) - 1
    elif re.fullmatch(r"[A-Z]", t):
        seat = ord(t) - ord("A")
    else:
        raise CliError(f"--handicap: {text!r} is not a seat (1, 2 … or A, B …)")
    if not 0 <= seat < seats:
        raise CliError(f"--handicap: there is no seat {text!r} in this mode")
    return seat


def _settings(args: argparse.Namespace) -> Settings:
    m = mode(args.mode)
    handicaps = [0] * m.seats
    for item in args.handicap:
        seat_text, sep, k = item.partition("=")
        if not sep or not re.fullmatch(r"[0-9]{1,2}", k.strip()):
            raise CliError(f"--handicap: {item!r} should look like SEAT=K, e.g. 2=3")
        handicaps[_seat_number(seat_text, m.seats)] = int(k)
    cards = (
        ALL_CARDS
        if args.cards.strip().lower() == "all"
        else tuple(c.strip().lower() for c in args.cards.split(",") if c.strip())
    )
    return Settings(
        mode=m.key,
        ruleset=args.rules,
        planes=args.planes,
        fire=args.fire,
        variants=parse_variants(args.variant),
        handicaps=tuple(handicaps),
        cloud_groups=not args.free_clouds,
        turn_limit=args.turn_limit,
        cards=cards,
    )


def load_game(path: str) -> Game:
    """The game in a JSON file (``-``: standard input); a file that is not UTF-8 text
    is refused like any other unreadable game."""
    try:
        source = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise CliError(f"{path}: not a game file (not UTF-8 text: {exc.reason})") from None
    return serialize.loads(source)


def cmd_new(args: argparse.Namespace) -> int:
    settings = _settings(args)
    if args.position:
        extra = {"fire": settings.fire, "turn_limit": settings.turn_limit, "cards": settings.cards}
        game = position.parse(args.position, **extra)
    else:
        choice = args.clouds.lower()
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
        if choice == "random":
            layout = clouds.random_layout(settings.spec, seed, settings.cloud_groups)
            game = Game(settings, layout)
        elif choice == "manual":
            game = Game(settings, clouds=None)
        elif choice == "none":
            game = Game(settings)
        else:
            game = Game(settings, clouds.preset(choice))
    print(serialize.dumps(game))
    return 0


def cmd_legal(args: argparse.Namespace) -> int:
    game = load_game(args.game)
    for step in game.legal_steps():
        print(step.token)
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    game = load_game(args.game)
    tokens = [t for arg in args.tokens for t in arg.split()]
    try:
        notation.play_tokens(game, tokens)
    except RulesError as exc:
        raise CliError(str(exc)) from None
    print(serialize.dumps(game))
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    game = load_game(args.game)
    if args.position:
        if not game.at_turn_start:
            raise CliError("the game does not stand at the start of a player-turn")
        print(position.format_position(game))
        return 0
    if args.words:
        print(position_text(game))
        if args.moves:
            print(f"\n{record_text(game)}")
        return 0
    print(text.show(game))
    if args.moves:
        print()
        for turn, seat, line in notation.turn_texts(game):
            print(f"{turn:>3}. {game.mode.seat_label(seat)}: {line}")
    return 0


def cmd_selfplay(args: argparse.Namespace) -> int:
    if args.games < 1:
        raise CliError("--games must be at least 1")
    settings = Settings(
        mode=args.mode,
        ruleset=args.rules,
        variants=parse_variants(args.variant),
        turn_limit=args.turn_limit,
    )
    m = settings.spec
    kinds = _player_kinds(args, m.seats)
    rng = random.Random(args.seed)
    tally: Counter[str] = Counter()
    limited = 0
    for number in range(1, args.games + 1):
        game = new_game(settings, rng.randrange(2**31))
        play_out(game, [_player(kind, rng, args.time_budget) for kind in kinds])
        assert game.result is not None
        if game.result.winners:
            outcome = " and ".join(m.seat_label(s) for s in game.result.winners)
            outcome += f" {'win' if len(game.result.winners) > 1 else 'wins'}"
            for s in game.result.winners:
                tally[m.seat_label(s)] += 1
        else:
            outcome = "drawn"
            tally["drawn"] += 1
        limited += game.result.reason == "turn limit"
        print(f"game {number}: {game.turn} player-turns, {outcome} ({game.result.reason})")
    parts = [f"{label} {tally[label]}" for label in [m.seat_label(s) for s in range(m.seats)]]
    parts.append(f"drawn {tally['drawn']}")
    print(f"total: {args.games} games; " + ", ".join(parts) + f"; {limited} hit the turn limit")
    return 0


def _player_kinds(args: argparse.Namespace, seats: int) -> list[str]:
    if args.players is None:
        if seats != 2 and (args.white, args.black) != ("random", "random"):
            raise CliError("--white and --black are for duels: use --players for more seats")
        return [args.white, args.black] if seats == 2 else ["random"] * seats
    kinds = [k.strip().lower() for k in args.players.split(",")]
    if len(kinds) != seats:
        raise CliError(f"--players: this mode has {seats} seats, {len(kinds)} players given")
    unknown = [k for k in kinds if k not in PLAYER_KINDS]
    if unknown:
        raise CliError(f"--players: {unknown[0]!r} is not one of {', '.join(PLAYER_KINDS)}")
    return kinds


def _player(kind: str, rng: random.Random, budget: float | None) -> Player:
    if kind == "random":
        return RandomPlayer(rng)
    return ComputerPlayer(kind, time_budget=budget, seed=rng.randrange(2**31))
