"""End-to-end load: ``.venv/bin/python bench/e2e.py [--matches 200] [--runs 3] [--pace 0]``.

Starts the local Discord and the real bot as separate processes, then plays that many
duels at once by simulated slash commands. Prints moves per second and the time from
each interaction to the bot's first response (p50, p99, max), how many missed
Discord's three-second deadline (target: none), the messages the bot posted, edited
and deleted per move, the REST calls Discord's global limit counts per plane action
(target: at most 0.35) with the ceiling they imply for the whole bot (50 ÷ calls per
action, in plane actions per second), the 429s the bot got from localcord's Discord rate
limits and the calls per move that emptied a bucket (the bot's limiter waits after each);
with several runs, each run and the medians. ``--pace 4`` has every player wait about
4 s (2 to 6, real time) before each move, as a person does.

``--processes 2 --shards 2 --guilds 8 --database postgresql://…`` runs the bot as
sharded processes sharing one database (each process runs its share of the shards;
the matches are spread over the guilds).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
from pathlib import Path

# Run as a script, this file's folder comes first on sys.path: put the repository root
# there instead, as the other benchmarks do.
HERE = str(Path(__file__).resolve().parent)
sys.path[:] = [str(Path(HERE).parent) if p == HERE else p for p in sys.path]

from bot.cli.main import main as crosshairs  # noqa: E402
from localcord.botproc import BotProcess  # noqa: E402
from localcord.load import LoadReport, play_many  # noqa: E402
from localcord.server import LocalDiscord  # noqa: E402


async def bench(args: argparse.Namespace, seed: int) -> LoadReport:
    server = LocalDiscord(shard_count=args.shards)
    await server.start()
    world = server.world
    guilds = [world.guild_id] + [world.add_guild(f"guild {i}") for i in range(1, args.guilds)]
    with tempfile.TemporaryDirectory() as workdir:
        shared = Path(workdir)
        bots = [
            BotProcess(
                server,
                shared,
                {"LOG_LEVEL": "WARNING"},
                shard_ids=list(range(p, args.shards, args.processes)),
                database_url=args.database,
                name=f"bot{p}",
            )
            for p in range(args.processes)
        ]
        try:
            for bot in bots:
                await bot.start()
            await asyncio.wait_for(world.commands_synced.wait(), 30)
            return await play_many(server, args.matches, seed, guilds, pace=args.pace)
        finally:
            for bot in bots:
                await bot.stop()
            await server.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--shards", type=int, default=1)
    parser.add_argument("--guilds", type=int, default=1)
    parser.add_argument("--database", default=None, help="DATABASE_URL shared by processes")
    parser.add_argument("--pace", type=float, default=0.0, help="seconds a player thinks")
    args = parser.parse_args()
    if args.processes > 1 and args.database is None:
        parser.error("several processes need one shared database: --database postgresql://…")
    if args.database is not None and args.runs > 1:
        # the bot keeps its command sync in the database and would skip it on a fresh
        # local Discord: each run needs an empty database
        parser.error("--runs needs a fresh database each run: run once per --database")
    if not 1 <= args.processes <= args.shards:
        parser.error("each process needs at least one shard: --processes ≤ --shards")
    # the bot refuses a database without its schema: create it, as an operator would
    if args.database is not None and crosshairs(["db", "--db", args.database, "migrate"]):
        return 2
    where = f"{args.processes} process(es) × {args.shards} shard(s), {args.guilds} guild(s)"
    reports = []
    for run in range(args.runs):
        report = asyncio.run(bench(args, args.seed + run))
        paced = f", players thinking ~{args.pace:g} s" if args.pace else ""
        print(f"run {run + 1}: {args.matches} concurrent duels, {where}{paced}:")
        for line in report.lines():
            print(f"  {line}")
        reports.append(report)
    if args.runs > 1:
        med = statistics.median
        print(
            f"median of {args.runs} runs: {med(r.moves_per_second for r in reports):.1f} "
            f"moves/s, p50 {med(r.p50 for r in reports) * 1000:.0f} ms, "
            f"p99 {med(r.p99 for r in reports) * 1000:.0f} ms, "
            f"max {med(r.worst for r in reports) * 1000:.0f} ms, "
            f"late {med(r.over_deadline + r.refused_late for r in reports):g}, "
            f"429s {med(r.too_many for r in reports):g}, "
            f"most calls in one second {med(r.peak for r in reports):g}, "
            f"rate-limited calls per plane action {med(r.calls_per_action for r in reports):.3f}, "
            f"ceiling {med(r.ceiling for r in reports):,.0f} plane actions/s"
        )
    ok = all(r.over_deadline == 0 and r.finished == r.matches for r in reports)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
