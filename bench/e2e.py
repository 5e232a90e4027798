"""End-to-end load: ``.venv/bin/python bench/e2e.py [--matches 200]``.

Starts the local Discord and the real bot as a separate process, then plays that many
duels at once by simulated slash commands. Prints moves per second and the time from
each interaction to the bot's first response (p50, p99, max), how many missed
Discord's three-second deadline (target: none), and the messages the bot posted, edited
and deleted per move (rate-limited REST calls; target: near one).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

# Run as a script, this file's folder comes first on sys.path: put the repository root
# there instead, as the other benchmarks do.
HERE = str(Path(__file__).resolve().parent)
sys.path[:] = [str(Path(HERE).parent) if p == HERE else p for p in sys.path]

from localcord.autoplay import message_calls  # noqa: E402
from localcord.botproc import BotProcess  # noqa: E402
from localcord.load import play_many  # noqa: E402
from localcord.server import LocalDiscord  # noqa: E402


async def bench(matches: int, seed: int) -> int:
    server = LocalDiscord()
    await server.start()
    with tempfile.TemporaryDirectory() as workdir:
        bot = BotProcess(server, Path(workdir), {"LOG_LEVEL": "WARNING"})
        try:
            await bot.start()
            await asyncio.wait_for(server.world.commands_synced.wait(), 30)
            report = await play_many(server, matches, seed)
        finally:
            await bot.stop()
            await server.stop()
        print(f"{matches} concurrent duels against the bot process (python -m bot):")
        for line in report.lines():
            print(f"  {line}")
        calls = message_calls(server.world.requests)
        moves = max(1, report.moves)
        print(
            f"  messages per move: {calls['posts'] / moves:.2f} posted, "
            f"{calls['edits'] / moves:.2f} edited, {calls['deletes'] / moves:.2f} deleted "
            f"({sum(calls.values()) / moves:.2f} in all)"
        )
        return 0 if report.over_deadline == 0 and report.finished == matches else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    return asyncio.run(bench(args.matches, args.seed))


if __name__ == "__main__":
    sys.exit(main())
