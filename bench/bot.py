"""Bot latency in the offline harness: 100 matches in play at once.

Runs the real discord.py bot inside simcord's in-memory Discord, opens 100 duels and
plays them in rounds (one move in every match per round), and times each
``/crosshairs move`` from the interaction arriving to the edited board being sent.
simcord delivers one interaction at a time, so the figure is the bot's own work per
interaction (rules, SQLite commit, rendering, Discord calls) with 100 live matches in
memory; Discord's network is not part of it. Target: p99 under 300 ms.

Run: .venv/bin/python bench/bot.py [--matches 100] [--moves 20]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import simcord

from bot.app import create_bot
from bot.config import Config


async def run(matches: int, moves: int) -> list[float]:
    with tempfile.TemporaryDirectory() as tmp:
        bot = create_bot(Config(token=None, database_path=Path(tmp) / "bench.db", computer_pace=0))
        times: list[float] = []
        async with simcord.run(bot) as env:
            guild = env.create_guild()
            channel = guild.create_text_channel("bench")
            players = [guild.add_member(env.create_user(f"pilot{i}")) for i in range(2 * matches)]
            for i in range(matches):
                invite = await players[2 * i].slash(
                    channel, "crosshairs challenge", opponent=players[2 * i + 1]
                )
                assert invite.response is not None
                await players[2 * i + 1].click(invite.response.message, label="Accept")
            threads = {t.id: t for t in channel.threads}
            by_user = {p.id: p for p in players}
            rng = random.Random(1)
            for _ in range(moves):
                for live in bot.games.live_matches():
                    user = live.user_to_move()
                    thread = threads.get(live.record.thread_id or 0)
                    if user is None or thread is None:
                        continue
                    token = rng.choice(live.game.legal_steps()).token
                    start = time.perf_counter()
                    await by_user[user].slash(thread, "crosshairs move", tokens=token)
                    times.append((time.perf_counter() - start) * 1000)
        await bot.db.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--moves", type=int, default=20)
    args = parser.parse_args()
    times = asyncio.run(run(args.matches, args.moves))
    times.sort()
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    print(
        f"{args.matches} matches, {len(times)} moves: interaction → board sent "
        f"median {statistics.median(times):.1f} ms, p99 {p99:.1f} ms, max {times[-1]:.1f} ms "
        f"(target p99 < 300 ms)"
    )


if __name__ == "__main__":
    main()
