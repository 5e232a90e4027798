"""Start-up: read the configuration and run the bot, or explain how to connect it.

With no ``DISCORD_TOKEN`` the bot cannot log in to Discord; instead of a traceback this
prints how to create a Discord application and starts the local alternative: the
playground, the real bot on a local Discord played from a web page, so a newcomer can
play at once. ``--terminal`` plays a game in the terminal instead.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

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


def load_dotenv(path: Path = Path(".env")) -> None:
    """Read KEY=VALUE lines from ``path`` into the environment (real env wins)."""
    if not path.exists():
        return
    for line in path.read_text(encoding="utf-8").splitlines():
        key, sep, value = line.strip().partition("=")
        if sep and key and not key.startswith("#"):
            os.environ.setdefault(key.strip(), value.strip().strip('"').strip("'"))


def main() -> int:
    load_dotenv()
    if "--terminal" in sys.argv[1:]:
        from bot.terminal import play_in_terminal

        return play_in_terminal(sys.stdin, sys.stdout)
    if not os.environ.get("DISCORD_TOKEN"):
        print(NO_TOKEN_HELP, flush=True)
        from localcord.playground import run

        return run()
    from bot.discord_app import run_bot

    return run_bot()
