"""Benchmark of storage: the latency of committing one step (one within a turn, one
that passes the turn and so records it, storage/turn_events.py), of marking a turn told,
and the start-up time to list and load every unfinished match.

The database is made in a temporary directory beside the working directory, on the disk
the bot's own file would use by default (a RAM disk would hide the cost of syncing).

    .venv/bin/python bench/storage.py
    .venv/bin/python bench/storage.py --steps 5000 --matches 10000 --dir /var/lib/bot
    .venv/bin/python bench/storage.py --url postgresql://bot@127.0.0.1/bench  # an empty database
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

# This file is itself named storage.py: the project root must come first on the path.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from storage.db import Database
from storage.health import open_checked
from storage.matches import MatchRepo, NewMatch, SeatSpec
from storage.sqlite import SqliteDatabase
from storage.turn_events import TurnEventRepo

TOKENS = ("+a3NE", "k7C<", "c3F", "e6S>", "*d4", "-", "f5P", "g2C")


def game_json(steps: int) -> str:
    """A document the size of a real mid-game duel: settings and the step list."""
    return json.dumps(
        {
            "format": "crosshairs/game",
            "version": 1,
            "settings": {"mode": "duel", "ruleset": "2026", "fire": "auto", "variants": []},
            "start": {"clouds": [f"{c}{r}" for c in "abcdefgh" for r in (2, 5)]},
            "steps": [TOKENS[i % len(TOKENS)] for i in range(steps)],
            "status": {"phase": "play", "turn": steps // 6, "to_move": steps % 2},
        }
    )


def new_match(i: int) -> NewMatch:
    return NewMatch(
        mode="duel",
        ruleset="2026",
        fire_mode="auto",
        guild_id=1 + i % 50,
        channel_id=10_000 + i,
        thread_id=20_000 + i,
        seats=[
            SeatSpec(0, 0, user_id=1 + i % 997, display_name=f"player {i % 997}"),
            SeatSpec(1, 1, user_id=1000 + i % 991, display_name=f"player {1000 + i % 991}"),
        ],
        snapshot=game_json(120),
        to_move_seat=0,
        turn_deadline=time.time() + 3600,
    )


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def fsync_latency(directory: Path, count: int = 1000) -> list[float]:
    """The disk's own cost of one sync, the floor under a durable commit."""
    path = directory / "fsync.bin"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT)
    times: list[float] = []
    try:
        for i in range(count):
            os.pwrite(fd, b"x" * 8192, (i % 100) * 8192)
            start = time.perf_counter()
            os.fsync(fd)
            times.append(time.perf_counter() - start)
    finally:
        os.close(fd)
        path.unlink()
    return times


async def step_latency(
    target: str, steps: int, *, passes_turn: bool
) -> tuple[list[float], list[float]]:
    """The seconds each step took to commit and, for steps that pass the turn, each
    turn's mark once told."""
    async with await Database.open(target) as db:
        repo, turns = MatchRepo(db), TurnEventRepo(db)
        ids = [await repo.create(new_match(i)) for i in range(50)]
        plies = dict.fromkeys(ids, 0)
        snapshots = [game_json(120 + n) for n in range(8)]
        times: list[float] = []
        told: list[float] = []
        for n in range(steps):
            match_id = ids[n % len(ids)]
            plies[match_id] += 1
            start = time.perf_counter()
            await repo.append_step(
                match_id,
                plies[match_id],
                TOKENS[n % len(TOKENS)],
                1,
                snapshots[n % len(snapshots)],
                to_move_seat=n % 2,
                turn_deadline=time.time() + 600,
                passes_turn=passes_turn,
            )
            times.append(time.perf_counter() - start)
            if passes_turn:
                start = time.perf_counter()
                await turns.done(match_id, plies[match_id])
                told.append(time.perf_counter() - start)
        if isinstance(db, SqliteDatabase):
            wal = Path(f"{db.path}-wal").stat().st_size
            print(f"WAL after {steps} steps: {wal / 1e6:.1f} MB (checkpointed in the background)")
        return times, told


async def fill(target: str, matches: int) -> None:
    async with await Database.open(target) as db:
        repo = MatchRepo(db)
        for i in range(matches):
            await repo.create(new_match(i))


async def resume(target: str) -> tuple[float, int, int]:
    """What the bot does at start-up: the checked open (integrity check included), then
    listing every unfinished match."""
    start = time.perf_counter()
    async with await open_checked(target) as db:
        found = await MatchRepo(db).list_unfinished()
    return time.perf_counter() - start, len(found.matches), len(found.set_aside)


def report(what: str, seconds: list[float]) -> None:
    ms = [t * 1000 for t in seconds]
    print(
        f"{what}: median {statistics.median(ms):.2f} ms, "
        f"99th percentile {percentile(ms, 0.99):.2f} ms, max {max(ms):.2f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=3000, help="steps to commit (3000)")
    parser.add_argument("--matches", type=int, default=10_000, help="matches to resume (10000)")
    parser.add_argument("--dir", type=Path, default=Path.cwd(), help="where to make the file")
    parser.add_argument(
        "--url", default=None, help="an empty PostgreSQL database to use instead of SQLite files"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir, prefix=".bench-storage-") as tmp:
        if args.url is None:
            print(f"database in {tmp}")
            disk = [t * 1000 for t in fsync_latency(Path(tmp))]
            print(
                f"disk fsync of 8 kB: median {statistics.median(disk):.2f} ms, "
                f"99th percentile {percentile(disk, 0.99):.2f} ms"
            )
        durability = "synchronous=FULL" if args.url is None else "PostgreSQL, synchronous_commit"
        for passes_turn in (False, True):
            # a fresh database each (on PostgreSQL, 50 more matches in the same one)
            name = f"steps-{passes_turn}.db"
            steps_target = args.url or f"sqlite:///{Path(tmp) / name}"
            times, told = asyncio.run(
                step_latency(steps_target, args.steps, passes_turn=passes_turn)
            )
            what = "that passes the turn" if passes_turn else "within a turn"
            report(f"commit one step {what} ({len(times)} steps, {durability})", times)
            if told:
                report("mark a turn told (after its DM, off the action's path)", told)
        # On PostgreSQL the matches join the 50 above in the same database.
        resume_target = args.url or f"sqlite:///{Path(tmp) / 'resume.db'}"
        start = time.perf_counter()
        asyncio.run(fill(resume_target, args.matches))
        print(f"stored {args.matches} matches in {time.perf_counter() - start:.1f} s")
        seconds, loaded, set_aside = asyncio.run(resume(resume_target))
        print(
            f"start-up: checked open and load {loaded} unfinished matches "
            f"({set_aside} set aside) in {seconds:.2f} s"
        )


if __name__ == "__main__":
    main()
