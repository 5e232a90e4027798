"""Start-up: read the configuration and run the bot, or explain how to connect it.

With no ``DISCORD_TOKEN`` the bot cannot log in to Discord; instead of a traceback this
prints how to create a Discord application and starts the local alternative: the
playground, the real bot on a local Discord played from a web page, so a newcomer can
play at once. ``--terminal`` plays a game in the terminal instead.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from dotenv import load_dotenv

NO_TOKEN_HELP = """\
No DISCORD_TOKEN is set, so the Discord bot cannot log in.

To connect it to Discord:
  1. Create an application at https://discord.com/developers/applications
     and add a Bot to it (Bot tab); copy its token.
  2. Copy .env.example to .env and set DISCORD_TOKEN=<the token>.
  3. Invite the bot with the link described in README.md ("Connecting to Discord").
  4. Run the same command again.

Meanwhile, here is the playground: the real bot on a local Discord, in your browser.
"""


def read_env_file(path: Path = Path(".env")) -> None:
    """Fill the environment from ``path``; what the real environment already sets wins."""
    load_dotenv(path, override=False)


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="scripts/run",
        description="Run the Crosshairs Discord bot (DISCORD_TOKEN set), or else the "
        "playground: the real bot on a local Discord, in your browser.",
    )
    parser.add_argument(
        "--terminal", action="store_true", help="play a game in the terminal instead"
    )
    parser.add_argument(
        "--language",
        default="",
        metavar="LOCALE",
        help="the playground's server and people in this Discord locale (de, fr, es-ES…)",
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    read_env_file()
    if args.terminal:
        from launcher.terminal import play_in_terminal

        return play_in_terminal(sys.stdin, sys.stdout)
    if not os.environ.get("DISCORD_TOKEN"):
        print(NO_TOKEN_HELP, flush=True)
        from localcord.playground import run

        return run(language=args.language)
    from bot.app import run_bot

    return run_bot()
