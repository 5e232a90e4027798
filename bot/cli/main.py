"""Entry point of the ``crosshairs`` command.

Each module in :data:`COMMAND_MODULES` adds its subcommands with ``register(sub)``; a
subcommand's handler takes the parsed arguments and returns the exit status. Modules
are imported lazily so ``crosshairs legal`` never pays for discord or Pillow.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import sys
from collections.abc import Callable, Sequence

from rules.errors import RulesError

COMMAND_MODULES = ("bot.cli.game", "bot.cli.db", "bot.cli.render", "bot.cli.analyse")

Handler = Callable[[argparse.Namespace], int]


class CliError(Exception):
    """A user error: printed on stderr as one line, exit status 2."""


@functools.cache  # built once per process: tests and bench/fuzz.py call main() many times
def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="crosshairs",
        description="Crosshairs, Stephen Tavener's WW1 dogfight game: rules engine tools.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Handler = args.handler
    try:
        return handler(args)
    except (CliError, RulesError, OSError) as exc:
        print(f"crosshairs {args.command}: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
